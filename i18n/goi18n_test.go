package i18n

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/nicksnyder/go-i18n/v2/i18n/template"
)

// The printer renders from its own parsed messages (printer.go), for
// speed; go-i18n, a maintained implementation of the same catalogs and of
// CLDR's plural rules, renders them too here, and the two must agree.

// mustBundle loads every catalog into one go-i18n bundle. The catalogs are
// part of the program, so an error is a bug that TestCatalogs reports
// first.
func mustBundle() *goi18n.Bundle {
	b := goi18n.NewBundle(English.Tag())
	for _, l := range All {
		c, err := readCatalog(l)
		if err != nil {
			panic(err)
		}
		data, err := json.Marshal(c.values)
		if err != nil {
			panic(err)
		}
		// go-i18n takes the language from the file's name.
		if _, err := b.ParseMessageFileBytes(data, "catalog."+string(l)+".json"); err != nil {
			panic(fmt.Errorf("i18n: catalog %s: %v", l, err))
		}
	}
	return b
}

// parser is the template.Parser that go-i18n renders messages with:
// parseMessage's grammar, its arguments taken from an Args.
type parser struct{}

func (parser) Cacheable() bool { return true }

func (parser) Parse(src, _, _ string) (template.ParsedTemplate, error) {
	parts, err := parseMessage(src)
	if err != nil {
		return nil, err
	}
	return parsed(parts), nil
}

type parsed []part

// Execute writes the message with the values of data, an Args whose values
// are already formatted (Printer.format); a placeholder without a value is
// an error.
func (p parsed) Execute(data any) (string, error) {
	args, _ := data.(map[string]string)
	var b strings.Builder
	for _, q := range p {
		if q.name == "" {
			b.WriteString(q.text)
			continue
		}
		v, ok := args[q.name]
		if !ok {
			return b.String(), fmt.Errorf("no value for {{.%s}}", q.name)
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// TestAgreesWithGoI18n renders every message of every language with the
// printer and with go-i18n, for counts that take each plural form, and
// compares them.
func TestAgreesWithGoI18n(t *testing.T) {
	b := mustBundle()
	for _, l := range All {
		loc := goi18n.NewLocalizer(b, string(l))
		p := For(l)
		msgs, err := Messages(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			args := Args{}
			data := map[string]string{}
			for _, name := range m.Placeholders {
				v := "<" + name + ">"
				args[name], data[name] = v, v
			}
			counts := []string{""}
			if m.Plural {
				counts = []string{"0", "1", "2", "5", "21", "1000", "1234567890123456789"}
			}
			for _, c := range counts {
				var got string
				cfg := &goi18n.LocalizeConfig{MessageID: m.Key, TemplateData: data, TemplateParser: parser{}}
				if c == "" {
					got = p.T(m.Key, args)
				} else {
					delete(args, "Count")
					data["Count"] = p.Int(c)
					got = p.N(m.Key, c, args)
					cfg.PluralCount = c
				}
				want, err := loc.Localize(cfg)
				if err != nil {
					t.Errorf("%s %s: go-i18n: %v", l, m.Key, err)
					continue
				}
				if got != want {
					t.Errorf("%s %s (count %q): printer %q, go-i18n %q", l, m.Key, c, got, want)
				}
			}
		}
	}
}
