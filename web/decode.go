package web

import (
	"bytes"
	"errors"
	"io"
	"math"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/nqueens/nqueens/i18n"
)

// decodeJSON reads the request body, one JSON object with only the fields of
// v, into v. It is stricter than encoding/json, as docs/api.md promises:
// field names match exactly (not in any case), a field is given once, null
// is no value of any field, an array of fixed length (a blocked square's
// [row, column]) has exactly that length, a number fits its field, and the
// text is UTF-8. Every failure is a 400 (413 for a body over the limit, 415
// for another media type) that names the field.
//
// The body is checked and decoded in one pass over its tokens, which
// allocates nothing per token: what a body costs is its bytes and the
// values it decodes to (see parseFactor), not a token's worth of garbage
// per number (a 1 MB array of zeros made 127 MB of it through
// encoding/json's Token).
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
		return errorOf(http.StatusBadRequest, i18n.Wrap(err, "error.body.read", nil))
	case len(bytes.TrimSpace(body)) == 0:
		return errorT(http.StatusBadRequest, "error.body.empty", nil)
	}
	// A bytes.Buffer is read in place, without a copy. Duplicate names
	// are let through to be refused by name below.
	d := decoder{dec: jsontext.NewDecoder(bytes.NewBuffer(body), jsontext.AllowDuplicateNames(true))}
	if err := d.value(reflect.ValueOf(v).Elem()); err != nil {
		return err
	}
	if _, err := d.dec.ReadToken(); err != io.EOF {
		if err == nil {
			return errorT(http.StatusBadRequest, "error.body.twovalues", nil)
		}
		return errorT(http.StatusBadRequest, "error.body.after", nil)
	}
	return nil
}

// checkJSONType accepts the media type application/json, in any case, with
// a UTF-8 charset if any: JSON is UTF-8, and a cross-site form cannot send
// this type without a CORS preflight.
func checkJSONType(h http.Header) error {
	types := h.Values("Content-Type")
	if len(types) == 0 {
		return errorT(http.StatusUnsupportedMediaType, "error.type.none", i18n.Args{"Header": "Content-Type", "Type": "application/json"})
	}
	mt, params, err := mime.ParseMediaType(types[0])
	if err != nil || mt != "application/json" || len(types) > 1 {
		return errorT(http.StatusUnsupportedMediaType, "error.type.other", i18n.Args{"Header": "Content-Type", "Type": "application/json", "Value": strconv.Quote(strings.Join(types, ", "))})
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return errorT(http.StatusUnsupportedMediaType, "error.type.charset", i18n.Args{"Header": "Content-Type", "Type": "application/json", "Value": strconv.Quote(cs)})
	}
	return nil
}

// decoder walks a JSON body token by token along the Go value it fills.
type decoder struct {
	dec *jsontext.Decoder
	// at is where the walk is, from the body down: a member's name, or
	// an element's index (name ""). It becomes text only for an error.
	at []step
}

type step struct {
	name  string
	index int
}

// where names the value being read, such as blocked[2][0]; "" is the
// whole body.
func (d *decoder) where() string {
	var b strings.Builder
	for _, s := range d.at {
		switch {
		case s.name == "":
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case b.Len() > 0:
			b.WriteString("." + s.name)
		default:
			b.WriteString(s.name)
		}
	}
	return b.String()
}

// value reads the next JSON value into v, checking it against v's type.
func (d *decoder) value(v reflect.Value) error {
	kind := d.dec.PeekKind()
	if kind == 0 { // an error, which the read gives
		_, err := d.dec.ReadToken()
		return d.syntaxError(err)
	}
	t := v.Type()
	if t.Kind() == reflect.Pointer && kind != 'n' {
		v.Set(reflect.New(t.Elem())) // an optional field: absent is its null
		v, t = v.Elem(), t.Elem()
	}
	switch {
	case kind == '{' && t.Kind() == reflect.Struct:
		return d.object(v)
	case kind == '[' && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		return d.array(v)
	case kind == '0':
		raw, err := d.dec.ReadValue()
		if err != nil {
			return d.syntaxError(err)
		}
		return d.setNumber(v, raw)
	case kind == '"' && t.Kind() == reflect.String, (kind == 't' || kind == 'f') && t.Kind() == reflect.Bool:
		tok, err := d.dec.ReadToken()
		if err != nil {
			return d.syntaxError(err)
		}
		if kind == '"' {
			v.SetString(tok.String())
		} else {
			v.SetBool(tok.Bool())
		}
		return nil
	}
	if len(d.at) == 0 {
		return errorT(http.StatusBadRequest, "error.json.notobject", i18n.Args{"Got": kindName(kind)})
	}
	return errorT(http.StatusBadRequest, "error.field.type", i18n.Args{"Field": strconv.Quote(d.where()), "Want": typeKind(t), "Got": kindName(kind)})
}

