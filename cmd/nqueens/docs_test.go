package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/seal"
	"github.com/nqueens/nqueens/web"
	"github.com/rogpeppe/go-internal/testscript"
)

// The documents whose examples are tests: every command shown with its
// output in README.md and docs/*.md runs, as a script test, in one working
// folder per document, in the order of the document. An example is
//
//	$ nqueens CMD ARGS        (a "$ " line in a fenced or indented block)
//	output lines              (what stdout and stderr show together)
//
// or a block holding only the command (nqueens, go run ./cmd/nqueens,
// curl) followed at once by a block of its output. A command with no output
// runs only when a later command of its block has output (it prepares what
// that one shows). In expected output, "…" on a line of its own stands for
// any lines, and within a line for any text; runs of spaces match any run;
// times, rates and durations match any value (volatile, below). An HTML
// comment on the line before a block gives directives for it:
//
//	<!-- doctest: slow -->                    run only without -short
//	<!-- doctest: skip REASON -->             not run, for REASON
//	<!-- doctest: volatile 'RE' ['RE'…] -->   more text that varies between runs
//	<!-- doctest: ignore 'RE' ['RE'…] -->     lines that a run may print or not
//
// go test -run TestDocs -update writes the real output into the documents,
// for the examples whose output differs and whose "…" are all the
// command's own.
var docFiles = []string{"README.md", "docs/*.md"}

// volatile are the parts of any output that vary from run to run.
var volatile = []string{
	`\d+(\.\d+)?(ns|µs|ms|s)\b`, // 258µs, 1.2s
	`\d+h\d+m|\d+m\d+(\.\d+)?s`, // 1m20s
	`[0-9.]+(e[+-]\d+)?[kMGTPE]? (nodes|candidates|queens|solutions|bytes)/s`, // rates
	`[0-9.]+ [kMGTPE]?B/s`,                          // byte rates
	`[0-9.]+(e[+-]\d+)? (years|days|hours|minutes)`, // 267 years, 2.9 minutes
	`[0-9.]+ (million|billion) candidates/s`,
	`"seconds":[0-9.e+-]+`,               // in JSON
	`±\d+%, from the time of the probes`, // the join's estimate: timed probes
}

// statusLine is a progress line that a long job writes every few seconds
// when stderr is no terminal: a slow machine prints some where a fast one
// prints none, so every example may or may not show them.
const statusLine = `^nqueens: .*: (\d+(/\d+)? [a-z]+|[0-9.]+(/[0-9.]+)? [kMGTPE]?B)( \(\d+\.\d%\))?, [0-9.]+([kMGTPE]? [a-z]+| [kMGTPE]?B)/s(, ETA \S+)?(, .*)?$`

// example is one command of a document and the output it shows.
type example struct {
	file     string
	line     int      // of the command
	cmd      string   // as sh runs it
	output   []string // nil: none shown
	outStart int      // line of the first output line, for -update
	slow     bool
	skip     string
	patterns []string // volatile, beyond the common ones
	ignore   []string // lines that may or may not be there
	server   bool     // needs nqueens serve (curl)
}

var directive = regexp.MustCompile(`^<!-- doctest: (\w+)\s*(.*?)\s*-->$`)

