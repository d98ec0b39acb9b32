package join

import "testing"

// TestChunking holds chunking, which takes its candidates from
// chunkLines, to the cost model written out for every width, the way it
// was first computed: the same chunks and cost for every m and a range of
// items.
func TestChunking(t *testing.T) {
	plain := func(m, items int) (g chunks, cost float64) {
		for w := 1; w <= maxChunk; w++ {
			k := (m + w - 1) / w
			if k > maxChunks {
				continue
			}
			c := 300 + 0.8*float64(k<<w) + float64(items)*(0.5+0.3*float64(k))
			if g.k == 0 || c < cost {
				g, cost = chunks{k, (m + k - 1) / k}, c
			}
		}
		return g, cost
	}
	for m := 1; m <= 64; m++ {
		for _, items := range []int{0, 1, 7, 63, 64, 100, 511, 512, 513, 1000, 4096, 1 << 16, 1 << 22, 1 << 30} {
			g, c := chunking(m, items)
			wg, wc := plain(m, items)
			if g != wg || c != wc {
				t.Fatalf("chunking(%d, %d) = %v, %v; want %v, %v", m, items, g, c, wg, wc)
			}
			if g.k < 1 || g.k > maxChunks || g.w > maxChunk || g.k*g.w < m {
				t.Fatalf("chunking(%d, %d) = %v: not a chunking of %d bits into at most %d chunks of at most %d", m, items, g, m, maxChunks, maxChunk)
			}
		}
	}
}

// TestOrAll holds orAll to a plain loop on every length below 70, each
// pattern with its own bit, so that a pattern left out shows.
func TestOrAll(t *testing.T) {
	for n := range 70 {
		xs := make([]uint64, n)
		var want uint64
		for i := range xs {
			xs[i] = 1 << (i % 64)
			if i%5 == 3 {
				xs[i] |= 1 << 63
			}
			want |= xs[i]
		}
		if got := orAll(xs); got != want {
			t.Fatalf("n=%d: orAll = %#x, want %#x", n, got, want)
		}
	}
}

// TestSieveScore: of two bits that rule out the same share of pairs, the
// sieve splits first on the one whose split copies fewer patterns; of two
// that copy as many, on the one that rules out more pairs.
func TestSieveScore(t *testing.T) {
	for _, c := range []struct {
		name          string
		nx, ny        int
		better, worse [2]float64 // px, py
	}{
		{"fewer copied", 1000, 1000, [2]float64{0.9, 0.25 / 0.9}, [2]float64{0.5, 0.5}},
		{"more ruled out", 1000, 1000, [2]float64{0.6, 0.5}, [2]float64{0.5, 0.5}},
	} {
		b := sieveScore(c.nx, c.ny, c.better[0], c.better[1])
		w := sieveScore(c.nx, c.ny, c.worse[0], c.worse[1])
		if !(b > w) {
			t.Errorf("%s: score %v for %v, not above %v for %v", c.name, b, c.better, w, c.worse)
		}
	}
}
