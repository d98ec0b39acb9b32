package i18n

import (
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"sync"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
)

// Args are the named values of a message's placeholders.
type Args map[string]any

// Printer renders the messages of one language. It is safe for concurrent
// use.
type Printer struct {
	lang Lang
	loc  *goi18n.Localizer
}

var (
	printersOnce sync.Once
	printers     map[Lang]*Printer
)

// For is the printer of l; of English if l has no catalog.
func For(l Lang) *Printer {
	printersOnce.Do(func() {
		b := mustBundle()
		printers = make(map[Lang]*Printer, len(All))
		for _, l := range All {
			printers[l] = &Printer{lang: l, loc: goi18n.NewLocalizer(b, string(l))}
		}
	})
	if p, ok := printers[l]; ok {
		return p
	}
	return printers[English]
}

// Lang is the printer's language.
func (p *Printer) Lang() Lang { return p.lang }

// T renders the message key with args. A key missing from the catalogs
// renders as itself, in brackets, so that the slip shows (TestKeysExist
// keeps the keys the code names in the catalogs).
func (p *Printer) T(key string, args Args) string {
	return p.render(key, nil, args)
}

// N renders the message key in the plural form that count takes in p's
// language, with args and {{.Count}} the count itself (unless args has
// one). count is an integer of any width, a *big.Int or a decimal string.
func (p *Printer) N(key string, count any, args Args) string {
	c := plainInt(count)
	if _, ok := args["Count"]; !ok {
		a := make(Args, len(args)+1)
		for k, v := range args {
			a[k] = v
		}
		a["Count"] = p.Int(count)
		args = a
	}
	return p.render(key, c, args)
}

func (p *Printer) render(key string, count any, args Args) string {
	data := make(map[string]string, len(args))
	for k, v := range args {
		data[k] = p.format(v)
	}
	s, err := p.loc.Localize(&goi18n.LocalizeConfig{MessageID: key, TemplateData: data, PluralCount: count, TemplateParser: parser{}})
	if err != nil {
		return "[" + key + "]"
	}
	return s
}

// List joins items by the language's list pattern: "a, b and c" in
// English, "a、b和c" in Chinese. Cost: O(total length).
func (p *Printer) List(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	case 2:
		return p.T("list.two", Args{"A": items[0], "B": items[1]})
	}
	// CLDR's list patterns: the end pattern joins the last two, the middle
	// one the others from the right, the start one the first.
	s := p.T("list.end", Args{"A": items[len(items)-2], "B": items[len(items)-1]})
	for i := len(items) - 3; i >= 1; i-- {
		s = p.T("list.middle", Args{"A": items[i], "B": s})
	}
	return p.T("list.start", Args{"A": items[0], "B": s})
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
		b.WriteString(p.T("number.group", nil))
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// format writes one argument: integers grouped, strings as they are,
// anything else by fmt.
func (p *Printer) format(v any) string {
	switch x := v.(type) {
	case string:
		return x
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
