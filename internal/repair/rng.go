package repair

import "math/bits"

// RNG is wyrand (Wang Yi's generator): one 64-bit multiply a draw, good
// enough statistics for a shuffle, and the same stream on every machine.
type RNG struct{ state uint64 }

// The constants of wyrand, and of the seed's mixing (the golden ratio).
const (
	wyIncrement = 0xa0761d6478bd642f
	wyMix       = 0xe7037ed1a0b428db
	seedMix     = 0x9e3779b97f4a7c15
)

// NewRNG starts the stream of seed.
func NewRNG(seed uint64) RNG {
	r := RNG{seed ^ seedMix}
	r.Next() // mix the seed so that nearby seeds start far apart
	return r
}

// Next returns the next 64 random bits.
func (r *RNG) Next() uint64 {
	r.state += wyIncrement
	hi, lo := bits.Mul64(r.state, r.state^wyMix)
	return hi ^ lo
}

// Below returns a number in [0, m) by Lemire's multiply-shift; the bias,
// under m/2^64, is far below anything a solution could show.
func (r *RNG) Below(m uint64) uint64 {
	hi, _ := bits.Mul64(r.Next(), m)
	return hi
}

// Shuffle is Fisher-Yates.
func (r *RNG) Shuffle(p []int32) {
	for i := len(p) - 1; i > 0; i-- {
		j := r.Below(uint64(i + 1))
		p[i], p[j] = p[j], p[i]
	}
}
