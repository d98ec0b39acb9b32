package web

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// docExample is a curl command of docs/api.md and the answer printed under
// it.
type docExample struct {
	line     int // of the curl command in docs/api.md
	method   string
	target   string
	body     string
	headLine int // the command pipes into head -N; 0 for the whole answer
	answer   string
}

// TestAPIDocExamples runs the curl examples of docs/api.md against a server
// with the default limits and checks that it answers what the document
// shows, so that the document cannot drift from the server. Examples that
// cannot be replayed are left out: those of count jobs (random ids, timings),
// those that save to a file, and answers elided with "…". Timings
// ("seconds", and a comparison's rates, runs and estimates) are ignored.
func TestAPIDocExamples(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "docs", "api.md"))
	if err != nil {
		t.Fatal(err)
	}
	examples := docExamples(t, string(text))
	if len(examples) < 10 {
		t.Fatalf("found %d examples in docs/api.md; the parser has lost track of the document", len(examples))
	}
	s := newServer(t, Config{})
	for _, ex := range examples {
		name := "api.md:" + strconv.Itoa(ex.line) + " " + ex.method + " " + ex.target
		t.Run(name, func(t *testing.T) {
			rec := do(s, ex.method, ex.target, ex.body)
			got := rec.Body.String()
			if ex.headLine > 0 {
				lines := strings.SplitAfter(got, "\n")
				got = strings.Join(lines[:min(ex.headLine, len(lines))], "")
			}
			if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
				var g, w any
				if err := json.Unmarshal([]byte(got), &g); err != nil {
					t.Fatalf("answer is not JSON: %v: %s", err, got)
				}
				if err := json.Unmarshal([]byte(ex.answer), &w); err != nil {
					t.Fatalf("the document's answer is not JSON: %v: %s", err, ex.answer)
				}
				dropTimings(g)
				dropTimings(w)
				if !reflect.DeepEqual(g, w) {
					t.Fatalf("the server answers (status %d)\n%s\nbut docs/api.md shows\n%s", rec.Code, got, ex.answer)
				}
				return
			}
			if strings.TrimSpace(got) != strings.TrimSpace(ex.answer) {
				t.Fatalf("the server answers (status %d)\n%s\nbut docs/api.md shows\n%s", rec.Code, got, ex.answer)
			}
		})
	}
}

// TestAPIDocStatuses: the table of statuses in docs/api.md lists exactly
// the error statuses that the server's code answers with (every
// http.StatusXxx that the package's non-test files name).
func TestAPIDocStatuses(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "api.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := map[int]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\| (\d{3}) \|`).FindAllSubmatch(doc, -1) {
		code, _ := strconv.Atoi(string(m[1]))
		documented[code] = true
	}
	// http.StatusXxx is "Status" and the words of http.StatusText.
	byName := map[string]int{}
	for code := 100; code < 600; code++ {
		if text := http.StatusText(code); text != "" {
			byName["Status"+strings.Map(func(r rune) rune {
				if unicode.IsLetter(r) {
					return r
				}
				return -1
			}, text)] = code
		}
	}
	files, _ := filepath.Glob("*.go")
	used := map[int]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`http\.(Status[A-Z]\w*)`).FindAllSubmatch(src, -1) {
			code, ok := byName[string(m[1])]
			if !ok {
				t.Errorf("%s: status http.%s is unknown to this test", f, m[1])
			}
			if code >= 400 {
				used[code] = f
			}
		}
	}
	if len(used) < 8 {
		t.Fatalf("found %d error statuses in the code: the scan has lost track of it", len(used))
	}
	for code, f := range used {
		if !documented[code] {
			t.Errorf("%s answers %d, which the status table of docs/api.md leaves out", f, code)
		}
	}
	for code := range documented {
		if used[code] == "" {
			t.Errorf("docs/api.md lists status %d, which the server never answers", code)
		}
	}
}

// dropTimings deletes every "seconds" field, which no two runs share, and
// the fields of a comparison measured with the time.
func dropTimings(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "seconds")
		// Times too, and what depends on them: a comparison's.
		for _, k := range []string{"estimate_s", "candidates_per_second", "runs", "relative_to_bitmask", "median_s", "q1_s", "q3_s", "samples"} {
			delete(v, k)
		}
		for _, x := range v {
			dropTimings(x)
		}
	case []any:
		for _, x := range v {
			dropTimings(x)
		}
	}
}

// docExamples finds each fenced block that is a curl command followed by a
// fenced block with its answer.
func docExamples(t *testing.T, doc string) []docExample {
	t.Helper()
	type block struct {
		line int
		text string
	}
	var blocks []block
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		start := i + 1
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
		}
		blocks = append(blocks, block{start + 1, strings.Join(lines[start:min(i, len(lines))], "\n")})
	}
	var out []docExample
	for k := 0; k+1 < len(blocks); k++ {
		cmd, answer := blocks[k].text, blocks[k+1].text
		if !strings.HasPrefix(cmd, "curl ") || strings.HasPrefix(answer, "curl ") {
			continue
		}
		ex, ok := parseCurl(t, cmd)
		if !ok || strings.Contains(ex.target, "/api/count") || strings.Contains(answer, "…") {
			continue
		}
		ex.line, ex.answer = blocks[k].line, answer
		out = append(out, ex)
	}
	return out
}

// parseCurl reads the few curl options the document uses: -s, -N, -H, -d,
// -X, -o (not replayable: ok is false) and a pipe into head -N.
func parseCurl(t *testing.T, cmd string) (ex docExample, ok bool) {
	t.Helper()
	cmd, pipe, _ := strings.Cut(cmd, " | ")
	if pipe != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(pipe), "head -"))
		if err != nil {
			t.Fatalf("unknown pipe %q in %q", pipe, cmd)
		}
		ex.headLine = n
	}
	words := shellWords(t, cmd)
	ex.method = "GET"
	for i := 1; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-s" || w == "-sN":
		case w == "-o":
			return ex, false
		case w == "-H":
			i++ // every example's header is Content-Type: application/json, which do sets
		case w == "-d":
			i++
			ex.body = words[i]
			if ex.method == "GET" {
				ex.method = "POST"
			}
		case w == "-X":
			i++
			ex.method = words[i]
		case strings.HasPrefix(w, "http://"):
			ex.target = w[strings.Index(w[len("http://"):], "/")+len("http://"):]
		default:
			t.Fatalf("unknown curl argument %q in %q", w, cmd)
		}
	}
	return ex, ex.target != ""
}

// shellWords splits a command line at spaces, keeping single-quoted words
// whole, as the shell does.
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
			}
			inWord = false
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unclosed quote in %q", s)
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}
