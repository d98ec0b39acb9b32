package i18n

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// pluralForms are the CLDR plural categories each language's messages
// must give for a count (cardinal numbers).
var pluralForms = map[Lang][]string{
	English: {"one", "other"},
	Chinese: {"other"},
}

// zhWords are the only runs of Latin letters a Chinese message may hold,
// outside its placeholders: names of the pseudocode's variables, the
// strategies' names as the command line spells them, units and symbols
// every Chinese textbook writes in Latin letters.
var zhWords = map[string]bool{
	"N": true, "n": true,
	// The On-Line Encyclopedia of Integer Sequences: a proper name, which
	// Chinese texts write in Latin letters.
	"OEIS": true,
	// The greatest common divisor, as Chinese textbooks write it: gcd(N, 6).
	"gcd": true,
	// A command the reader types as it is: chmod 600 FILE.
	"chmod": true,
	// A NATS credential's name, as the worker's --nkey flag and NATS write it.
	"NKey": true,
	// The prefixes of SI a size is typed with: --memory 2G.
	"k": true, "M": true, "G": true, "T": true,
	// The variables of the strategies' pseudocode, which the step
	// sentences name as the code does: queens[3] = 2, free = all & ~(cols
	// | ld | rd), grid[2][4] = 1, diag[10].
	"queens": true, "grid": true, "cols": true, "diag": true, "anti": true,
	"ld": true, "rd": true, "free": true, "all": true, "row": true, "col": true,
	// The binomial coefficient and the remainder as Chinese textbooks
	// write them: C(n², n), n mod 6.
	"C": true, "mod": true,
	// A proper name: the browser's machine code, which the static build's
	// solver is compiled to.
	"WebAssembly": true,
	// Q(N), the number of solutions of N, as the literature writes it.
	"Q": true,
	// The program's name, the file format of its API and the unit of the
	// static build's download, written so in Chinese too.
	"nqueens": true, "JSON": true, "MB": true,
	// Units of memory every Chinese text writes in Latin letters: 1 MiB,
	// 12 GB.
	"MiB": true, "GiB": true, "kB": true, "GB": true, "TB": true,
	// The board formats' names, as --format takes them and the files are
	// written (nqueens show -f dots).
	"list": true, "auto": true, "text": true, "dots": true, "unicode": true, "json": true, "svg": true, "png": true,
	// JSON's literals, which a JSON board holds as they are.
	"true": true, "false": true, "null": true,
	// The command line's own words, which the reader types as they are:
	// its commands (nqueens count 12), the names of a usage's values
	// (--resume FILE, --range A-B, --algo NAME) and the key Ctrl.
	"count": true, "solve": true, "complete": true, "estimate": true, "verify": true, "trace": true,
	"compare": true, "merge": true, "show": true, "dominate": true, "coordinator": true, "worker": true,
	"serve": true, "site": true, "FILE": true, "OTHER": true, "NAME": true, "A": true, "B": true, "Ctrl": true,
	"LEDGER": true, "I": true, "K": true, "DIR": true,
	// The messaging system the cluster runs on, a proper name.
	"NATS": true,
	// The language the program is written in, a proper name.
	"Go": true,
	// Text encodings, by their names.
	"UTF": true, "ASCII": true,
	// The command line's help: the commands help and algorithms, the
	// format JSON Lines, the shells and systems the completion scripts are
	// for, the protocols, signals, environment variables and standards it
	// names (TLS, SIGTERM, PATH, HMAC-SHA-256), the marks of a board (x,
	// an attacked or blocked square) and the authors the literature cites
	// (Knuth's probes, Sosic and Gu's QS4): all written so in Chinese
	// technical texts.
	"help": true, "algorithms": true, "Lines": true,
	"bash": true, "zsh": true, "fish": true, "powershell": true, "Linux": true, "macOS": true,
	"JetStream": true, "TLS": true, "CA": true, "JWT": true, "URL": true, "DNS": true, "HMAC": true, "SHA": true,
	"SIGTERM": true, "PATH": true, "GOMEMLIMIT": true, "ALARM": true, "x": true,
	"Knuth": true, "Sosic": true, "Gu": true, "QS": true,
	// The order of a cost, as Chinese textbooks write it: O(N).
	"O": true,
}

// codeSpan is what a Chinese message holds as code, in Latin letters in
// every language: a flag (--resume, -o), a quoted name or character
// ("queens", 'x'), an element of an array (blocked[2]), a path, file name
// or address (docs/json.md, ~/.config/nqueens/seal.key, /api/count), an
// environment variable (SLURM_ARRAY_TASK_ID).
var codeSpan = regexp.MustCompile(`--[a-z][a-z0-9-]*|(?:^|[^\w-])-[a-z]\b|"[^"\p{Han}]*"|'[^'\p{Han}]*'|\b[a-z]+\[|` +
	`[\w~$:-]*[/.][\w~$*/.:-]+|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b`)

