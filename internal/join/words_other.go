//go:build !linux

package join

// newWords returns n zeroed words and a function that gives them back
// (the Go heap's: nothing to do).
func newWords(n int) ([]uint64, func()) { return make([]uint64, n), func() {} }

// hugeWords is where Linux's newWords maps its memory itself; the tests
// take sizes on both sides of it everywhere.
const hugeWords = 1 << 18
