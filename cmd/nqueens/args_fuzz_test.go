package main

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzParseN: N is accepted exactly when it is written as plain decimal
// digits without a leading zero and lies in 1..limit, and never panics.
func FuzzParseN(f *testing.F) {
	for _, s := range []string{"8", " 12 ", "0", "-3", "65", "1e3", "99999999999999999999", "", "0x10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseN(s, "fuzz", 64)
		v, perr := strconv.ParseInt(s, 10, 64)
		plain := s != "" && s[0] >= '1' && s[0] <= '9' && strings.Trim(s, "0123456789") == ""
		want := perr == nil && plain && v <= 64
		if (err == nil) != want || (err == nil && int64(n) != v) {
			t.Fatalf("parseN(%q) = %d, %v", s, n, err)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("error spans lines: %q", err)
		}
	})
}

// FuzzParseRange: a range A-B is accepted only with 1 ≤ A ≤ B.
func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"1-10", "5-5", "10-1", "-", "a-b", "3", "1-99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, b, err := parseRange(s)
		if err == nil && (a < 1 || b < a) {
			t.Fatalf("parseRange(%q) = %d, %d", s, a, b)
		}
	})
}