// object reads the members of an object into struct v.
func (d *decoder) object(v reflect.Value) error {
	if _, err := d.dec.ReadToken(); err != nil { // '{'
		return d.syntaxError(err)
	}
	fields := jsonFields(v.Type())
	seen := map[string]bool{}
	for d.dec.PeekKind() != '}' {
		tok, err := d.dec.ReadToken()
		if err != nil {
			return d.syntaxError(err)
		}
		name := tok.String() // an object's key is a string, or ReadToken fails
		d.at = append(d.at, step{name: name})
		index, ok := fields[name]
		switch {
		case !ok:
			for known := range fields {
				if strings.EqualFold(known, name) {
					return errorT(http.StatusBadRequest, "error.field.case", i18n.Args{"Field": strconv.Quote(d.where()), "Known": strconv.Quote(known)})
				}
			}
			return errorT(http.StatusBadRequest, "error.field.unknown", i18n.Args{"Field": strconv.Quote(d.where())})
		case seen[name]:
			return errorT(http.StatusBadRequest, "error.field.twice", i18n.Args{"Field": strconv.Quote(d.where())})
		}
		seen[name] = true
		if err := d.value(v.FieldByIndex(index)); err != nil {
			return err
		}
		d.at = d.at[:len(d.at)-1]
	}
	_, err := d.dec.ReadToken() // '}'
	return d.syntaxError(err)
}

// array reads the elements of an array into slice or array v. A slice is
// made once, at its length: the array is read whole first (checked as
// JSON, in place) and its elements counted, so that decoding 2 MB of
// columns allocates 2 MB, not the 5 times that growing it step by step
// allocates.
func (d *decoder) array(v reflect.Value) error {
	if v.Kind() == reflect.Slice {
		raw, err := d.dec.ReadValue()
		if err != nil {
			return d.syntaxError(err)
		}
		n, err := countElements(raw)
		if err != nil {
			return d.syntaxError(err)
		}
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		outer := d.dec
		defer func() { d.dec = outer }()
		d.dec = jsontext.NewDecoder(bytes.NewBuffer(raw))
	}
	if _, err := d.dec.ReadToken(); err != nil { // '['
		return d.syntaxError(err)
	}
	d.at = append(d.at, step{})
	i := 0
	for ; d.dec.PeekKind() != ']'; i++ {
		d.at[len(d.at)-1].index = i
		if i >= v.Len() { // a fixed array's extra elements
			if err := d.dec.SkipValue(); err != nil {
				return d.syntaxError(err)
			}
			continue
		}
		if err := d.value(v.Index(i)); err != nil {
			return err
		}
	}
	d.at = d.at[:len(d.at)-1]
	if i != v.Len() {
		return errorOf(http.StatusBadRequest, i18n.NewPluralError("error.field.values", i,
			i18n.Args{"Field": strconv.Quote(d.where()), "Want": typeKind(v.Type()), "Count": strconv.Itoa(i)}))
	}
	_, err := d.dec.ReadToken() // ']'
	return d.syntaxError(err)
}

// countElements counts the elements of raw, a JSON array.
func countElements(raw []byte) (int, error) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw))
	if _, err := dec.ReadToken(); err != nil {
		return 0, err
	}
	n := 0
	for ; dec.PeekKind() != ']'; n++ {
		if err := dec.SkipValue(); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// syntaxError says where a body stops being JSON; nil for nil.
func (d *decoder) syntaxError(err error) error {
	if err == nil {
		return nil
	}
	return d.malformed(err)
}

func (d *decoder) malformed(err error) error {
	var syntax *jsontext.SyntacticError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errorT(http.StatusBadRequest, "error.body.cut", nil)
	case errors.As(err, &syntax):
		return errorOf(http.StatusBadRequest, i18n.Wrap(syntax.Err, "error.body.malformed", i18n.Args{"Byte": strconv.FormatInt(syntax.ByteOffset, 10)}))
	}
	return errorOf(http.StatusBadRequest, i18n.Wrap(err, "error.body.malformed", i18n.Args{"Byte": strconv.FormatInt(d.dec.InputOffset(), 10)}))
}

