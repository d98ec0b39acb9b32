package main

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// A comment that names a file, a test or the declaration it describes is
// a pointer; a pointer left behind by a rename sends the reader nowhere.

var (
	// pathToken is a word of a comment that may be a path: slash-separated
	// names, or one name with a file extension.
	pathToken = regexp.MustCompile(`[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)*/?`)
	// fileName is a lone word that names a file: a name, then one of the
	// endings the tree's files have.
	fileName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.\-]*\.(go|s|h|c|js|mjs|css|html|md|sh|tsv|json|jsonl|txt|yml|yaml|svg|png|sbatch|conf)$`)
	// placeholder is a path that stands for any: a part in capitals
	// (count-TIME.txt, locales/LANG.json) or a usual stand-in (name.png,
	// locales/l). README is a file's name.
	placeholder = regexp.MustCompile(`(^|[/_.\-])((?:[A-Z]+[0-9]*)|[a-z]|name|file)([/_.\-]|$)`)
	// conventional are the names in capitals that are files' own.
	conventional = regexp.MustCompile(`(^|/)(README|LICENSE|CHANGELOG|CONTRIBUTING)\.`)
	// testName is the name of a test, benchmark, fuzz target or example.
	testName = regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz|Example)[A-Z_][A-Za-z0-9_]*`)
	testFunc = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz|Example)[A-Za-z0-9_]*)\(`)
)

// notFiles are words that look like file names and are not the tree's:
// names of products, files of other projects that comments cite.
var notFiles = map[string]bool{
	"go_asm.h":     true, // written by the go command for a package's assembly
	"nats.go":      true, // the NATS client for Go
	"Node.js":      true,
	"solcounter.h": true, // the quadrant join's repository (bench/count.sh)
}

// checkPointers reads the comments of the Go, assembly, JavaScript, CSS
// and shell files and lists the paths that lead nowhere, the tests that no
// longer exist, and the doc comments that begin with the name of another
// declaration of their package.
func checkPointers(r *repo) ([]string, error) {
	tests, err := r.testNames()
	if err != nil {
		return nil, err
	}
	base := map[string]bool{}
	for _, f := range r.files {
		base[path.Base(f)] = true
	}
	var problems []string
	for _, name := range r.files {
		if inTestdata(name) || !commented[path.Ext(name)] {
			continue
		}
		src, err := r.read(name)
		if err != nil {
			return problems, err
		}
		for _, c := range comments(name, src) {
			for _, p := range r.deadPaths(name, c.text, base) {
				problems = append(problems, fmt.Sprintf("%s:%d: %s: no such file or folder in the repository", name, c.line, p))
			}
			for _, t := range testName.FindAllString(c.text, -1) {
				if !tests[t] {
					problems = append(problems, fmt.Sprintf("%s:%d: %s: no such test, benchmark, fuzz target or example", name, c.line, t))
				}
			}
		}
	}
	for _, name := range r.goSources() {
		p, err := r.docNames(name)
		if err != nil {
			return problems, err
		}
		problems = append(problems, p...)
	}
	return problems, nil
}

// testNames are the test functions of the tree's Go test files.
func (r *repo) testNames() (map[string]bool, error) {
	names := map[string]bool{}
	for _, f := range r.goSources() {
		if !strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := r.read(f)
		if err != nil {
			return nil, err
		}
		for _, m := range testFunc.FindAllSubmatch(src, -1) {
			names[string(m[1])] = true
		}
	}
	return names, nil
}

// deadPaths lists the paths that text, a comment of the file name, names
// and that do not exist. A word is a path if it begins with a top folder
// of the tree or a folder beside the comment (docs/api.md, static/js/),
// or is a file name (yield_js.go). Such a path is found from the top of
// the tree or from the comment's folder, a lone file name anywhere in the
// tree or in Go's own tree (wasm_exec.js). A path that begins elsewhere
// points outside the tree (hash/crc32/crc32_amd64.s, ../shared/…) and is
// not checked, nor is a placeholder (name.png, count-TIME.txt).
func (r *repo) deadPaths(name, text string, base map[string]bool) []string {
	var dead []string
	for _, loc := range pathToken.FindAllStringIndex(text, -1) {
		word := strings.TrimPrefix(strings.TrimRight(text[loc[0]:loc[1]], "."), "./")
		if loc[0] > 0 && strings.ContainsAny(text[loc[0]-1:loc[0]], ":/.@$~&") {
			continue // part of a URL, a Go selector, a template
		}
		if strings.Contains(word, "..") || placeholder.MatchString(word) && !conventional.MatchString(word) || notFiles[word] {
			continue
		}
		first, _, nested := strings.Cut(word, "/")
		switch {
		case nested && (r.has[first] || r.has[path.Join(path.Dir(name), first)]):
			if !r.exists(name, word) && !inGoSrc(word) {
				dead = append(dead, word)
			}
		case !nested && fileName.MatchString(word) && !base[word] && !r.inGoroot(word):
			dead = append(dead, word)
		}
	}
	return r.notIgnored(dead)
}

// inGoSrc reports whether p is a path of Go's own sources, which comments
// cite as models (internal/testenv).
func inGoSrc(p string) bool {
	if goroot() == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(goroot(), "src", filepath.FromSlash(p)))
	return err == nil
}

// goroot is the root of the Go tree that the go command uses, or "" if
// there is none.
var goroot = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// notIgnored leaves out of paths those git ignores: files the programs
// write (bench/out/), which the tree does not hold.
func (r *repo) notIgnored(paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	cmd := exec.Command("git", "-C", r.root, "check-ignore", "--no-index", "--stdin")
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	out, _ := cmd.Output() // exit 1: none ignored; outside git: none known
	ignored := map[string]bool{}
	for _, p := range strings.Split(string(out), "\n") {
		ignored[p] = true
	}
	var kept []string
	for _, p := range paths {
		if !ignored[p] {
			kept = append(kept, p)
		}
	}
	return kept
}

// exists reports whether p, named in a comment of the file name, is a
// file or folder of the tree, from its top or from name's folder.
func (r *repo) exists(name, p string) bool {
	p = strings.TrimSuffix(p, "/")
	return r.has[p] || r.has[path.Join(path.Dir(name), p)]
}

// inGoroot reports whether a file of Go's own tree is named base, for
// comments that name the toolchain's files. The tree is read once, and
// only when a comment names a file the repository does not hold.
func (r *repo) inGoroot(base string) bool {
	if r.goroot == nil {
		r.goroot = map[string]bool{}
		_ = filepath.WalkDir(goroot(), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				r.goroot[d.Name()] = true
			}
			return nil
		})
	}
	return r.goroot[base]
}

// comment is the text of a comment and the line it starts on.
type comment struct {
	text string
	line int
}

// commented are the endings of the files whose comments are read.
var commented = map[string]bool{".go": true, ".s": true, ".js": true, ".mjs": true, ".css": true, ".sh": true, ".sbatch": true}

// comments returns the comments of a source file, read by the rules of its
// language: Go's own scanner for Go; // and /* */ for assembly, JavaScript
// and CSS; # for shell. Other files have none.
func comments(name string, src []byte) []comment {
	switch path.Ext(name) {
	case ".go":
		return goComments(src)
	case ".s", ".js", ".mjs", ".css":
		return cComments(src)
	case ".sh", ".sbatch":
		return shellComments(src)
	}
	return nil
}

func goComments(src []byte) []comment {
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	s.Init(file, src, nil, scanner.ScanComments)
	var out []comment
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.COMMENT {
			out = append(out, comment{lit, file.Line(pos)})
		}
	}
}

// cComments finds // and /* */ comments outside quoted strings (a
// regular expression literal may fool it; the cost is a word not read).
func cComments(src []byte) []comment {
	var out []comment
	line := 1
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line++
			if quote != '`' {
				quote = 0
			}
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			end := i
			for end < len(src) && src[end] != '\n' {
				end++
			}
			out = append(out, comment{string(src[i:end]), line})
			i = end - 1
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(string(src[i+2:]), "*/")
			if end < 0 {
				end = len(src) - i - 2
			}
			text := string(src[i : i+2+end])
			out = append(out, comment{text, line})
			line += strings.Count(text, "\n")
			i += 2 + end + 1
		}
	}
	return out
}