// codeWords may stand in a line of pseudocode (a key algo.NAME.code.LINE)
// besides zhWords: its keywords, functions and one-letter variables, which
// Chinese textbooks keep in Latin letters around the prose they translate.
var codeWords = map[string]bool{
	"if": true, "else": true, "for": true, "in": true, "while": true, "loop": true, "continue": true,
	"return": true, "stop": true, "or": true, "and": true, "solve": true, "scan": true, "push": true,
	"pop": true, "height": true, "stack": true, "bit": true, "r": true, "c": true,
}

func TestCatalogs(t *testing.T) {
	if len(pluralForms) != len(All) {
		t.Fatalf("pluralForms names %d languages, All %d", len(pluralForms), len(All))
	}
	source := Keys(English)
	if len(source) == 0 {
		t.Fatal("the English catalog is empty")
	}
	for _, l := range All {
		if l.Name() == "" {
			t.Errorf("%s has no name for the page's switch", l)
		}
		keys := Keys(l)
		if missing := minus(source, keys); len(missing) > 0 {
			t.Errorf("%s lacks %d keys of the English catalog: %s", l, len(missing), strings.Join(missing, ", "))
		}
		if extra := minus(keys, source); len(extra) > 0 {
			t.Errorf("%s has %d keys the English catalog lacks: %s", l, len(extra), strings.Join(extra, ", "))
		}
	}
	for _, key := range source {
		en, plural, _, err := forms(English, key)
		if err != nil {
			t.Error(err)
			continue
		}
		want, err := placeholderSet(en["other"])
		if err != nil {
			t.Errorf("en %s: %v", key, err)
			continue
		}
		for _, l := range All {
			f, isPlural, file, err := forms(l, key)
			if err != nil {
				continue // reported above
			}
			if isPlural != plural {
				t.Errorf("%s: %s is plural in one language and not in the other", file, key)
			}
			if plural {
				if got := slices.Sorted(maps.Keys(f)); !slices.Equal(got, pluralForms[l]) {
					t.Errorf("%s: %s has the plural forms %v, want %v (CLDR)", file, key, got, pluralForms[l])
				}
			}
			for form, msg := range f {
				got, err := placeholderSet(msg)
				if err != nil {
					t.Errorf("%s: %s (%s): %v", file, key, form, err)
					continue
				}
				if plural && !got["Count"] && form != "one" {
					t.Errorf("%s: %s (%s) does not say {{.Count}}", file, key, form)
				}
				delete(got, "Count")
				w := maps.Clone(want)
				delete(w, "Count")
				if !maps.Equal(got, w) {
					t.Errorf("%s: %s (%s) has the placeholders %v, English %v", file, key, form, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(w)))
				}
				if l == Chinese {
					if strings.Contains(key, ".code.") {
						msg = codeWordsOut.ReplaceAllStringFunc(msg, func(w string) string {
							if codeWords[w] {
								return ""
							}
							return w
						})
					}
					for _, problem := range chineseProblems(msg) {
						if strings.Contains(key, ".code.") && strings.HasPrefix(problem, "no Chinese") {
							continue // a line of code alone
						}
						t.Errorf("%s: %s: %s", file, key, problem)
					}
				}
			}
		}
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, k := range a {
		if !slices.Contains(b, k) {
			out = append(out, k)
		}
	}
	return out
}

func placeholderSet(msg string) (map[string]bool, error) {
	names, err := placeholders(msg)
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return set, err
}

var (
	latinWord    = regexp.MustCompile(`[A-Za-z]+`)
	codeWordsOut = regexp.MustCompile(`\b[A-Za-z]+\b`)
	// asciiPunct is ASCII punctuation touching a Han character: Chinese
	// prose uses its own，。；：？！（）.
	asciiPunct = regexp.MustCompile(`\p{Han}[,.;:?!()]|[,.;:?!()]\p{Han}`)
)

// chineseProblems are what keeps msg from reading as Chinese prose: ASCII
// punctuation against Chinese text, and English words.
func chineseProblems(msg string) []string {
	var out []string
	text := regexp.MustCompile(`\{\{\.[A-Za-z0-9]+\}\}`).ReplaceAllString(msg, "")
	text = codeSpan.ReplaceAllString(text, "")
	if m := asciiPunct.FindString(text); m != "" {
		out = append(out, "ASCII punctuation in Chinese text ("+m+"): use ，。；：？！（）")
	}
	for _, w := range latinWord.FindAllString(text, -1) {
		if !zhWords[w] {
			out = append(out, "the Latin word "+w+" (translate it, or add it to zhWords with the reason)")
		}
	}
	if strings.TrimFunc(text, func(r rune) bool { return !unicode.Is(unicode.Han, r) }) == "" && latinWord.MatchString(text) {
		out = append(out, "no Chinese at all")
	}
	return out
}

