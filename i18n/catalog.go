package i18n

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
)

//go:embed locales
var locales embed.FS

// catalog is one language's messages, merged from its files: each key's
// raw JSON value (a string, or an object of plural forms), and the file
// it came from.
type catalog struct {
	values map[string]json.RawMessage
	files  map[string]string
}

// catalogs are the catalogs read, by language: the files are embedded, so
// each is read once (the tests and tools that go over every message ask
// for a message's catalog again and again).
var catalogs sync.Map // Lang → catalogRead

type catalogRead struct {
	c   catalog
	err error
}

// readCatalog merges the files of locales/l, refusing a key given twice.
// Callers must not change what it returns.
func readCatalog(l Lang) (catalog, error) {
	if r, ok := catalogs.Load(l); ok {
		return r.(catalogRead).c, r.(catalogRead).err
	}
	c, err := parseCatalog(l)
	catalogs.Store(l, catalogRead{c, err})
	return c, err
}

// parseCatalog reads and merges the files of locales/l.
func parseCatalog(l Lang) (catalog, error) {
	c := catalog{values: map[string]json.RawMessage{}, files: map[string]string{}}
	dir := path.Join("locales", string(l))
	files, err := fs.Glob(locales, dir+"/*.json")
	if err != nil || len(files) == 0 {
		return c, fmt.Errorf("i18n: no catalog files in %s", dir)
	}
	for _, name := range files {
		data, err := fs.ReadFile(locales, name)
		if err != nil {
			return c, err
		}
		var m map[string]json.RawMessage
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&m); err != nil {
			return c, fmt.Errorf("i18n: %s: %v", name, err)
		}
		for k, v := range m {
			if other, dup := c.files[k]; dup {
				return c, fmt.Errorf("i18n: key %q is in both %s and %s", k, other, name)
			}
			c.values[k], c.files[k] = v, name
		}
	}
	return c, nil
}

// helpFile is the catalog file of the command line's help.
const helpFile = "help.json"

// onPage reports whether the messages of the catalog file named file are
// the page's too: all but the command line's help.
func onPage(file string) bool { return path.Base(file) != helpFile }

// CatalogJSON is l's catalog as one JSON object, keys sorted: the file
// /locales/LANG.json that the page renders its text from. Each value is a
// message or an object of plural forms ("description"s left out). The
// command line's help (helpFile) is left out: the page never shows it,
// and it is a fifth of the catalog.
func CatalogJSON(l Lang) ([]byte, error) {
	c, err := readCatalog(l)
	if err != nil {
		return nil, err
	}
	out := make(map[string]any, len(c.values))
	for k, raw := range c.values {
		if !onPage(c.files[k]) {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out[k] = s
			continue
		}
		var forms map[string]string
		if err := json.Unmarshal(raw, &forms); err != nil {
			return nil, fmt.Errorf("i18n: %s: key %q is neither a message nor plural forms", c.files[k], k)
		}
		delete(forms, "description")
		out[k] = forms
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err = enc.Encode(out) // maps are written with their keys sorted
	return b.Bytes(), err
}

// Keys are the message keys of l's catalog, sorted.
func Keys(l Lang) []string {
	c, err := readCatalog(l)
	if err != nil {
		return nil
	}
	return slices.Sorted(maps.Keys(c.values))
}

// forms are the message's plural forms ("other" alone for a plain
// message), whether it is a plural message (an object of forms), and the
// file it is in.
func forms(l Lang, key string) (map[string]string, bool, string, error) {
	c, err := readCatalog(l)
	if err != nil {
		return nil, false, "", err
	}
	return c.forms(key)
}

// forms is the package function forms on the catalog c, read once.
func (c catalog) forms(key string) (map[string]string, bool, string, error) {
	raw, ok := c.values[key]
	if !ok {
		return nil, false, "", fmt.Errorf("no key %q", key)
	}
	file := c.files[key]
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return map[string]string{"other": s}, false, file, nil
	}
	var f map[string]string
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, false, file, fmt.Errorf("%s: %q is neither a message nor plural forms", file, key)
	}
	delete(f, "description")
	for form := range f {
		if !strings.Contains(" zero one two few many other ", " "+form+" ") {
			return nil, true, file, fmt.Errorf("%s: %q has a form %q, which is no CLDR plural category", file, key, form)
		}
	}
	return f, true, file, nil
}

// Message describes one message of a catalog, for tools and tests that
// go over every message: its key, whether it has plural forms, and the
// names of its placeholders (those of the "other" form, sorted, Count
// included).
type Message struct {
	Key          string
	Plural       bool
	Placeholders []string
	Page         bool // in the page's catalog, /locales/LANG.json: all but the command line's help
}

// Messages describes every message of l's catalog, by key.
func Messages(l Lang) ([]Message, error) {
	var out []Message
	for _, k := range Keys(l) {
		f, plural, file, err := forms(l, k)
		if err != nil {
			return nil, err
		}
		names, err := placeholders(f["other"])
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", l, k, err)
		}
		slices.Sort(names)
		out = append(out, Message{Key: k, Plural: plural, Placeholders: slices.Compact(names), Page: onPage(file)})
	}
	return out, nil
}
