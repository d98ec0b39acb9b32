package board

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/i18n"
)

// SizeError says that a board size n is outside the range an operation
// accepts, 1..Max. Every package of nqueens reports a size out of range
// with it, so the message reads the same everywhere:
//
//	n = 70 is out of range for list (1..64)
//	n = 2000000 is out of range for verify (1..1000000, the server's limit)
type SizeError struct {
	Op    string // what the size is for: "solve", "list", "trace", …
	N     int    // the size, when it fits an int
	Given string // the size as written, when it was read from text
	Max   int    // the largest size Op accepts; the smallest is 1
	Why   string // optional: why Max is the limit ("the server's limit")
	// WhyKey is Why as a message of the catalogs, for Localize; "" for
	// none (Why is then said as it is).
	WhyKey string
}

func (e *SizeError) Error() string {
	v := e.Given
	if v == "" {
		v = strconv.Itoa(e.N)
	}
	why := ""
	if e.Why != "" {
		why = ", " + e.Why
	}
	return fmt.Sprintf("n = %s is out of range for %s (1..%d%s)", v, e.Op, e.Max, why)
}

// Localize is the message in p's language: the catalogs' error.size.
func (e *SizeError) Localize(p *i18n.Printer) string {
	v := e.Given
	if v == "" {
		v = strconv.Itoa(e.N)
	}
	args := i18n.Args{"N": v, "Op": e.Op, "Max": strconv.Itoa(e.Max)}
	if e.Why == "" {
		return p.T("error.size", args)
	}
	args["Why"] = e.Why
	if e.WhyKey != "" {
		args["Why"] = p.T(e.WhyKey, nil)
	}
	return p.T("error.size.why", args)
}

// CheckSize returns a *[SizeError] unless 1 ≤ n ≤ max.
func CheckSize(n int, op string, max int) error {
	if n < 1 || n > max {
		return &SizeError{Op: op, N: n, Max: max}
	}
	return nil
}

// ParseSize reads a board size n for op, which accepts 1..max. The text
// is decimal digits and nothing else: no sign, no space, no leading zero
// (as in JSON, so that a query parameter and a JSON field accept the same
// text and no one wonders whether 010 is octal). A number out of 1..max,
// a negative one or one too long for an int is a *[SizeError]; any other
// text is an error that quotes it. Cost O(len(s)).
func ParseSize(s, op string, max int) (int, error) {
	sign := 0
	if strings.HasPrefix(s, "-") {
		sign = 1 // a negative number is read, to be refused as out of range
	}
	if err := sizeSyntax(s, sign); err != nil {
		return 0, i18n.Wrap(err, "board.size.syntax", i18n.Args{"Value": strconv.Quote(clip([]byte(s)))})
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 1 || v > int64(max) {
		// err can only be a number too long for an int64.
		return 0, &SizeError{Op: op, Given: clip([]byte(s)), Max: max}
	}
	return int(v), nil
}

// sizeSyntax says what is wrong with the digits of a size that start at
// byte from of s, or nil.
func sizeSyntax(s string, from int) error {
	if len(s) == from {
		return errT("board.size.nodigits", nil)
	}
	for i, c := range s[from:] {
		if c < '0' || c > '9' {
			return errT("board.size.notdigit", i18n.Args{"Char": strconv.QuoteRune(c), "Pos": itoa(from + i + 1)})
		}
	}
	if len(s)-from > 1 && s[from] == '0' {
		return errT("board.size.leadingzero", nil)
	}
	return nil
}
