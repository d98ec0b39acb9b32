package solve

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/nqueens/nqueens/board"
)

func TestRandomIsASolution(t *testing.T) {
	sizes := []int{1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20, 31, 64, 100, 127, 128, 129, 200, 1000, 4096, 100_000}
	for n := 14; n < 64; n++ {
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		for seed := range uint64(3) {
			p, err := Random(context.Background(), n, RandomOptions{Seed: seed})
			if err != nil {
				t.Fatalf("Random(%d, seed %d): %v", n, seed, err)
			}
			if err := board.Verify(p); err != nil {
				t.Fatalf("Random(%d, seed %d) is not a solution: %v", n, seed, err)
			}
		}
	}
}

// The two-pass shuffle only runs from 4 blocks of columns up.
func TestRandomBlockShuffle(t *testing.T) {
	n := 4*shuffleBlock + 12345
	p, err := Random(context.Background(), n, RandomOptions{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if err := board.Verify(p); err != nil {
		t.Fatal(err)
	}
}

func TestRandomDependsOnlyOnSeed(t *testing.T) {
	for _, n := range []int{8, 50, 1000, 30_000} {
		a, _ := Random(context.Background(), n, RandomOptions{Seed: 1})
		b, _ := Random(context.Background(), n, RandomOptions{Seed: 1})
		c, _ := Random(context.Background(), n, RandomOptions{Seed: 2})
		if !a.Equal(b) {
			t.Errorf("n = %d: the same seed gave two boards", n)
		}
		if n >= 50 && a.Equal(c) {
			t.Errorf("n = %d: seeds 1 and 2 gave the same board", n)
		}
	}
}

// The same (n, seed) must give the same board on every machine and in every
// version that does not announce a change; these hashes pin the stream.
func TestRandomIsStable(t *testing.T) {
	pins := []struct {
		n    int
		seed uint64
		hash uint64
	}{
		{8, 0, pinned8},
		{1000, 42, pinned1000},
		{300_000, 3, pinned300k},
		{4*shuffleBlock + 12345, 7, pinnedBlock}, // the two-pass shuffle
	}
	for _, c := range pins {
		p, err := Random(context.Background(), c.n, RandomOptions{Seed: c.seed})
		if err != nil {
			t.Fatal(err)
		}
		if h := hashPlacement(p); h != c.hash {
			t.Errorf("Random(%d, seed %d) hashes to %#x, want %#x: the random stream changed", c.n, c.seed, h, c.hash)
		}
	}
}

func hashPlacement(p board.Placement) uint64 {
	h := fnv.New64a()
	for _, c := range p {
		h.Write([]byte{byte(c), byte(c >> 8), byte(c >> 16), byte(c >> 24)})
	}
	return h.Sum64()
}

// Random solutions of one small board should cover many of its solutions:
// 8 queens have 92, and 400 draws should meet most of them.
func TestRandomSpreadsOverSolutions(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(400) {
		p, err := Random(context.Background(), 8, RandomOptions{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		seen[p.String()] = true
	}
	if len(seen) < 60 {
		t.Errorf("400 seeds gave only %d of the 92 solutions of 8 queens", len(seen))
	}
}

func TestRandomBadN(t *testing.T) {
	for _, n := range []int{2, 3} {
		_, err := Random(context.Background(), n, RandomOptions{})
		var none *NoSolutionError
		if !errors.As(err, &none) || none.N != n {
			t.Errorf("Random(%d) = %v, want NoSolutionError", n, err)
		}
	}
	for _, n := range []int{0, -5, board.MaxN + 1} {
		if _, err := Random(context.Background(), n, RandomOptions{}); err == nil {
			t.Errorf("Random(%d) gave no error", n)
		}
	}
}

func TestRandomCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Random(ctx, 1_000_000, RandomOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Random returned %v", err)
	}
	// A board shuffled in blocks notices between blocks.
	s := newSearch(4*shuffleBlock, RandomOptions{})
	if err := s.shuffle(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled shuffle of %d columns returned %v", 4*shuffleBlock, err)
	}
}

func TestRandomProgress(t *testing.T) {
	const n = 500_000
	last, calls := -1, 0
	_, err := Random(context.Background(), n, RandomOptions{Seed: 5, Progress: func(done, total int) {
		if total != n || done < last || done > n {
			t.Errorf("progress(%d, %d) after %d", done, total, last)
		}
		last = done
		calls++
	}})
	if err != nil {
		t.Fatal(err)
	}
	if last != n || calls < 3 || calls > 200 {
		t.Errorf("progress ended at %d after %d calls", last, calls)
	}
}

func ExampleRandom() {
	p, err := Random(context.Background(), 1000, RandomOptions{Seed: 1})
	if err != nil {
		panic(err)
	}
	q, _ := Random(context.Background(), 1000, RandomOptions{Seed: 1})
	fmt.Println(board.Verify(p) == nil, p.Equal(q))
	// Output: true true
}

var sinkPlacement board.Placement

func BenchmarkRandom(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				p, err := Random(context.Background(), n, RandomOptions{Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				sinkPlacement = p
			}
		})
	}
}

const (
	pinned8     = 0x233b3779b7daf665
	pinned1000  = 0xdc019ec4298bcc01
	pinned300k  = 0xa09c2e73c12f2075
	pinnedBlock = 0x26904faccd95fb09
)
