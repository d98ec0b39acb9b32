package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// decodeJSON reads the request body, one JSON object with only the fields of
// v, into v. Every failure is a 400 (413 for a body over the limit) that says
// what is wrong and where.
func decodeJSON(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		return errorf(http.StatusUnsupportedMediaType, "Content-Type must be application/json, got %q", ct)
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if dec.More() {
			return badRequest("request body holds more than one JSON value")
		}
		if _, err := dec.Token(); err != io.EOF {
			return badRequest("unexpected data after the JSON object")
		}
		return nil
	}
	var (
		tooBig *http.MaxBytesError
		syntax *json.SyntaxError
		typ    *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &tooBig):
		return errorf(http.StatusRequestEntityTooLarge, "request body is larger than the limit of %d bytes", tooBig.Limit)
	case errors.Is(err, io.EOF):
		return badRequest("request body is empty; want a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("request body ends in the middle of the JSON object")
	case errors.As(err, &syntax):
		return badRequest("malformed JSON at byte %d: %v", syntax.Offset, err)
	case errors.As(err, &typ):
		if typ.Field != "" {
			return badRequest("field %q must be %s, got JSON %s", jsonPath(typ.Field), jsonKind(typ.Type.Kind().String()), typ.Value)
		}
		return badRequest("request body must be a JSON object, got JSON %s", typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return badRequest("unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return badRequest("cannot read the request body: %v", err)
}

// jsonPath drops the names of embedded Go structs ("boardRequest.queens")
// from a decoding error's field path: the client knows only JSON names,
// which are all lower case here.
func jsonPath(field string) string {
	var keep []string
	for _, part := range strings.Split(field, ".") {
		if part != "" && !(part[0] >= 'A' && part[0] <= 'Z') && !strings.HasSuffix(part, "Request") {
			keep = append(keep, part)
		}
	}
	return strings.Join(keep, ".")
}

func jsonKind(goKind string) string {
	switch {
	case strings.HasPrefix(goKind, "int"), strings.HasPrefix(goKind, "uint"), strings.HasPrefix(goKind, "float"):
		return "a number"
	case goKind == "string":
		return "a string"
	case goKind == "bool":
		return "true or false"
	case goKind == "slice", goKind == "array":
		return "an array"
	}
	return "an object"
}

// query reads the URL's query parameters, refusing unknown names so that a
// typo is an error rather than silently ignored.
func query(r *http.Request, known ...string) (map[string]string, error) {
	q := r.URL.Query()
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
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, badRequest("%s = %s is out of range %d..%d", name, s, lo, hi)
		}
		return 0, badRequest("%s must be a whole number, got %q", name, s)
	}
	if v < int64(lo) || v > int64(hi) {
		return 0, badRequest("%s = %d is out of range %d..%d", name, v, lo, hi)
	}
	return int(v), nil
}

// checkN bounds the board size N of operation op by the server's limit.
func checkN(n int, op string, limit int) error {
	switch {
	case n < 1:
		return badRequest("n must be at least 1, got %d", n)
	case n > limit:
		return badRequest("n = %d is too large for %s (server limit %d)", n, op, limit)
	}
	return nil
}

// nParam reads the required parameter n for op, 1..limit.
func nParam(q map[string]string, op string, limit int) (int, error) {
	s, ok := q["n"]
	if !ok {
		return 0, badRequest("query parameter n (the board size) is missing")
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, badRequest("n = %s is too large for %s (server limit %d)", s, op, limit)
		}
		return 0, badRequest("n must be a whole number, got %q", s)
	}
	if n > int64(limit) {
		return 0, badRequest("n = %d is too large for %s (server limit %d)", n, op, limit)
	}
	return int(n), checkN(int(n), op, limit)
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
	v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, badRequest("%s must be a whole number from 0 to %d, got %q", name, uint64(1<<64-1), s)
	}
	return v, nil
}

// fmtCount is a count as a decimal string, so that JavaScript, whose
// numbers are exact only below 2^53, reads it exactly.
func fmtCount[T ~uint64 | ~int](v T) string { return fmt.Sprint(v) }