// parseDoc finds the examples of a markdown file.
func parseDoc(t *testing.T, path string) []example {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	type block struct {
		start, end int // lines [start, end), 0-based, without fences
		fenced     bool
		directives []string
	}
	var blocks []block
	prevDirective := func(i int) []string {
		for j := i - 1; j >= 0; j-- {
			if strings.TrimSpace(lines[j]) == "" {
				continue
			}
			if m := directive.FindStringSubmatch(strings.TrimSpace(lines[j])); m != nil {
				return []string{m[1], m[2]}
			}
			return nil
		}
		return nil
	}
	for i := 0; i < len(lines); i++ {
		switch {
		case strings.HasPrefix(lines[i], "```"):
			j := i + 1
			for j < len(lines) && !strings.HasPrefix(lines[j], "```") {
				j++
			}
			blocks = append(blocks, block{start: i + 1, end: j, fenced: true, directives: prevDirective(i)})
			i = j
		case strings.HasPrefix(lines[i], "    $ ") && (i == 0 || strings.TrimSpace(lines[i-1]) == ""):
			j := i
			for j < len(lines) && (strings.HasPrefix(lines[j], "    ") || (strings.TrimSpace(lines[j]) == "" && j+1 < len(lines) && strings.HasPrefix(lines[j+1], "    "))) {
				j++
			}
			blocks = append(blocks, block{start: i, end: j, directives: prevDirective(i)})
			i = j - 1
		}
	}
	text := func(b block, k int) string {
		if b.fenced {
			return lines[k]
		}
		return strings.TrimPrefix(lines[k], "    ")
	}
	var out []example
	// apply reads directives: slow, skip REASON (the rest), and volatile
	// or ignore followed by quoted regular expressions.
	apply := func(e *example, d []string) {
		if d == nil {
			return
		}
		kind, rest := d[0], d[1]
		for kind != "" {
			switch kind {
			case "slow":
			case "skip":
				e.skip, rest = rest, ""
			case "volatile", "ignore":
				for {
					m := regexp.MustCompile(`^'([^']*)'\s*`).FindStringSubmatch(rest)
					if m == nil {
						break
					}
					if kind == "ignore" {
						e.ignore = append(e.ignore, m[1])
					} else {
						e.patterns = append(e.patterns, m[1])
					}
					rest = rest[len(m[0]):]
				}
			default:
				t.Fatalf("%s:%d: unknown doctest directive %q", path, e.line, kind)
			}
			e.slow = e.slow || kind == "slow"
			kind, rest, _ = strings.Cut(rest, " ")
		}
	}
	for bi, b := range blocks {
		var group []example
		for k := b.start; k < b.end; k++ {
			l := text(b, k)
			if cmd, ok := strings.CutPrefix(l, "$ "); ok {
				line := k + 1
				for strings.HasSuffix(cmd, `\`) && k+1 < b.end {
					k++
					cmd = strings.TrimSuffix(cmd, `\`) + strings.TrimSpace(text(b, k))
				}
				group = append(group, example{file: path, line: line, cmd: cmd, outStart: k + 1})
				continue
			}
			if len(group) > 0 {
				e := &group[len(group)-1]
				e.output = append(e.output, l)
			}
		}
		if len(group) == 0 && b.fenced && b.end == b.start+1 && isCommand(lines[b.start]) && bi+1 < len(blocks) && blocks[bi+1].fenced {
			// A block of one command, and the next block its output when
			// only blank lines come between.
			next := blocks[bi+1]
			between := strings.Join(lines[b.end+1:next.start-1], "")
			if strings.TrimSpace(between) == "" {
				e := example{file: path, line: b.start + 1, cmd: lines[b.start], outStart: next.start}
				for k := next.start; k < next.end; k++ {
					e.output = append(e.output, lines[k])
				}
				group = append(group, e)
			}
		}
		// Trailing blank lines belong to no output; commands with no output
		// after the last one with output prepare nothing.
		last := -1
		for i := range group {
			for len(group[i].output) > 0 && strings.TrimSpace(group[i].output[len(group[i].output)-1]) == "" {
				group[i].output = group[i].output[:len(group[i].output)-1]
			}
			if len(group[i].output) > 0 {
				last = i
			}
		}
		for i := range group[:last+1] {
			apply(&group[i], b.directives)
			group[i].cmd = strings.Replace(group[i].cmd, "go run ./cmd/nqueens", "nqueens", 1)
			group[i].server = strings.HasPrefix(group[i].cmd, "curl ")
			out = append(out, group[i])
		}
	}
	return out
}

// isCommand reports whether a line of a block is a command of nqueens.
func isCommand(l string) bool {
	for _, p := range []string{"nqueens ", "go run ./cmd/nqueens ", "curl ", "echo ", "printf "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// expectation compiles an example's output into a regular expression.
func expectation(e example) (*regexp.Regexp, error) {
	vol, err := regexp.Compile(strings.Join(append(slices.Clone(e.patterns), volatile...), "|"))
	if err != nil {
		return nil, err
	}
	spaces := regexp.MustCompile(` {2,}|\t`)
	var b strings.Builder
	b.WriteString(`\A`)
	var want []string
	if len(e.output) > 0 {
		want = strings.Split(strings.TrimSuffix(withoutIgnored(strings.Join(e.output, "\n"), e.ignore), "\n"), "\n")
	}
	for _, l := range want {
		l = strings.TrimRight(l, " ")
		if strings.TrimSpace(l) == "…" {
			b.WriteString(`(?:.*\n)*?`)
			continue
		}
		last := 0
		for _, m := range vol.FindAllStringIndex(l, -1) {
			b.WriteString(literal(l[last:m[0]], spaces))
			b.WriteString(`(?:` + vol.String() + `|\S+)`)
			last = m[1]
		}
		b.WriteString(literal(l[last:], spaces) + `\n`)
	}
	b.WriteString(`\z`)
	return regexp.Compile(b.String())
}

// literal quotes s for a regular expression, with "…" for any text and
// runs of spaces (table columns) for any run of blanks.
func literal(s string, spaces *regexp.Regexp) string {
	var b strings.Builder
	for i, part := range strings.Split(s, "…") {
		if i > 0 {
			b.WriteString(`.*?`)
		}
		last := 0
		for _, m := range spaces.FindAllStringIndex(part, -1) {
			b.WriteString(regexp.QuoteMeta(part[last:m[0]]) + `[ \t]+`)
			last = m[1]
		}
		b.WriteString(regexp.QuoteMeta(part[last:]))
	}
	return b.String()
}

// TestDocs runs the examples of the documents as script tests.
func TestDocs(t *testing.T) {
	root := filepath.Join("..", "..")
	var files []string
	for _, g := range docFiles {
		m, err := filepath.Glob(filepath.Join(root, g))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	dir := t.TempDir()
	_, noCurl := exec.LookPath("curl")
	examples := map[string]example{}
	for _, f := range files {
		var script strings.Builder
		name := strings.TrimSuffix(strings.ReplaceAll(strings.TrimPrefix(f, root+string(filepath.Separator)), "/", "-"), ".md")
		n := 0
		for _, e := range parseDoc(t, f) {
			rel := strings.TrimPrefix(e.file, root+string(filepath.Separator))
			id := fmt.Sprintf("%s:%d", rel, e.line)
			switch {
			case e.skip != "":
				fmt.Fprintf(&script, "# %s: not run: %s\n", id, e.skip)
				continue
			case e.slow && testing.Short():
				fmt.Fprintf(&script, "# %s: slow, run without -short\n", id)
				continue
			case e.server && noCurl != nil:
				fmt.Fprintf(&script, "# %s: not run: no curl here\n", id)
				continue
			}
			if _, err := expectation(e); err != nil {
				t.Errorf("%s: %v", id, err)
				continue
			}
			examples[id] = e
			n++
			if e.server {
				fmt.Fprintf(&script, "serve\n")
			}
			fmt.Fprintf(&script, "# %s\n# $ %s\ndoc %s\n\n", id, e.cmd, id)
		}
		if n == 0 {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name+".txtar"), []byte(script.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var (
		mu      sync.Mutex
		outputs = map[string]string{}
		failed  = map[string]string{}
	)
	// The scripts run in parallel subtests, which this group waits for.
	t.Run("script", func(t *testing.T) { runDocScripts(t, dir, examples, &mu, outputs, failed) })
	for _, id := range slices.Sorted(maps.Keys(failed)) {
		t.Error(failed[id])
	}
	if testkit.Update() {
		// Only the examples that differ: the others keep the times and
		// rates they show.
		for id := range outputs {
			if _, ok := failed[id]; !ok {
				delete(outputs, id)
			}
		}
		updateDocs(t, root, examples, outputs)
	}
}

// runDocScripts runs the scripts of dir, recording each example's output
// and, by example, the message of those whose output differs from their
// document's.
func runDocScripts(t *testing.T, dir string, examples map[string]example, mu *sync.Mutex, outputs, failed map[string]string) {
	testscript.Run(t, testscript.Params{
		Dir: dir,
		Setup: func(env *testscript.Env) error {
			// The examples' own folder, their seal key, and two cores as on
			// the project machine (estimate prints the time on all cores).
			cfg := filepath.Join(env.WorkDir, ".config")
			env.Setenv("XDG_CONFIG_HOME", cfg)
			env.Setenv("GOMAXPROCS", "2")
			if err := os.MkdirAll(filepath.Join(cfg, "nqueens"), 0o700); err != nil {
				return err
			}
			_, err := seal.CreateFile(filepath.Join(cfg, "nqueens", "seal.key"))
			return err
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// doc ID runs the example's command as a shell on a terminal
			// would show it, stdout and stderr together, whatever its exit
			// status, and compares the output with the document's.
			"doc": func(ts *testscript.TestScript, neg bool, args []string) {
				e := examples[args[0]]
				_ = ts.Exec("sh", "-c", "exec 2>&1\n"+e.cmd)
				re, _ := expectation(e)
				got := strings.Join(trimRight(strings.Split(ts.ReadFile("stdout"), "\n")), "\n")
				got = strings.TrimRight(got, "\n") + "\n"
				if got == "\n" {
					got = ""
				}
				mu.Lock()
				defer mu.Unlock()
				outputs[args[0]] = got
				if !re.MatchString(withoutIgnored(got, append([]string{statusLine}, e.ignore...))) {
					// Every example of a document runs, the later ones after
					// this one too: the test fails at the end.
					ts.Logf("the output differs from the document")
					failed[args[0]] = fmt.Sprintf("%s: the output differs from the document (go test -run TestDocs -update rewrites it):\n--- document\n%s\n--- got\n%s", args[0], strings.Join(e.output, "\n"), got)
				}
			},
			"serve": startDocServer,
		},
	})
}

// withoutIgnored drops the lines of s that match one of ignore.
func withoutIgnored(s string, ignore []string) string {
	if len(ignore) == 0 {
		return s
	}
	re := regexp.MustCompile(strings.Join(ignore, "|"))
	var keep []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if !re.MatchString(strings.TrimSuffix(l, "\n")) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}

// trimRight removes the trailing blanks of each line.
func trimRight(lines []string) []string {
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return lines
}

// startDocServer starts the web server of nqueens serve once per script,
// and a curl on $PATH that sends the examples' address, 127.0.0.1:8080, to
// it instead.
func startDocServer(ts *testscript.TestScript, neg bool, args []string) {
	if ts.Getenv("NQUEENS_DOC_ADDR") != "" {
		return
	}
	curl, err := exec.LookPath("curl")
	ts.Check(err)
	cfg := web.DefaultConfig()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := web.New(cfg)
	ts.Check(err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln, time.Second) }()
	ts.Defer(func() { stop(); <-done })
	addr := ln.Addr().String()
	ts.Setenv("NQUEENS_DOC_ADDR", addr)
	bin := ts.MkAbs(".bin")
	ts.Check(os.MkdirAll(bin, 0o755))
	wrapper := "#!/bin/sh\n" +
		"# curl with the documents' address replaced by the test server's\n" +
		"n=$#\n" +
		"while [ $n -gt 0 ]; do a=$1; shift; set -- \"$@\" \"$(printf '%s' \"$a\" | sed 's|127.0.0.1:8080|" + addr + "|g')\"; n=$((n-1)); done\n" +
		"exec " + curl + " \"$@\"\n"
	ts.Check(os.WriteFile(filepath.Join(bin, "curl"), []byte(wrapper), 0o755))
	ts.Setenv("PATH", bin+string(filepath.ListSeparator)+ts.Getenv("PATH"))
}

// updateDocs writes the outputs got into the documents, in place of the
// outputs they show, for examples whose "…" are all the command's own.
func updateDocs(t *testing.T, root string, examples map[string]example, outputs map[string]string) {
	t.Helper()
	byFile := map[string][]example{}
	for _, e := range examples {
		byFile[e.file] = append(byFile[e.file], e)
	}
	for file, es := range byFile {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		// From the end, so that earlier line numbers stay right.
		slices.SortFunc(es, func(a, b example) int { return b.outStart - a.outStart })
		for _, e := range es {
			got, ok := outputs[fmt.Sprintf("%s:%d", strings.TrimPrefix(e.file, root+string(filepath.Separator)), e.line)]
			// "…" in the document stands for what it leaves out, unless the
			// command prints as many itself.
			if !ok || strings.Count(strings.Join(e.output, "\n"), "…") != strings.Count(got, "…") {
				continue
			}
			indent := ""
			if strings.HasPrefix(lines[e.outStart], "    ") {
				indent = "    "
			}
			var repl []string
			for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
				if got == "" {
					break
				}
				repl = append(repl, strings.TrimRight(indent+l, " "))
			}
			lines = slices.Concat(lines[:e.outStart], repl, lines[e.outStart+len(e.output):])
		}
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDocExpectation: what a document's output matches, and what it does
// not: a count that changes is caught, a time that changes is not.
func TestDocExpectation(t *testing.T) {
	for _, tt := range []struct {
		output  []string
		got     string
		matches bool
	}{
		{[]string{"total 14200", "unique 1787"}, "total 14200\nunique 1787\n", true},
		{[]string{"total 14200", "unique 1787"}, "total 14201\nunique 1787\n", false},
		{[]string{"total 14200"}, "total 14200\nunique 1787\n", false},
		{[]string{"time        258µs"}, "time        1.2ms\n", true},
		{[]string{"N = 27: 50000 probes (seed 1, 1.2s)"}, "N = 27: 50000 probes (seed 1, 748ms)\n", true},
		{[]string{"N = 27: 50000 probes (seed 1, 1.2s)"}, "N = 27: 50001 probes (seed 1, 748ms)\n", false},
		{[]string{"rate  5.98e+07 nodes/s, 267 years"}, "rate  3.2e+07 nodes/s, 492 years\n", true},
		{[]string{"n  total", "1  1", "…", "10  724"}, "n total\n1 1\n2 0\n10 724\n", true},
		{[]string{"n  total", "1  1", "…", "10  724"}, "n total\n1 1\n2 0\n10 725\n", false},
		{[]string{`{"a":1,…,"z":26}`}, `{"a":1,"b":2,"z":26}` + "\n", true},
		{[]string{`{"n":8,"seconds":0.0001}`}, `{"n":8,"seconds":0.3}` + "\n", true},
		{nil, "", true},
		{nil, "nqueens: a note\n", false},
	} {
		re, err := expectation(example{output: tt.output})
		if err != nil {
			t.Fatal(err)
		}
		if re.MatchString(tt.got) != tt.matches {
			t.Errorf("document %q, output %q: matches %v, want %v", tt.output, tt.got, !tt.matches, tt.matches)
		}
	}
}

// TestDocIgnore: lines a run may print or not are left out on both sides,
// wherever they are.
func TestDocIgnore(t *testing.T) {
	e := example{output: []string{"a 1", "skip: x", "b 2", "skip: y"}, ignore: []string{`^skip: `}}
	re, err := expectation(e)
	if err != nil {
		t.Fatal(err)
	}
	for got, want := range map[string]bool{"a 1\nb 2\n": true, "a 1\nskip: z\nb 2\n": true, "a 1\nb 2\nskip: q\n": true, "a 1\nb 3\n": false} {
		if re.MatchString(withoutIgnored(got, e.ignore)) != want {
			t.Errorf("%q: matches %v, want %v", got, !want, want)
		}
	}
}

// TestDocStatusLines: the status lines of a slow run are no drift.
func TestDocStatusLines(t *testing.T) {
	got := "nqueens: count 16: 2451/3348 units (73.2%), 2.00G nodes/s, ETA 655ms\ntotal 14772512\n" +
		"nqueens: list 16: 1234 solutions, 520k solutions/s\n" +
		"nqueens: coordinator: N = 16: 64/3206 units (2.0%), 2.18M nodes/s, ETA 1m56s, 1 worker\n" +
		"nqueens: solve 30000000: writing: 121000000/259000000 bytes (46.7%), 255 MB/s, ETA 1s\n"
	if want := "total 14772512\n"; withoutIgnored(got, []string{statusLine}) != want {
		t.Errorf("left %q, want %q", withoutIgnored(got, []string{statusLine}), want)
	}
}
