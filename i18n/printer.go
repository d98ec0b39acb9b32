package i18n

import (
	"context"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// Args are the named values of a message's placeholders.
type Args map[string]any

// Printer renders the messages of one language. It is safe for concurrent
// use.
type Printer struct {
	lang  Lang
	msgs  map[string]*compiled
	group string // number.group, read once
	tag   language.Tag
	small [1000]plural.Form // the plural form of 0..999, looked up once
	next  *Printer          // English, for a key this language lacks (nil for English)
}

// compiled is one message, parsed once: its forms by CLDR category (other
// alone for a message without plural forms).
type compiled struct {
	plural bool
	forms  [plural.Many + 1][]part // indexed by plural.Form; nil for a form not given
}

// printers makes each language's printer at its first use: the catalogs
// are read and every message parsed once (BenchmarkCompile), and a
// command that speaks one language parses that one and English only.
var printers map[Lang]func() *Printer

func init() {
	printers = make(map[Lang]func() *Printer, len(All))
	for _, l := range All {
		printers[l] = sync.OnceValue(func() *Printer {
			p := mustCompile(l)
			if l != English {
				p.next = For(English)
			}
			return p
		})
	}
}

// For is the printer of l; of English if l has no catalog. A message then
// renders with no parsing and no lookup but the key's (BenchmarkT).
func For(l Lang) *Printer {
	if p, ok := printers[l]; ok {
		return p()
	}
	return printers[English]()
}

// mustCompile parses every message of l's catalog. The catalogs are part
// of the program, so an error is a bug that TestCatalogs reports first.
func mustCompile(l Lang) *Printer {
	p := &Printer{lang: l, msgs: map[string]*compiled{}, tag: l.Tag()}
	cat, err := readCatalog(l)
	if err != nil {
		panic(err)
	}
	for key := range cat.values {
		f, isPlural, file, err := cat.forms(key)
		if err != nil {
			panic(err)
		}
		c := &compiled{plural: isPlural}
		for name, src := range f {
			parts, err := parseMessage(src)
			if err != nil {
				panic(fmt.Errorf("i18n: %s: %s: %v", file, key, err))
			}
			c.forms[formOf[name]] = parts
		}
		if c.forms[plural.Other] == nil {
			panic(fmt.Errorf("i18n: %s: %s has no form other", file, key))
		}
		p.msgs[key] = c
	}
	p.group = p.T("number.group", nil)
	for i := range p.small {
		p.small[i] = plural.Cardinal.MatchPlural(p.tag, i, 0, 0, 0, 0)
	}
	return p
}

// formOf maps the CLDR category names of the catalogs to plural.Form.
var formOf = map[string]plural.Form{"zero": plural.Zero, "one": plural.One, "two": plural.Two,
	"few": plural.Few, "many": plural.Many, "other": plural.Other}

// Lang is the printer's language.
func (p *Printer) Lang() Lang { return p.lang }

// Has reports whether the catalogs hold the message key.
func (p *Printer) Has(key string) bool { return p.msgs[key] != nil }

// T renders the message key with args. A key missing from the catalogs,
// or a placeholder without a value, renders as the key in brackets, so
// that the slip shows (TestKeysExist keeps the keys the code names in the
// catalogs).
func (p *Printer) T(key string, args Args) string {
	return p.render(key, "", args)
}

// N renders the message key in the plural form that count takes in p's
// language, with args and {{.Count}} the count itself, grouped (unless
// args has one). count is an integer of any width, a *big.Int or a
// decimal string.
func (p *Printer) N(key string, count any, args Args) string {
	return p.render(key, plainInt(count), args)
}

// render writes the message; count is "" for T, else N's count in digits.
func (p *Printer) render(key, count string, args Args) string {
	m := p.msgs[key]
	if m == nil {
		if p.next != nil {
			return p.next.render(key, count, args)
		}
		return "[" + key + "]"
	}
	parts := m.forms[plural.Other]
	if m.plural && count != "" {
		if f := m.forms[p.pluralForm(count)]; f != nil {
			parts = f
		}
	}
	// The sentence is put together on the stack and copied once: a
	// trace renders a few messages a step.
	var stack [512]byte
	b := stack[:0]
	for _, q := range parts {
		if q.name == "" {
			b = append(b, q.text...)
			continue
		}
		v, ok := args[q.name]
		switch {
		case ok:
			b = p.appendArg(b, v)
		case q.name == "Count" && count != "":
			b = append(b, p.Int(count)...)
		default:
			return "[" + key + "]"
		}
	}
	return string(b)
}

// pluralForm is the CLDR category of the integer written in digits by s
// (a leading minus allowed). Past nine digits only the last nine decide,
// plus 10⁹ so that the number stays a large one: no CLDR rule looks
// further than the last few digits or its size against small numbers.
func (p *Printer) pluralForm(s string) plural.Form {
	s = strings.TrimPrefix(s, "-")
	i, err := strconv.Atoi(s)
	if err == nil && i < len(p.small) {
		return p.small[i]
	}
	if err != nil || len(s) > 9 {
		if len(s) > 9 {
			s = s[len(s)-9:]
		}
		i, _ = strconv.Atoi(s)
		i += 1e9
	}
	return plural.Cardinal.MatchPlural(p.tag, i, 0, 0, 0, 0)
}

// List joins items by the language's list pattern: "a, b and c" in
// English, "a、b和c" in Chinese. Cost: O(total length).
func (p *Printer) List(items []string) string { return p.join("list", items) }

// Or joins items as alternatives: "a, b or c" in English, "a、b或c" in
// Chinese.
func (p *Printer) Or(items []string) string { return p.join("list.or", items) }

// join joins items by the patterns prefix.two, .start, .middle and .end.
func (p *Printer) join(prefix string, items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	case 2:
		return p.T(prefix+".two", Args{"A": items[0], "B": items[1]})
	}
	// CLDR's list patterns: the end pattern joins the last two, the middle
	// one the others from the right, the start one the first.
	s := p.T(prefix+".end", Args{"A": items[len(items)-2], "B": items[len(items)-1]})
	for i := len(items) - 3; i >= 1; i-- {
		s = p.T(prefix+".middle", Args{"A": items[i], "B": s})
	}
	return p.T(prefix+".start", Args{"A": items[0], "B": s})
}

