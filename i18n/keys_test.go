package i18n

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// keyUses are how the code names a message by a literal key: Go's
// Printer.T and Printer.N, the page's t and tn (js/i18n.js), and the
// page's HTML attributes data-i18n… (the text or attribute of an element).
var keyUses = map[string]*regexp.Regexp{
	".go":   regexp.MustCompile(`\.(?:T|N)\(\s*"([a-z0-9_.-]+)"`),
	".js":   regexp.MustCompile(`\btn?\(\s*['"]([a-z0-9_.-]+)['"]`),
	".html": regexp.MustCompile(`data-i18n[a-z-]*="([a-z0-9_.-]+)"`),
}

// goKey is a literal key of the command line's and the libraries' own
// parts in Go, whatever function it is handed to (i18n.NewError, a
// helper such as errT): a string of a catalog's prefix and a dot.
var goKey = regexp.MustCompile(`"((?:board|cli|error|web|count|trace|construct|list|help)\.[a-z0-9_.-]*[a-z0-9])"`)

// TestKeysExist: every key the code names literally is in the catalogs,
// so that no sentence shows as its [key].
func TestKeysExist(t *testing.T) {
	keys := Keys(English)
	root := ".."
	uses := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") && p != root {
			return filepath.SkipDir
		}
		re := keyUses[filepath.Ext(p)]
		if re == nil || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		found := re.FindAllStringSubmatch(string(data), -1)
		if filepath.Ext(p) == ".go" && filepath.Dir(p) != filepath.Join(root, "i18n") { // its docs name examples
			found = append(found, goKey.FindAllStringSubmatch(string(data), -1)...)
		}
		for _, m := range found {
			uses++
			if !slices.Contains(keys, m[1]) {
				t.Errorf("%s names the message %q, which the catalogs lack", p, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d uses of literal keys", uses)
}
