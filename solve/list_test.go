package solve

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/testkit"
)

// textFormats are the formats a listing is written in.
var textFormats = []board.Format{board.List, board.JSON, board.Grid, board.Dots, board.Unicode}

// writeReference writes what the single-threaded reference gives, one
// solution at a time: All (or Unique) through board.Write, the JSON lines
// of a unique listing with their orbit, and the "# solution K" lines of
// the board formats.
func writeReference(t testing.TB, w io.Writer, n int, f board.Format, unique bool) {
	t.Helper()
	bw := bufio.NewWriter(w)
	k := 0
	put := func(p board.Placement, orbit int) {
		k++
		switch {
		case f == board.JSON && orbit > 0:
			fmt.Fprintf(bw, `{"n":%d,"queens":[%s],"orbit":%d}`+"\n", n, strings.ReplaceAll(p.String(), " ", ","), orbit)
			return
		case f.IsBoard() && orbit > 0:
			fmt.Fprintf(bw, "# solution %d (class of %d)\n", k, orbit)
		case f.IsBoard():
			fmt.Fprintf(bw, "# solution %d\n", k)
		}
		if err := board.Write(bw, p, f); err != nil {
			t.Fatal(err)
		}
	}
	if unique {
		for c, err := range Unique(n) {
			if err != nil {
				t.Fatal(err)
			}
			put(c.Canonical, c.Size)
		}
	} else {
		for p, err := range All(n) {
			if err != nil {
				t.Fatal(err)
			}
			put(p, 0)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
}

func referenceText(t testing.TB, n int, f board.Format, unique bool) []byte {
	var b bytes.Buffer
	writeReference(t, &b, n, f, unique)
	return b.Bytes()
}

// TestWriteListMatchesReference: the listing is byte for byte the
// reference's, in every format, with and without Unique, on one worker and
// on several.
func TestWriteListMatchesReference(t *testing.T) {
	maxN := 10
	if testing.Short() {
		maxN = 8
	}
	for _, unique := range []bool{false, true} {
		for n := 1; n <= maxN; n++ {
			for _, f := range textFormats {
				want := referenceText(t, n, f, unique)
				for _, workers := range []int{1, 3} {
					var got bytes.Buffer
					res, err := WriteList(context.Background(), &got, n, f, ListOptions{Unique: unique, Workers: workers})
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got.Bytes(), want) {
						t.Fatalf("n=%d %s unique=%v workers=%d: %d bytes, want %d\n%.300s\nwant\n%.300s", n, f, unique, workers, got.Len(), len(want), got.Bytes(), want)
					}
					if res.Bytes != uint64(got.Len()) {
						t.Fatalf("n=%d %s: result says %d bytes, wrote %d", n, f, res.Bytes, got.Len())
					}
				}
			}
		}
	}
}

// goldenFile holds the SHA-256 of every large listing, as the reference
// writes it (go test ./solve -run Golden -update rewrites it, which takes a
// few minutes).
const goldenFile = "testdata/list-sha256.txt"

// goldenSizes are the listings held by hash: list N for N ≤ 15 and
// list N --unique for N ≤ 14, every format.
func goldenSizes() (all, unique int) { return 15, 14 }

func goldenName(n int, f board.Format, unique bool) string {
	if unique {
		return fmt.Sprintf("%d %s unique", n, f)
	}
	return fmt.Sprintf("%d %s", n, f)
}

// TestWriteListGolden holds every listing up to the golden sizes to the
// reference's hash (the sizes up to 10 are compared whole above). Slow:
// not under -short, and only up to N = 12 under the race detector.
func TestWriteListGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: hashes listings of up to 590 MB")
	}
	all, uniq := goldenSizes()
	want := map[string]string{}
	if testkit.Update() {
		var out strings.Builder
		for _, unique := range []bool{false, true} {
			top := all
			if unique {
				top = uniq
			}
			for n := 11; n <= top; n++ {
				for _, f := range textFormats {
					h := sha256.New()
					writeReference(t, h, n, f, unique)
					fmt.Fprintf(&out, "%s\t%x\n", goldenName(n, f, unique), h.Sum(nil))
				}
			}
		}
		if err := os.WriteFile(goldenFile, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(text)) {
		name, sum, ok := strings.Cut(strings.TrimSpace(line), "\t")
		if !ok {
			t.Fatalf("%s: malformed line %q", goldenFile, line)
		}
		want[name] = sum
	}
	if raceEnabled {
		all, uniq = 12, 12
	}
	for _, unique := range []bool{false, true} {
		top := all
		if unique {
			top = uniq
		}
		for n := 11; n <= top; n++ {
			for _, f := range textFormats {
				name := goldenName(n, f, unique)
				var h hash.Hash = sha256.New()
				if _, err := WriteList(context.Background(), h, n, f, ListOptions{Unique: unique}); err != nil {
					t.Fatal(err)
				}
				if got := fmt.Sprintf("%x", h.Sum(nil)); got != want[name] {
					t.Errorf("%s: sha256 %s, the reference's %q", name, got, want[name])
				}
			}
		}
	}
}

