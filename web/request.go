package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/board"
)

// query reads the URL's query parameters, refusing unknown names so that a
// typo is an error rather than silently ignored.
func query(r *http.Request, known ...string) (map[string]string, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, badRequest("malformed query %q: %v", r.URL.RawQuery, err)
	}
	out := make(map[string]string, len(q))
	for name, vals := range q {
		ok := false
		for _, k := range known {
			ok = ok || k == name
		}
		if !ok {
			return nil, badRequest("unknown query parameter %q (want %s)", name, strings.Join(known, ", "))
		}
		if len(vals) > 1 {
			return nil, badRequest("query parameter %q is given %d times", name, len(vals))
		}
		out[name] = vals[0]
	}
	return out, nil
}

// intParam reads an integer parameter in lo..hi; def when it is absent.
func intParam(q map[string]string, name string, def, lo, hi int) (int, error) {
	s, ok := q[name]
	if !ok {
		return def, nil
	}
	if !isWhole(s) {
		return 0, badRequest("%s must be a whole number written in digits, got %q", name, s)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < int64(lo) || v > int64(hi) {
		return 0, badRequest("%s = %s is out of range %d..%d", name, s, lo, hi)
	}
	return int(v), nil
}

// isWhole reports whether s is a whole number in decimal digits, with an
// optional minus sign: no plus sign, no space (Go's parsers take a plus
// sign and the old code trimmed spaces; JSON takes neither).
func isWhole(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// serverLimit is the reason given in a size error: the limit is this
// server's setting, not the library's.
const serverLimit = "the server's limit"

// checkN bounds the board size N of operation op by the server's limit.
func checkN(n int, op string, limit int) error {
	if n < 1 || n > limit {
		return badRequest("%v", &board.SizeError{Op: op, N: n, Max: limit, Why: serverLimit})
	}
	return nil
}

// nParam reads the required parameter n for op, 1..limit.
func nParam(q map[string]string, op string, limit int) (int, error) {
	s, ok := q["n"]
	if !ok {
		return 0, badRequest("query parameter n (the board size) is missing")
	}
	n, err := board.ParseSize(s, op, limit)
	if se := (*board.SizeError)(nil); errors.As(err, &se) {
		se.Why = serverLimit
	}
	if err != nil {
		return 0, badRequest("%v", err)
	}
	return n, nil
}

// choice checks a parameter against a fixed set of values.
func choice(q map[string]string, name, def string, allowed ...string) (string, error) {
	v, ok := q[name]
	if !ok {
		return def, nil
	}
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return "", badRequest("%s = %q is not one of %s", name, v, strings.Join(allowed, ", "))
}

// uintParam reads a uint64 parameter such as a seed.
func uintParam(q map[string]string, name string, def uint64) (uint64, error) {
	s, ok := q[name]
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || !isWhole(s) {
		return 0, badRequest("%s must be a whole number from 0 to %d, got %q", name, uint64(1<<64-1), s)
	}
	return v, nil
}
