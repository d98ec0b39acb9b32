package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
)

// query reads the URL's query parameters, refusing unknown names so that a
// typo is an error rather than silently ignored. lang, which every
// endpoint takes, is read by wrap (requestLang) and left out.
func query(r *http.Request, known ...string) (map[string]string, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, errorOf(http.StatusBadRequest, i18n.Wrap(err, "error.query.malformed", i18n.Args{"Query": strconv.Quote(r.URL.RawQuery)}))
	}
	out := make(map[string]string, len(q))
	for name, vals := range q {
		if name == "lang" {
			continue
		}
		ok := false
		for _, k := range known {
			ok = ok || k == name
		}
		if !ok {
			return nil, errorT(http.StatusBadRequest, "error.param.unknown", i18n.Args{"Name": strconv.Quote(name), "Known": strings.Join(known, ", ")})
		}
		if len(vals) > 1 {
			return nil, errorT(http.StatusBadRequest, "error.param.twice", i18n.Args{"Name": strconv.Quote(name), "Times": len(vals)})
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
		return 0, errorT(http.StatusBadRequest, "error.param.whole", i18n.Args{"Name": name, "Value": strconv.Quote(s)})
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < int64(lo) || v > int64(hi) {
		return 0, errorT(http.StatusBadRequest, "error.param.range", i18n.Args{"Name": name, "Value": s, "Lo": strconv.Itoa(lo), "Hi": strconv.Itoa(hi)})
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
const serverLimit, serverLimitKey = "the server's limit", "error.limit.server"

// checkN bounds the board size N of operation op by the server's limit.
func checkN(n int, op string, limit int) error {
	if n < 1 || n > limit {
		return errorOf(http.StatusBadRequest, &board.SizeError{Op: op, N: n, Max: limit, Why: serverLimit, WhyKey: serverLimitKey})
	}
	return nil
}

// nParam reads the required parameter n for op, 1..limit.
func nParam(q map[string]string, op string, limit int) (int, error) {
	s, ok := q["n"]
	if !ok {
		return 0, errorT(http.StatusBadRequest, "error.param.n", nil)
	}
	n, err := board.ParseSize(s, op, limit)
	if se := (*board.SizeError)(nil); errors.As(err, &se) {
		se.Why, se.WhyKey = serverLimit, serverLimitKey
	}
	if err != nil {
		return 0, errorOf(http.StatusBadRequest, err)
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
	return "", errorT(http.StatusBadRequest, "error.param.choice", i18n.Args{"Name": name, "Value": strconv.Quote(v), "Allowed": strings.Join(allowed, ", ")})
}

// uintParam reads a uint64 parameter such as a seed.
func uintParam(q map[string]string, name string, def uint64) (uint64, error) {
	s, ok := q[name]
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || !isWhole(s) {
		return 0, errorT(http.StatusBadRequest, "error.param.uint", i18n.Args{"Name": name, "Max": strconv.FormatUint(1<<64-1, 10), "Value": strconv.Quote(s)})
	}
	return v, nil
}
