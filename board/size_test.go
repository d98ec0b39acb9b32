package board

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want int
		err  string // substring of the error; "" for none
		size bool   // the error is a *SizeError
	}{
		{"8", 64, 8, "", false},
		{"1", 64, 1, "", false},
		{"64", 64, 64, "", false},
		{"2147483647", MaxN, MaxN, "", false},
		{"65", 64, 0, "n = 65 is out of range for op (1..64)", true},
		{"0", 64, 0, "n = 0 is out of range for op (1..64)", true},
		{"-5", 64, 0, "n = -5 is out of range", true},
		{"99999999999999999999", 64, 0, "n = 99999999999999999999 is out of range", true},
		{"-99999999999999999999", 64, 0, "out of range", true},
		{"+8", 64, 0, `got "+8": '+' at character 1 is not a digit`, false},
		{" 8", 64, 0, `' ' at character 1`, false},
		{"8 ", 64, 0, `' ' at character 2`, false},
		{"8\n", 64, 0, `'\n' at character 2`, false},
		{"08", 64, 0, "leading zero", false},
		{"-08", 64, 0, "leading zero", false},
		{"00", 64, 0, "leading zero", false},
		{"", 64, 0, `got "": no digits`, false},
		{"-", 64, 0, "no digits", false},
		{"8x", 64, 0, `'x' at character 2`, false},
		{"1e3", 64, 0, `'e' at character 2`, false},
		{"０８", 64, 0, `'０' at character 1`, false},
		{"0x10", 64, 0, "", false},
	}
	for _, c := range cases {
		got, err := ParseSize(c.in, "op", c.max)
		if c.in == "0x10" { // "0x10" fails on the 'x' or on the zero; either way it fails
			if err == nil {
				t.Errorf("ParseSize(%q) accepted", c.in)
			}
			continue
		}
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseSize(%q) error %v, want one containing %q", c.in, err, c.err)
		case c.err != "":
			var se *SizeError
			if errors.As(err, &se) != c.size {
				t.Errorf("ParseSize(%q): %v is a SizeError: %v, want %v", c.in, err, !c.size, c.size)
			}
		}
	}
}

func TestCheckSize(t *testing.T) {
	for _, c := range []struct {
		n, max int
		ok     bool
	}{{1, 1, true}, {64, 64, true}, {0, 64, false}, {-1, 64, false}, {65, 64, false}} {
		err := CheckSize(c.n, "op", c.max)
		var se *SizeError
		if (err == nil) != c.ok || (err != nil && (!errors.As(err, &se) || se.N != c.n)) {
			t.Errorf("CheckSize(%d, %d) = %v", c.n, c.max, err)
		}
	}
	e := &SizeError{Op: "verify", N: 2_000_000, Max: 1_000_000, Why: "the server's limit"}
	if got, want := e.Error(), "n = 2000000 is out of range for verify (1..1000000, the server's limit)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Every number ParseSize accepts prints back as the same text, and every
// text it refuses is refused with a one-line error.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"8", "0", "-3", "+8", " 8", "08", "99999999999999999999", "", "1e3", "٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseSize(s, "op", 1000)
		if err != nil {
			if strings.Contains(err.Error(), "\n") && !strings.Contains(s, "\n") {
				t.Errorf("ParseSize(%q): error on two lines: %v", s, err)
			}
			return
		}
		if n < 1 || n > 1000 || strconv.Itoa(n) != s {
			t.Errorf("ParseSize(%q) = %d", s, n)
		}
	})
}

func ExampleParseSize() {
	for _, s := range []string{"8", "65", "+8", "08"} {
		n, err := ParseSize(s, "list", 64)
		fmt.Println(n, err)
	}
	// Output:
	// 8 <nil>
	// 0 n = 65 is out of range for list (1..64)
	// 0 n must be a whole number written in digits, got "+8": '+' at character 1 is not a digit
	// 0 n must be a whole number written in digits, got "08": a leading zero (write the number without it)
}
