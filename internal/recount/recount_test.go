package recount

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"slices"
	"testing"
	"time"
)

// allSolutions lists every solution of the n×n board (queen[r] is row r's
// column) by trying every permutation of the columns: slower still than
// the search, and sharing none of it.
func allSolutions(n int) [][]int {
	var out [][]int
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	var try func(k int)
	try = func(k int) {
		if k == n {
			for a := range n {
				for b := a + 1; b < n; b++ {
					if b-a == perm[b]-perm[a] || b-a == perm[a]-perm[b] {
						return
					}
				}
			}
			out = append(out, slices.Clone(perm))
			return
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			try(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	try(0)
	return out
}

// keyOf returns the key of solution q with s separator columns.
func keyOf(q []int, s int) Key {
	n := len(q)
	cl := (n - s) / 2
	k := Key{N: n, Sep: make([]int, s)}
	for r, c := range q {
		switch {
		case c < cl:
			k.Left |= 1 << r
		case c < cl+s:
			k.Sep[c-cl] = r
		}
	}
	return k
}

func (k Key) String() string { return fmt.Sprintf("%d/%#x/%v", k.N, k.Left, k.Sep) }

// TestKeysAgainstPermutations counts every key of N = 4 to 9 with 0, 1
// and 2 separator columns, by both searches, and checks it against the
// solutions found by trying every permutation; and that a key's images
// have its count and its weight.
func TestKeysAgainstPermutations(t *testing.T) {
	ctx := context.Background()
	for n := 4; n <= 9; n++ {
		sols := allSolutions(n)
		for s := n % 2; s <= 2; s += 2 {
			want := map[string]uint64{}
			keys := map[string]Key{}
			for _, q := range sols {
				k := keyOf(q, s)
				want[k.String()]++
				keys[k.String()] = k
			}
			// Every key with a solution, and as many without.
			cl := (n - s) / 2
			for e := uint32(0); e < 1<<n; e++ {
				k := Key{N: n, Left: e, Sep: make([]int, s)}
				for j := range s {
					k.Sep[j] = (int(e) + 3*j + 1) % n
				}
				if k.check() == nil && len(keys) < 2*len(want) && cl > 0 {
					keys[k.String()] = k
				}
			}
			var sum uint64
			for name, k := range keys {
				got, _, err := k.Count(ctx)
				if err != nil {
					t.Fatalf("N=%d key %s: %v", n, name, err)
				}
				if got != want[name] {
					t.Errorf("N=%d key %s: %d solutions, the permutations give %d", n, name, got, want[name])
				}
				if plain, _, err := k.CountPlain(ctx); err != nil || plain != got {
					t.Errorf("N=%d key %s: the plain search gives %d (%v), the bit-set search %d", n, name, plain, err, got)
				}
				sum += got
				w, err := k.Weight()
				if err != nil {
					t.Fatal(err)
				}
				imgs := map[string]bool{}
				for _, q := range sols {
					if keyOf(q, s).String() == name {
						for _, g := range []int{0, 4, 5, 2} { // the mirrors of the columns and rows, the half turn
							img := make([]int, n)
							for r, c := range q {
								p := symmetries[g](n, square{r, c})
								img[p.r] = p.c
							}
							imgs[keyOf(img, s).String()] = true
						}
					}
				}
				if want[name] > 0 && len(imgs) != w {
					t.Errorf("N=%d key %s: weight %d, but its solutions' images fall in %d keys", n, name, w, len(imgs))
				}
			}
			if sum != uint64(len(sols)) {
				t.Errorf("N=%d S=%d: the keys count %d solutions, want %d", n, s, sum, len(sols))
			}
		}
	}
}

// TestBordersAgainstPermutations counts every border of N = 4 to 9, and
// its solutions a half or quarter turn fixes, against the permutations.
func TestBordersAgainstPermutations(t *testing.T) {
	ctx := context.Background()
	for n := 4; n <= 9; n++ {
		type tally struct{ all, rot180, rot90 uint64 }
		want := map[Border]*tally{}
		fixed := func(q []int, g int) bool {
			for r, c := range q {
				if p := symmetries[g](n, square{r, c}); q[p.r] != p.c {
					return false
				}
			}
			return true
		}
		border := func(q []int) Border {
			return Border{Top: q[0], Bottom: q[n-1], Left: slices.Index(q, 0), Right: slices.Index(q, n-1)}
		}
		for _, q := range allSolutions(n) {
			b := border(q)
			// Its orbit: the borders of its images.
			orbit := map[Border]bool{}
			for g := range symmetries {
				img := make([]int, n)
				for r, c := range q {
					p := symmetries[g](n, square{r, c})
					img[p.r] = p.c
				}
				orbit[border(img)] = true
			}
			if got := b.Orbit(n); got != len(orbit) {
				t.Errorf("N=%d %+v: orbit %d, its solution's images have %d borders", n, b, got, len(orbit))
			}
			if want[b] == nil {
				want[b] = &tally{}
			}
			want[b].all++
			if fixed(q, halfTurn) {
				want[b].rot180++
			}
			if fixed(q, quarterTurn) {
				want[b].rot90++
			}
		}
		for top := range n {
			for left := range n {
				for bottom := range n {
					for right := range n {
						b := Border{top, bottom, left, right}
						w := want[b]
						if w == nil {
							w = &tally{}
						}
						got, _, err := b.Count(ctx, n, -1, -1)
						if err != nil {
							if w.all > 0 {
								t.Errorf("N=%d %+v: %v, but it has %d solutions", n, b, err, w.all)
							}
							continue
						}
						if got != w.all {
							t.Errorf("N=%d %+v: %d solutions, want %d", n, b, got, w.all)
						}
						r180, r90, _, err := b.Rotations(ctx, n)
						if err != nil || r180 != w.rot180 || r90 != w.rot90 {
							t.Errorf("N=%d %+v: rotations %d, %d (%v), want %d, %d", n, b, r180, r90, err, w.rot180, w.rot90)
						}
						var split uint64
						for c := range n {
							x, _, err := b.Count(ctx, n, n/2, c)
							if err != nil {
								t.Fatal(err)
							}
							split += x
						}
						if split != got {
							t.Errorf("N=%d %+v: split by row %d's queen it has %d solutions, whole %d", n, b, n/2, split, got)
						}
					}
				}
			}
		}
	}
}

// TestBadInput checks the errors of malformed keys and borders.
func TestBadInput(t *testing.T) {
	ctx := context.Background()
	for _, k := range []Key{
		{N: 0},
		{N: 33},
		{N: 8, Left: 0x0f, Sep: []int{1}},    // 8 − 1 is odd
		{N: 8, Left: 0x07},                   // 3 rows for a half of 4 columns
		{N: 8, Left: 0x10f},                  // a row off the board
		{N: 7, Left: 0x07, Sep: []int{2}},    // the separator on a left row
		{N: 8, Left: 0x03, Sep: []int{5, 5}}, // two separator queens in one row
		{N: 9, Left: 0x0f, Sep: []int{9}},    // off the board
	} {
		if _, _, err := k.Count(ctx); err == nil {
			t.Errorf("key %v: no error", k)
		}
		if _, err := k.Weight(); err == nil {
			t.Errorf("key %v: Weight gives no error", k)
		}
	}
	if _, _, err := (Border{0, 1, 2, 3}).Count(ctx, 8, -1, -1); err == nil {
		t.Error("a top corner queen that is not the left column's: no error")
	}
	if _, _, err := CountKeys(ctx, []Weighted{{Key{N: 8, Left: 0x0f}, 3}}); !errors.As(err, new(*WeightError)) {
		t.Errorf("a wrong weight: %v, want a *WeightError", err)
	}
}

// TestCancel checks that a cancelled search returns the context's error.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := (Key{N: 20, Left: 0x3ff}).Count(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("key: %v, want context.Canceled", err)
	}
	if _, _, err := (Key{N: 20, Left: 0x3ff}).CountPlain(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("key, plain search: %v, want context.Canceled", err)
	}
	if _, _, err := (Border{1, 3, 2, 4}).Count(ctx, 20, -1, -1); !errors.Is(err, context.Canceled) {
		t.Errorf("border: %v, want context.Canceled", err)
	}
	if _, _, _, err := (Border{5, 14, 14, 5}).Rotations(ctx, 20); !errors.Is(err, context.Canceled) {
		t.Errorf("rotations: %v, want context.Canceled", err)
	}
	// A search that ends part way: a key of N = 28 takes hours.
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	for name, search := range map[string]func(Key, context.Context) (uint64, uint64, error){"bit-set": Key.Count, "plain": Key.CountPlain} {
		if _, _, err := search(Key{N: 28, Left: 0x5555555}, ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("key of N = 28, %s search: %v, want context.DeadlineExceeded", name, err)
		}
	}
}

// TestBitsAgainstPlain counts keys of N = 10 to 14 (every tenth row set
// of the left half, each with every separator row) by the bit-set search
// and the plain one; -short stops at 12, NQUEENS_LONG=1 goes on to 17
// (about two minutes, most of it the plain search).
func TestBitsAgainstPlain(t *testing.T) {
	ctx := context.Background()
	top := 14
	switch {
	case testing.Short():
		top = 12
	case os.Getenv("NQUEENS_LONG") == "1":
		top = 17
	}
	for n := 10; n <= top; n++ {
		s := n % 2
		cl := (n - s) / 2
		var keys, sols uint64
		i := 0
		for e := uint32(0); e < 1<<n; e++ {
			if bits.OnesCount32(e) != cl {
				continue
			}
			if i++; i%10 != 0 {
				continue
			}
			for r := range n {
				k := Key{N: n, Left: e}
				if s == 1 {
					if e>>r&1 != 0 {
						continue
					}
					k.Sep = []int{r}
				} else if r > 0 {
					break
				}
				got, _, err := k.Count(ctx)
				want, _, err2 := k.CountPlain(ctx)
				if err != nil || err2 != nil || got != want {
					t.Fatalf("key %s: bit-set search %d (%v), plain %d (%v)", k, got, err, want, err2)
				}
				keys++
				sols += got
			}
		}
		t.Logf("N=%d: %d keys, %d solutions, the same by both searches", n, keys, sols)
	}
}
