package join

import (
	"math/bits"
	"os"
	"testing"

	"github.com/nqueens/nqueens/internal/reference"
)

// TestWindowsAtLargeN starts a key of N = 29 with one of the largest
// quarter lists of its N (the left half's top quarter: 334 MB), and keys
// of N = 32 whose lists pass a quarter of the default 2 GB on both sides
// (615 MB and, with NQUEENS_LONG=1, 14.7 GB, the largest we found, which
// takes minutes): such lists are held in windows within it, and the
// first pair of half parts is joined and counted, the worker's memory all
// the while within the 2 GB (the rest of a key takes hours to weeks of
// one core; TestListWorker checks that windows give the same counts and
// pairs as the whole lists).
func TestWindowsAtLargeN(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("walks lists of 10^7 placements and more")
	}
	const memory = 2 << 30
	for _, tt := range []struct {
		n       int
		top     uint32 // the rows of the left half in the top quarter
		windows bool
	}{{29, 0b0010110110110111, false}, {32, 0b1001010101010101, true}, {32, 0b1011011101110111, true}} {
		if tt.top == 0b1011011101110111 && os.Getenv("NQUEENS_LONG") != "1" {
			continue
		}
		l, err := NewLayout(tt.n, tt.n%2)
		if err != nil {
			t.Fatal(err)
		}
		// The rest of the left half's rows: the first of the bottom
		// quarter; the separator's queen, if any, below them.
		k1 := bits.OnesCount32(tt.top)
		e := tt.top | (uint32(1)<<(l.CL-k1)-1)<<l.TR
		si := 0
		for l.seps[si].rows&e != 0 {
			si++
		}
		sp := &l.seps[si]
		f := (uint32(1)<<l.N - 1) &^ e &^ sp.rows
		w := NewListWorker(l)
		w.SetLimit(memory / 2)
		budget := w.limit / 2
		if !w.side(0, e, nil) || !w.side(1, f, nil) {
			t.Fatal("stopped")
		}
		low := uint32(1)<<l.TR - 1
		k2 := bits.OnesCount32(f & low)
		for s, k := range []int{k1, k2} {
			top, bot := w.sizes(s)
			whole := int64(top.off[len(top.off)-1]+bot.off[len(bot.off)-1]) * placementBytes
			if tt.windows && whole <= budget {
				t.Fatalf("N=%d: side %d's lists take %s, within the %s of their windows: nothing to test", tt.n, s, FormatBytes(whole), FormatBytes(budget))
			}
			_, _, end, ok := w.window(s, k, 0, nil)
			win := w.q[2*s].bytes() + w.q[2*s+1].bytes()
			if !ok || (end == len(l.subsets[k])) != (whole <= budget) || win > budget+1<<20 {
				t.Fatalf("N=%d side %d: a window of %d of %d cells, %s (lists of %s, %s allowed), ok %v: %v", tt.n, s, end, len(l.subsets[k]), FormatBytes(win), FormatBytes(whole), FormatBytes(budget), ok, w.Err())
			}
			t.Logf("N=%d side %d: lists of %s whole, the first window %d of %d cells, %s", tt.n, s, FormatBytes(whole), end, len(l.subsets[k]), FormatBytes(win))
		}
		var ok bool
		w.xs, _, ok = w.halfPart(w.xs[:0], 0, k1, 0, sp.mask, nil)
		if ok {
			w.ys, _, ok = w.halfPart(w.ys[:0], 1, k2, 0, l.seps[sp.mirror].mask, nil)
		}
		if !ok {
			t.Fatalf("N=%d: %v", tt.n, w.Err())
		}
		w.ops.reverse(w.ys, 64-l.M)
		_, pairs, _ := w.mt.countDisjoint(w.ops, w.xs, w.ys, nil)
		w.notePeak()
		t.Logf("N=%d: the first parts, %d × %d patterns, %d pairs compared; the worker's peak %s", tt.n, len(w.xs), len(w.ys), pairs, FormatBytes(w.Bytes()))
		if w.Bytes() > memory {
			t.Errorf("N=%d: the worker took %s, more than %s", tt.n, FormatBytes(w.Bytes()), FormatBytes(memory))
		}
	}
}

// TestWindowsWithinLimit counts N = 14 (to 17 outside -short, 16
// under the race detector) with list workers whose limit is so small (8
// kB) that their quarter lists are held in windows of column sets, as
// from N = 28 on at the default memory (N = 17: 10^6 windows, 20 s), and
// halves cut into parts of 512 patterns: the
// published counts, windows used, and each side's lists within their
// half of the limit, beside their three arrays by column set. (At these N
// the halves' buffers take more than the lists, whatever the limit; the
// whole worker's bound is TestWindowsAtLargeN's.) A limit below what one
// column set's placements take fails with a MemoryError.
func TestWindowsWithinLimit(t *testing.T) {
	ref, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	maxN := 17
	switch {
	case testing.Short():
		maxN = 14
	case raceEnabled:
		maxN = 16
	}
	const limit, part = 8 << 10, 512
	for n := 14; n <= maxN; n++ {
		l := mustLayout(t, n)
		w := NewListWorker(l)
		w.SetLimit(limit)
		w.part = part
		var total uint64
		var lists int64
		for u := range l.Units() {
			c, _, ok := w.CountUnit(u, nil)
			if !ok {
				t.Fatalf("N=%d unit %d: %v", n, u, w.Err())
			}
			total += c
			for s := range 2 {
				lists = max(lists, w.q[2*s].bytes()+w.q[2*s+1].bytes())
			}
		}
		if want := ref[n].Total.Uint64(); total != want {
			t.Errorf("N=%d: %d, want %d", n, total, want)
		}
		allowed := int64(limit/2) + int64(2*3*4)<<l.CL + 2*3*4 // and two lists' three arrays of 2^CL + 1
		if w.Windows() == 0 || lists > allowed {
			t.Errorf("N=%d: %d windows, lists of a side %d bytes, %d allowed", n, w.Windows(), lists, allowed)
		}
	}
	w := NewListWorker(mustLayout(t, 16))
	w.SetLimit(64)
	if _, _, ok := w.CountUnit(0, nil); ok || w.Err() == nil {
		t.Fatalf("N=16 in 64 bytes: ok %v, %v", ok, w.Err())
	}
	me, isMe := w.Err().(*MemoryError)
	if !isMe || !me.List || me.Need <= me.Limit || me.Limit != 32 {
		t.Errorf("N=16 in 64 bytes: %#v", w.Err())
	}
}

func mustLayout(t *testing.T, n int) *Layout {
	l, err := NewLayout(n, n%2)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