// shellComments finds the # comments that begin a line or follow white
// space.
func shellComments(src []byte) []comment {
	var out []comment
	for i, l := range strings.Split(string(src), "\n") {
		for j := 0; j < len(l); j++ {
			if l[j] == '#' && (j == 0 || l[j-1] == ' ' || l[j-1] == '\t') {
				out = append(out, comment{l[j:], i + 1})
				break
			}
		}
	}
	return out
}

// docNames lists the doc comments of a Go file that begin with the name
// of another declaration of the file's package: a comment that stayed
// where its declaration was, or went with the wrong one.
func (r *repo) docNames(name string) ([]string, error) {
	f, err := r.goFile(name)
	if err != nil {
		return nil, err
	}
	decls, err := r.packageNames(path.Dir(name), f.Name.Name)
	if err != nil {
		return nil, err
	}
	var problems []string
	report := func(doc *ast.CommentGroup, own string) {
		if doc == nil {
			return
		}
		first, _, _ := strings.Cut(strings.TrimSpace(doc.Text()), " ")
		if first != own && decls[first] {
			line := r.fset.Position(doc.Pos()).Line
			problems = append(problems, fmt.Sprintf("%s:%d: the doc comment of %s begins with %s, another declaration", name, line, own, first))
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !testName.MatchString(d.Name.Name) { // a test's comment names what it tests
				report(d.Doc, d.Name.Name)
			}
		case *ast.GenDecl:
			if len(d.Specs) == 1 {
				if ts, ok := d.Specs[0].(*ast.TypeSpec); ok {
					report(d.Doc, ts.Name.Name)
				}
			}
		}
	}
	return problems, nil
}

// packageNames are the names declared at the top of a package (dir and
// package name), methods aside.
func (r *repo) packageNames(dir, pkg string) (map[string]bool, error) {
	key := dir + ":" + pkg
	if names, ok := r.names[key]; ok {
		return names, nil
	}
	names := map[string]bool{}
	for _, f := range r.goSources() {
		if path.Dir(f) != dir {
			continue
		}
		af, err := r.goFile(f)
		if err != nil {
			return nil, err
		}
		if af.Name.Name != pkg {
			continue
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	r.names[key] = names
	return names, nil
}