// Int writes an integer with its digits grouped by three, as both
// languages of the catalogs write numbers in prose ("4,426,165,368"). v is
// an integer of any width, a *big.Int or a decimal string.
func (p *Printer) Int(v any) string {
	s := plainInt(v)
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimPrefix(s, "-")
	if len(digits) <= 3 {
		return s
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	first := len(digits) % 3
	if first == 0 {
		first = 3
	}
	b.WriteString(digits[:first])
	for i := first; i < len(digits); i += 3 {
		b.WriteString(p.group)
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// appendArg appends one argument: integers grouped, strings as they are,
// a Localizer in p's language (an error, a duration…), anything else by
// fmt. The common types go without reflection.
func (p *Printer) appendArg(b []byte, v any) []byte {
	switch x := v.(type) {
	case string:
		return append(b, x...)
	case int:
		if x > -1000 && x < 1000 {
			return strconv.AppendInt(b, int64(x), 10)
		}
		return append(b, p.Int(x)...)
	case uint64:
		if x < 1000 {
			return strconv.AppendUint(b, x, 10)
		}
		return append(b, p.Int(x)...)
	case Localizer:
		return append(b, x.Localize(p)...)
	}
	return append(b, p.format(v)...)
}

// format writes any other argument: integers of other types grouped, a
// Stringer or anything else by fmt.
func (p *Printer) format(v any) string {
	switch x := v.(type) {
	case *big.Int:
		return p.Int(x)
	case float32, float64:
		return fmt.Sprint(x)
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if _, isStringer := v.(fmt.Stringer); !isStringer {
			return p.Int(v)
		}
	}
	return fmt.Sprint(v)
}

// plainInt is v, an integer, a *big.Int or a decimal string, in decimal
// digits.
func plainInt(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	case uint64:
		return strconv.FormatUint(x, 10)
	case *big.Int:
		return x.String()
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(rv.Uint(), 10)
	}
	return fmt.Sprint(v)
}

type ctxKey struct{}

// NewContext is ctx carrying the language l, which the library's
// sentences are written in (a trace's Event.Text, a lesson, a rule): the
// web server puts the request's language there, the command line the
// user's.
func NewContext(ctx context.Context, l Lang) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// FromContext is the language ctx carries, English if none.
func FromContext(ctx context.Context) Lang {
	if l, ok := ctx.Value(ctxKey{}).(Lang); ok {
		return l
	}
	return English
}

// Ctx is the printer of the language ctx carries.
func Ctx(ctx context.Context) *Printer { return For(FromContext(ctx)) }
