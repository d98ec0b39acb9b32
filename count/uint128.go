package count

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"strconv"
)

// Uint128 is an exact unsigned count of up to 128 bits: Q(N) passes 2⁶⁴
// near N = 29. It prints and marshals to JSON as a plain decimal number.
type Uint128 struct{ Hi, Lo uint64 }

// ErrOverflow reports a count that does not fit its integer type: a unit's
// weighted count past 64 bits, or a sum past 128 bits. The error that wraps
// it says which.
var ErrOverflow = errors.New("a count overflows its integer type")

// U128 converts x.
func U128(x uint64) Uint128 { return Uint128{Lo: x} }

// Add returns u+v and false when the sum does not fit in 128 bits.
func (u Uint128) Add(v Uint128) (Uint128, bool) {
	lo, c := bits.Add64(u.Lo, v.Lo, 0)
	hi, c2 := bits.Add64(u.Hi, v.Hi, c)
	return Uint128{hi, lo}, c2 == 0
}

// Cmp compares u and v: -1, 0 or +1.
func (u Uint128) Cmp(v Uint128) int {
	switch {
	case u.Hi < v.Hi || (u.Hi == v.Hi && u.Lo < v.Lo):
		return -1
	case u == v:
		return 0
	}
	return 1
}

// Big returns u as a big.Int.
func (u Uint128) Big() *big.Int {
	x := new(big.Int).SetUint64(u.Hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(u.Lo))
}

// Float64 returns u rounded to a float64.
func (u Uint128) Float64() float64 { return float64(u.Hi)*0x1p64 + float64(u.Lo) }

func (u Uint128) String() string {
	if u.Hi == 0 {
		return strconv.FormatUint(u.Lo, 10)
	}
	return u.Big().String()
}

// parseUint128 reads a decimal number.
func parseUint128(s string) (Uint128, error) {
	x, ok := new(big.Int).SetString(s, 10)
	if !ok || x.Sign() < 0 || x.BitLen() > 128 {
		return Uint128{}, fmt.Errorf("%q is not a whole number below 2^128", s)
	}
	lo := new(big.Int).And(x, new(big.Int).SetUint64(^uint64(0)))
	return Uint128{Hi: new(big.Int).Rsh(x, 64).Uint64(), Lo: lo.Uint64()}, nil
}

// MarshalJSON writes the exact decimal number.
func (u Uint128) MarshalJSON() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalJSON reads a decimal number, quoted or not.
func (u *Uint128) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	v, err := parseUint128(s)
	if err != nil {
		return err
	}
	*u = v
	return nil
}

// div8 returns u/8 and whether the division is exact.
func (u Uint128) div8() (Uint128, bool) {
	exact := u.Lo&7 == 0
	return Uint128{Hi: u.Hi >> 3, Lo: u.Lo>>3 | u.Hi<<61}, exact
}

// mul64 returns x·y and false on overflow.
func mul64(x, y uint64) (uint64, bool) {
	hi, lo := bits.Mul64(x, y)
	return lo, hi == 0
}