// setNumber sets v to the JSON number raw, which must be a whole number
// that fits v's type.
func (d *decoder) setNumber(v reflect.Value, raw []byte) error {
	t := v.Type()
	var err error
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		var x int64
		if x, err = strconv.ParseInt(string(raw), 10, t.Bits()); err == nil {
			v.SetInt(x)
			return nil
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		var x uint64
		if x, err = strconv.ParseUint(string(raw), 10, t.Bits()); err == nil {
			v.SetUint(x)
			return nil
		}
	default:
		if len(d.at) == 0 {
			return errorT(http.StatusBadRequest, "error.json.notobject", i18n.Args{"Got": kindName('0')})
		}
		return errorT(http.StatusBadRequest, "error.field.type", i18n.Args{"Field": strconv.Quote(d.where()), "Want": typeKind(t), "Got": kindName('0')})
	}
	if len(bytes.Trim(bytes.TrimPrefix(raw, []byte("-")), "0123456789")) > 0 {
		return errorT(http.StatusBadRequest, "error.field.whole", i18n.Args{"Field": strconv.Quote(d.where()), "Value": string(raw)})
	}
	lo, hi := strconv.FormatInt(math.MinInt64>>(64-t.Bits()), 10), strconv.FormatInt(math.MaxInt64>>(64-t.Bits()), 10)
	if v.CanUint() {
		lo, hi = "0", strconv.FormatUint(math.MaxUint64>>(64-t.Bits()), 10)
	}
	return errorT(http.StatusBadRequest, "error.field.range", i18n.Args{"Field": strconv.Quote(d.where()), "Value": string(raw), "Lo": lo, "Hi": hi})
}

// jsonFields maps the JSON names of struct t, embedded structs' included,
// to their fields' indexes.
func jsonFields(t reflect.Type) map[string][]int {
	out := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous || !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Index
	}
	return out
}

// typeKind names what a JSON value of Go type t must be, in the
// request's language.
func typeKind(t reflect.Type) i18n.Localizer {
	switch t.Kind() {
	case reflect.Pointer:
		return typeKind(t.Elem())
	case reflect.Array:
		return i18n.NewError("error.json.arrayof", i18n.Args{"Len": strconv.Itoa(t.Len()), "Elems": typeKinds(t.Elem())})
	}
	return i18n.NewError(kindKey(t), nil)
}

// kindKey is the message key of a JSON value of Go type t, such as "a
// number".
func kindKey(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "error.json.number"
	case reflect.String:
		return "error.json.string"
	case reflect.Bool:
		return "error.json.bool"
	case reflect.Array, reflect.Slice:
		return "error.json.array"
	}
	return "error.json.object"
}

// typeKinds names the elements of an array of Go type t, such as
// "numbers".
func typeKinds(t reflect.Type) i18n.Localizer {
	switch kindKey(t) {
	case "error.json.number":
		return i18n.NewError("error.json.numbers", nil)
	case "error.json.string":
		return i18n.NewError("error.json.strings", nil)
	case "error.json.bool":
		return i18n.NewError("error.json.bools", nil)
	case "error.json.array":
		return i18n.NewError("error.json.arrays", nil)
	}
	return i18n.NewError("error.json.objects", nil)
}

// kindName names the JSON value of a token kind: null, true and false as
// they are written, the others in the request's language.
func kindName(k jsontext.Kind) i18n.Localizer {
	switch k {
	case 'n':
		return i18n.NewError("error.json.null", nil)
	case '[':
		return i18n.NewError("error.json.array", nil)
	case '{':
		return i18n.NewError("error.json.object", nil)
	case '0':
		return i18n.NewError("error.json.number", nil)
	case '"':
		return i18n.NewError("error.json.string", nil)
	case 't':
		return i18n.NewError("error.json.true", nil)
	}
	return i18n.NewError("error.json.false", nil)
}
