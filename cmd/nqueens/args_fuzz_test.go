package main

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/i18n"
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

// FuzzNegativeArgs: moving negative numbers behind "--" loses, adds and
// changes no argument (but the one "--"), and leaves a command line
// without a negative number as it is.
func FuzzNegativeArgs(f *testing.F) {
	for _, s := range []string{"count -1", "count -1 --torus", "solve 8 --seed -1", "list -- -3", "show -o -5 -2", "count 8", "-1", "merge -3 --key-file -4 x"} {
		f.Add(s)
	}
	root := newRootCmd(i18n.For(i18n.English))
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		got := negativeArgs(root, args)
		negative := slices.ContainsFunc(args, func(a string) bool { return len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "0123456789") == "" })
		if !negative && !slices.Equal(got, args) {
			t.Fatalf("%q: %q, want it unchanged", args, got)
		}
		want, have := slices.Clone(args), slices.Clone(got)
		if len(have) == len(want)+1 {
			i := slices.Index(have, "--")
			if i < 0 {
				t.Fatalf("%q: %q adds an argument that is no --", args, got)
			}
			have = slices.Delete(have, i, i+1)
		}
		slices.Sort(want)
		slices.Sort(have)
		if !slices.Equal(want, have) {
			t.Fatalf("%q: %q", args, got)
		}
	})
}