// TestListEachMatchesAll: ListEach and List give All's and Unique's
// solutions and orbits, in order.
func TestListEachMatchesAll(t *testing.T) {
	for n := 1; n <= 9; n++ {
		for _, unique := range []bool{false, true} {
			var want []Listed
			if unique {
				for c := range Unique(n) {
					want = append(want, Listed{c.Canonical, c.Size})
				}
			} else {
				for p := range All(n) {
					want = append(want, Listed{p, 0})
				}
			}
			var got []Listed
			err := ListEach(context.Background(), n, ListOptions{Unique: unique, Workers: 2}, func(p board.Placement, orbit int) error {
				got = append(got, Listed{p.Clone(), orbit})
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var seq []Listed
			for l, err := range List(context.Background(), n, ListOptions{Unique: unique, Workers: 2}) {
				if err != nil {
					t.Fatal(err)
				}
				seq = append(seq, l)
			}
			for name, got := range map[string][]Listed{"ListEach": got, "List": seq} {
				if len(got) != len(want) {
					t.Fatalf("n=%d unique=%v: %s gave %d solutions, want %d", n, unique, name, len(got), len(want))
				}
				for i := range got {
					if !got[i].Board.Equal(want[i].Board) || got[i].Orbit != want[i].Orbit {
						t.Fatalf("n=%d unique=%v: %s solution %d is %v, want %v", n, unique, name, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestListLargeN: the first solutions of larger boards are All's and
// Unique's; past 32 rows the parts are walked row by row to the end (the
// first solution of N = 33 takes seconds).
func TestListLargeN(t *testing.T) {
	sizes := []int{20, 21, 25, 32, 33}
	switch {
	case testing.Short():
		sizes = sizes[:1]
	case raceEnabled:
		sizes = sizes[:3]
	}
	for _, n := range sizes {
		for _, unique := range []bool{false, true} {
			const k = 3
			var want []board.Placement
			if unique {
				for c := range Unique(n) {
					if want = append(want, c.Canonical); len(want) == k {
						break
					}
				}
			} else {
				for p := range All(n) {
					if want = append(want, p); len(want) == k {
						break
					}
				}
			}
			i := 0
			for l, err := range List(context.Background(), n, ListOptions{Unique: unique, Limit: k}) {
				if err != nil {
					t.Fatal(err)
				}
				if i >= k || !l.Board.Equal(want[i]) {
					t.Fatalf("n=%d unique=%v: solution %d is %v, want %v", n, unique, i, l.Board, want[min(i, k-1)])
				}
				i++
			}
			if i != k {
				t.Fatalf("n=%d: %d solutions, want %d", n, i, k)
			}
		}
	}
}

// TestListWalkedToTheEnd: with the finisher off, as past 32 rows, the
// listing is still the reference's.
func TestListWalkedToTheEnd(t *testing.T) {
	defer func(k int) { finishUpTo = k }(finishUpTo)
	finishUpTo = 0
	maxN := 9
	if testing.Short() {
		maxN = 7
	}
	for n := 1; n <= maxN; n++ {
		for _, unique := range []bool{false, true} {
			for _, f := range []board.Format{board.List, board.Grid} {
				var got bytes.Buffer
				if _, err := WriteList(context.Background(), &got, n, f, ListOptions{Unique: unique, Workers: 2}); err != nil {
					t.Fatal(err)
				}
				if want := referenceText(t, n, f, unique); !bytes.Equal(got.Bytes(), want) {
					t.Fatalf("n=%d %s unique=%v walked: %q, want %q", n, f, unique, got.Bytes(), want)
				}
			}
		}
	}
}

// TestListLimit: a limit cuts the listing after that many solutions, at
// any place in a chunk, in every format.
func TestListLimit(t *testing.T) {
	const n = 10 // 724 solutions
	for _, f := range textFormats {
		full := referenceText(t, n, f, false)
		for _, limit := range []uint64{1, 2, 99, 700, 724, 725, 10000} {
			var got bytes.Buffer
			res, err := WriteList(context.Background(), &got, n, f, ListOptions{Limit: limit, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			want := firstSolutions(full, f, int(min(limit, 724)))
			if !bytes.Equal(got.Bytes(), want) || res.Solutions != min(limit, 724) {
				t.Fatalf("%s --limit %d: %d solutions, %d bytes, want %d bytes", f, limit, res.Solutions, got.Len(), len(want))
			}
		}
	}
}

// firstSolutions cuts a listing after k solutions.
func firstSolutions(text []byte, f board.Format, k int) []byte {
	lines := bytes.SplitAfter(text, []byte("\n"))
	if f.IsBoard() {
		n := 10
		return bytes.Join(lines[:k*(n+1)], nil)
	}
	return bytes.Join(lines[:k], nil)
}

// TestListStops: breaking the loop, an error of the callback, an error of
// the writer and the end of the context all stop the listing at once, with
// the workers gone (N = 17 lists 95,815,104 solutions: the stop ends
// each long before the end).
func TestListStops(t *testing.T) {
	ctx := context.Background()
	k := 0
	for _, err := range List(ctx, 17, ListOptions{Workers: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		if k++; k == 3 {
			break
		}
	}
	boom := errors.New("boom")
	k = 0
	err := ListEach(ctx, 17, ListOptions{Workers: 2}, func(board.Placement, int) error {
		if k++; k == 1000 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || k != 1000 {
		t.Fatalf("callback error: got %v after %d solutions", err, k)
	}
	cctx, cancel := context.WithCancel(ctx)
	k = 0
	err = ListEach(cctx, 17, ListOptions{Workers: 2}, func(board.Placement, int) error {
		if k++; k == 1 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled listing: %v", err)
	}
	res, err := WriteList(ctx, &failAfter{left: 100000, err: boom}, 17, board.List, ListOptions{Workers: 2})
	if !errors.Is(err, boom) || res.Bytes > 100000 {
		t.Fatalf("failing writer: %v, %+v", err, res)
	}
}

// failAfter is a writer that fails once it has taken left bytes.
type failAfter struct {
	left int
	err  error
}

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		n := w.left
		w.left = 0
		return n, w.err
	}
	w.left -= len(p)
	return len(p), nil
}

// TestListSizes: n out of range is a *board.SizeError, and pictures are
// not listings.
func TestListSizes(t *testing.T) {
	var se *board.SizeError
	for _, n := range []int{0, 65} {
		if _, err := WriteList(context.Background(), io.Discard, n, board.List, ListOptions{}); !errors.As(err, &se) {
			t.Errorf("WriteList(%d): %v", n, err)
		}
		for _, err := range List(context.Background(), n, ListOptions{}) {
			if !errors.As(err, &se) {
				t.Errorf("List(%d): %v", n, err)
			}
		}
	}
	if _, err := WriteList(context.Background(), io.Discard, 8, board.SVG, ListOptions{}); err == nil {
		t.Error("WriteList in svg: no error")
	}
}

// TestCanonicalOrbit holds the image-by-image check to board.Canonical,
// and the border rule to every canonical solution.
func TestCanonicalOrbit(t *testing.T) {
	for n := 1; n <= 10; n++ {
		for p := range All(n) {
			cols := make([]uint8, n)
			for i, c := range p {
				cols[i] = uint8(c)
			}
			canon, size, err := board.Canonical(p)
			if err != nil {
				t.Fatal(err)
			}
			ok, orbit := canonicalOrbit(cols, make([]uint8, n))
			if ok != canon.Equal(p) || ok && orbit != size {
				t.Fatalf("%v: canonicalOrbit says %v %d, board.Canonical %v %d", p, ok, orbit, canon, size)
			}
			if !ok {
				continue
			}
			if !uniqueFirst(n, int(p[0])) {
				t.Fatalf("%v is canonical but uniqueFirst refuses column %d", p, p[0])
			}
			var ban [64]uint64
			borderBans(&ban, n, int(p[0]))
			for r, c := range p {
				if ban[r]>>uint(c)&1 != 0 {
					t.Fatalf("%v is canonical but row %d's column %d is barred", p, r+1, c+1)
				}
			}
		}
	}
}

// TestFinisherMatchesWalk: the finisher finds, from every prefix depth,
// the completions that walking row by row finds, in the same order.
func TestFinisherMatchesWalk(t *testing.T) {
	for n := 4; n <= 11; n++ {
		f := newFinisher(n)
		for from := max(0, n-finishRows); from <= n; from++ {
			cols := make([]uint8, n)
			var ban [64]uint64
			walk(n, cols, &ban, 0, from, nil, func() bool {
				var want [][]uint8
				walk(n, cols, &ban, from, n, nil, func() bool {
					want = append(want, append([]uint8(nil), cols...))
					return true
				})
				occ := ^uint64(0) << uint(n)
				var diag, anti uint64
				for r, c := range cols[:from] {
					bit := uint64(1) << c
					occ |= bit
					diag |= bitsRotate(bit, -r)
					anti |= bitsRotate(bit, r)
				}
				f.finish(occ, diag, anti, (uint64(1)<<uint(n)-1)&^(uint64(1)<<uint(from)-1))
				if len(f.keys) != len(want) {
					t.Fatalf("n=%d prefix %v: %d completions, walk finds %d", n, cols[:from], len(f.keys), len(want))
				}
				for i, key := range f.keys {
					f.decode(key, cols, from)
					if !bytes.Equal(cols, want[i]) {
						t.Fatalf("n=%d: completion %d is %v, walk's %v", n, i, cols, want[i])
					}
				}
				return true
			})
		}
	}
}

func BenchmarkWriteList(b *testing.B) {
	for _, f := range []board.Format{board.List, board.JSON} {
		b.Run(string(f), func(b *testing.B) {
			for b.Loop() {
				res, err := WriteList(context.Background(), io.Discard, 12, f, ListOptions{})
				if err != nil {
					b.Fatal(err)
				}
				listSink = res
			}
		})
	}
}

var listSink ListResult

func bitsRotate(x uint64, k int) uint64 { return x<<uint(k&63) | x>>uint(-k&63) }

// TestListMirrorBudget: with room for only some parts' completions, the
// right half is made from the kept ones and searched for the others, and
// the listing is the same.
func TestListMirrorBudget(t *testing.T) {
	defer func(b int64) { mirrorBudget = b }(mirrorBudget)
	for _, budget := range []int64{0, 6 * 40, 6 * 2000} {
		mirrorBudget = budget
		for _, n := range []int{9, 10} {
			var got bytes.Buffer
			if _, err := WriteList(context.Background(), &got, n, board.List, ListOptions{Workers: 3}); err != nil {
				t.Fatal(err)
			}
			if want := referenceText(t, n, board.List, false); !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("n=%d, mirror budget %d: %d bytes, want %d", n, budget, got.Len(), len(want))
			}
		}
	}
}

// TestListCancelledWithoutOutput: a listing whose parts have found nothing
// yet (N = 64 takes hours to its first solution) still ends with the
// context (the consumer waited for a part that never came).
func TestListCancelledWithoutOutput(t *testing.T) {
	for _, n := range []int{64, 17} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := ListEach(ctx, n, ListOptions{Workers: 2}, func(board.Placement, int) error { return nil })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("n=%d: %v", n, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	go cancel()
	if _, err := WriteList(ctx, io.Discard, 64, board.List, ListOptions{Workers: 2, Limit: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("n=64 cancelled while it runs: %v", err)
	}
}

// TestListFirstOfLargeN: the first solutions of N = 17 and 18 (keys of 5
// bits a column, no mirror) are All's, across many parts.
func TestListFirstOfLargeN(t *testing.T) {
	k := 300000
	if testing.Short() || raceEnabled {
		k = 5000
	}
	for _, n := range []int{17, 18} {
		var want bytes.Buffer
		i := 0
		for p := range All(n) {
			want.Write(board.AppendList(nil, p))
			if i++; i == k {
				break
			}
		}
		var got bytes.Buffer
		if _, err := WriteList(context.Background(), &got, n, board.List, ListOptions{Limit: uint64(k), Workers: 2}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("n=%d: the first %d solutions differ from All's", n, k)
		}
	}
}
