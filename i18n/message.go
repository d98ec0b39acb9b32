package i18n

import (
	"fmt"
	"strings"
)

// A message is literal text and placeholders {{.Name}}. This is the whole
// grammar: the page's renderer (web/static/js/i18n.js) implements the same,
// so a message reads the same from Go and from JavaScript.

// part is a piece of a parsed message: literal text, or a placeholder.
type part struct {
	text string
	name string // placeholder's name; text is empty
}

// parseMessage splits src into its parts, refusing anything but text and
// {{.Name}}.
func parseMessage(src string) ([]part, error) {
	var parts []part
	for src != "" {
		i := strings.Index(src, "{{")
		if i < 0 {
			if strings.Contains(src, "}}") {
				return nil, fmt.Errorf("%q: a }} without its {{", src)
			}
			parts = append(parts, part{text: src})
			break
		}
		if i > 0 {
			if strings.Contains(src[:i], "}}") {
				return nil, fmt.Errorf("%q: a }} without its {{", src)
			}
			parts = append(parts, part{text: src[:i]})
		}
		rest := src[i+2:]
		j := strings.Index(rest, "}}")
		if j < 0 {
			return nil, fmt.Errorf("%q: a {{ without its }}", src)
		}
		name, ok := strings.CutPrefix(rest[:j], ".")
		if !ok || !isName(name) {
			return nil, fmt.Errorf("%q: {{%s}} is no placeholder: write {{.Name}}, a letter then letters or digits", src, rest[:j])
		}
		parts = append(parts, part{name: name})
		src = rest[j+2:]
	}
	return parts, nil
}

func isName(s string) bool {
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

// placeholders are the names of the placeholders of src, in order.
func placeholders(src string) ([]string, error) {
	parts, err := parseMessage(src)
	var names []string
	for _, p := range parts {
		if p.name != "" {
			names = append(names, p.name)
		}
	}
	return names, err
}