func TestChineseProblems(t *testing.T) {
	for msg, want := range map[string]int{
		"共有 {{.Count}} 个解。":         0,
		"共有 {{.Count}} 个解.":         1,
		"第 {{.Row}} 行，第 {{.Col}} 列": 0,
		"回溯 (backtrack)":            1,
		"回溯(backtrack)":             2,
		"4,426,165,368 种放法":         0,
	} {
		if got := len(chineseProblems(msg)); got != want {
			t.Errorf("%q: %d problems %v, want %d", msg, got, chineseProblems(msg), want)
		}
	}
}

func TestParseMessage(t *testing.T) {
	for src, want := range map[string]string{
		"plain":                 "",
		"{{.Row}} and {{.Col}}": "",
		"{{.Count}}":            "",
		"{{ .Row }}":            "no placeholder",
		"{{.Row | printf}}":     "no placeholder",
		"{{if .X}}y{{end}}":     "no placeholder",
		"{{.Row":                "without its }}",
		"a }} b":                "without its {{",
		"{{.1st}}":              "no placeholder",
		"{{.R2}} is fine":       "",
		"{{.}}":                 "no placeholder",
	} {
		_, err := parseMessage(src)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("parseMessage(%q) = %v, want %q", src, err, want)
		}
	}
}

func TestPrinter(t *testing.T) {
	en, zh := For(English), For(Chinese)
	for _, tc := range []struct{ got, want string }{
		{en.List([]string{"1"}), "1"},
		{en.List([]string{"1", "2"}), "1 and 2"},
		{en.List([]string{"1", "2", "3", "4"}), "1, 2, 3 and 4"},
		{zh.List([]string{"1", "2", "3", "4"}), "1、2、3和4"},
		{zh.List([]string{"甲", "乙"}), "甲和乙"},
		{en.Int(4426165368), "4,426,165,368"},
		{en.Int(uint64(18446744073709551615)), "18,446,744,073,709,551,615"},
		{en.Int(-1234), "-1,234"},
		{en.Int(999), "999"},
		{en.Int("1000"), "1,000"},
		{en.T("no.such.key", nil), "[no.such.key]"},
		{For("xx").Lang().String(), "en"},
		{en.N("common.solutions", 1, nil), "1 solution"},
		{en.N("common.solutions", uint64(92), nil), "92 solutions"},
		{en.N("common.solutions", "2691008701644", nil), "2,691,008,701,644 solutions"},
		{zh.N("common.solutions", 92, nil), "92 个解"},
		{zh.N("common.solutions", 14200, nil), "14,200 个解"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	for s, want := range map[string]Lang{
		"zh": Chinese, "zh-CN": Chinese, "zh_CN.UTF-8": Chinese, "zh-Hans": Chinese, "zh_TW": Chinese,
		"en": English, "en_US.UTF-8": English, "en-GB": English,
		"C": "", "POSIX": "", "": "", "fr": "", "fr_FR.UTF-8": "", "garbage!!": "",
	} {
		got, ok := Parse(s)
		if got != want || ok != (want != "") {
			t.Errorf("Parse(%q) = %q, %v; want %q", s, got, ok, want)
		}
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		prefs []string
		want  Lang
	}{
		{nil, English},
		{[]string{"zh"}, Chinese},
		{[]string{"", "zh-CN,zh;q=0.9,en;q=0.8"}, Chinese},
		{[]string{"fr-FR,fr;q=0.9,zh;q=0.5"}, Chinese},
		{[]string{"fr-FR,de;q=0.5"}, English},
		{[]string{"de", "zh"}, Chinese},
		{[]string{"en;q=0.1,zh;q=0.9"}, Chinese},
	} {
		if got := Match(tc.prefs...); got != tc.want {
			t.Errorf("Match(%q) = %s, want %s", tc.prefs, got, tc.want)
		}
	}
}

func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want Lang
	}{
		{map[string]string{}, English},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, Chinese},
		{map[string]string{"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, English},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_ALL": "zh_CN.UTF-8"}, Chinese},
		{map[string]string{"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, English},
		{map[string]string{"LANG": "fr_FR.UTF-8"}, English},
	} {
		if got := FromEnv(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("FromEnv(%v) = %s, want %s", tc.env, got, tc.want)
		}
	}
}

func TestCatalogJSON(t *testing.T) {
	for _, l := range All {
		b, err := CatalogJSON(l)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), `"description"`) || !strings.Contains(string(b), `"list.two"`) || strings.Contains(string(b), `"help.`) {
			t.Errorf("%s: %.200s", l, b)
		}
	}
}
