package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
)

// decodeJSON reads the request body, one JSON object with only the fields of
// v, into v. It is stricter than encoding/json, as docs/api.md promises:
// field names match exactly (not in any case), a field is given once, null
// is no value of any field, an array of fixed length (a blocked square's
// [row, column]) has exactly that length, and a number fits its field.
// Every failure is a 400 (413 for a body over the limit, 415 for another
// media type) that names the field.
func decodeJSON(r *http.Request, v any) error {
	if err := checkJSONType(r.Header); err != nil {
		return err
	}
	var body []byte
	var err error
	if b, ok := r.Body.(*bufferedBody); ok {
		body = b.data // read already, within limits, by wrap
	} else {
		body, err = io.ReadAll(r.Body)
	}
	switch {
	case err != nil:
		return badRequest("cannot read the request body: %v", err)
	case len(bytes.TrimSpace(body)) == 0:
		return badRequest("request body is empty; want a JSON object")
	}
	c := checker{dec: json.NewDecoder(bytes.NewReader(body))}
	c.dec.UseNumber()
	if err := c.value(reflect.TypeOf(v).Elem(), ""); err != nil {
		return err
	}
	if _, err := c.dec.Token(); err != io.EOF {
		if err == nil {
			return badRequest("request body holds more than one JSON value")
		}
		return badRequest("unexpected data after the JSON object")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("internal error, a checked body does not decode: %w", err)
	}
	return nil
}

// checkJSONType accepts the media type application/json, in any case, with
// a UTF-8 charset if any: JSON is UTF-8, and a cross-site form cannot send
// this type without a CORS preflight.
func checkJSONType(h http.Header) error {
	types := h.Values("Content-Type")
	if len(types) == 0 {
		return errorf(http.StatusUnsupportedMediaType, "Content-Type must be application/json; the request has none")
	}
	mt, params, err := mime.ParseMediaType(types[0])
	if err != nil || mt != "application/json" || len(types) > 1 {
		return errorf(http.StatusUnsupportedMediaType, "Content-Type must be application/json, got %q", strings.Join(types, ", "))
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return errorf(http.StatusUnsupportedMediaType, "Content-Type: JSON is UTF-8: charset %q is not accepted", cs)
	}
	return nil
}

// checker walks a JSON body token by token along the Go type it is for.
type checker struct{ dec *json.Decoder }

// value checks the next JSON value against t; path names it for errors
// ("" for the whole body).
func (c *checker) value(t reflect.Type, path string) error {
	tok, err := c.dec.Token()
	if err != nil {
		return c.syntaxError(err)
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem() // an optional field: absent is its null
	}
	if d, ok := tok.(json.Delim); ok && (d == '{' && t.Kind() == reflect.Struct || d == '[' && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array)) {
		if d == '{' {
			return c.object(t, path)
		}
		return c.array(t, path)
	}
	switch v := tok.(type) {
	case json.Number:
		return checkNumber(t, path, v)
	case string:
		if t.Kind() == reflect.String {
			return nil
		}
	case bool:
		if t.Kind() == reflect.Bool {
			return nil
		}
	}
	if path == "" {
		return badRequest("request body must be a JSON object, got %s", tokenKind(tok))
	}
	return badRequest("field %q must be %s, got %s", path, typeKind(t), tokenKind(tok))
}

// object checks the members of an object after its '{'.
func (c *checker) object(t reflect.Type, path string) error {
	fields := jsonFields(t)
	seen := map[string]bool{}
	for c.dec.More() {
		tok, err := c.dec.Token()
		if err != nil {
			return c.syntaxError(err)
		}
		name := tok.(string) // an object's key is a string, or Token fails
		ft, ok := fields[name]
		switch {
		case !ok:
			for known := range fields {
				if strings.EqualFold(known, name) {
					return badRequest("unknown field %q (names are case-sensitive: %q)", join(path, name), known)
				}
			}
			return badRequest("unknown field %q", join(path, name))
		case seen[name]:
			return badRequest("field %q is given twice", join(path, name))
		}
		seen[name] = true
		if err := c.value(ft, join(path, name)); err != nil {
			return err
		}
	}
	_, err := c.dec.Token() // '}'
	return c.syntaxError(err)
}

// array checks the elements of an array after its '['.
func (c *checker) array(t reflect.Type, path string) error {
	i := 0
	for ; c.dec.More(); i++ {
		if t.Kind() == reflect.Array && i == t.Len() {
			break
		}
		if err := c.value(t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	if t.Kind() == reflect.Array {
		for ; c.dec.More(); i++ {
			var skip json.RawMessage
			if err := c.dec.Decode(&skip); err != nil {
				return c.syntaxError(err)
			}
		}
		if i != t.Len() {
			return badRequest("field %q must be %s, got %d value%s", path, typeKind(t), i, plural(i))
		}
	}
	_, err := c.dec.Token() // ']'
	return c.syntaxError(err)
}

// syntaxError says where a body stops being JSON; nil for nil.
func (c *checker) syntaxError(err error) error {
	var syntax *json.SyntaxError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("request body ends in the middle of the JSON object")
	case errors.As(err, &syntax):
		return badRequest("malformed JSON at byte %d: %v", syntax.Offset, err)
	}
	return badRequest("malformed JSON at byte %d: %v", c.dec.InputOffset(), err)
}

// checkNumber checks that a JSON number is a whole number that fits t.
func checkNumber(t reflect.Type, path string, v json.Number) error {
	var err error
	var lo, hi string
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		_, err = strconv.ParseInt(string(v), 10, t.Bits())
		lo, hi = strconv.FormatInt(math.MinInt64>>(64-t.Bits()), 10), strconv.FormatInt(math.MaxInt64>>(64-t.Bits()), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		_, err = strconv.ParseUint(string(v), 10, t.Bits())
		lo, hi = "0", strconv.FormatUint(math.MaxUint64>>(64-t.Bits()), 10)
	default:
		return badRequest("field %q must be %s, got a number", path, typeKind(t))
	}
	switch {
	case err == nil:
		return nil
	case strings.Trim(strings.TrimPrefix(string(v), "-"), "0123456789") != "":
		return badRequest("field %q must be a whole number, got %s", path, v)
	}
	return badRequest("field %q = %s is out of range %s..%s", path, v, lo, hi)
}

// jsonFields maps the JSON names of struct t, embedded structs' included,
// to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous || !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// typeKind names what a JSON value of Go type t must be.
func typeKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return typeKind(t.Elem())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Array:
		return fmt.Sprintf("an array of %d %ss", t.Len(), strings.TrimPrefix(typeKind(t.Elem()), "a "))
	case reflect.Slice:
		return "an array"
	}
	return "an object"
}

// tokenKind names the JSON value that starts with tok.
func tokenKind(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case json.Delim:
		if v == '[' {
			return "an array"
		}
		return "an object"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	}
	return fmt.Sprint(tok) // true or false

}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
