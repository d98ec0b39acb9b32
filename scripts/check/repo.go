package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// repo is the tree the checks read: in a git checkout the files git tracks
// and the untracked ones it does not ignore (what the next commit may
// hold), elsewhere every file below the root.
type repo struct {
	root    string
	files   []string        // slash-separated, relative to root, sorted
	has     map[string]bool // files and every folder above them
	fset    *token.FileSet
	gofiles map[string]*ast.File       // parsed on first use
	names   map[string]map[string]bool // by package: its top-level names
	goroot  map[string]bool            // base names of Go's own files, read on first use
}

func openRepo(root string) (*repo, error) {
	r := &repo{root: root, has: map[string]bool{}, fset: token.NewFileSet(), gofiles: map[string]*ast.File{}, names: map[string]map[string]bool{}}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err == nil {
		for _, f := range strings.Split(string(out), "\x00") {
			// A file deleted but not yet staged is listed still.
			if _, err := os.Lstat(filepath.Join(root, f)); f != "" && err == nil {
				r.files = append(r.files, f)
			}
		}
	} else {
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				if d != nil && d.IsDir() && d.Name() == ".git" {
					return filepath.SkipDir
				}
				return err
			}
			rel, _ := filepath.Rel(root, p)
			r.files = append(r.files, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for _, f := range r.files {
		for p := f; p != "." && p != "/" && !r.has[p]; p = path.Dir(p) {
			r.has[p] = true
		}
	}
	return r, nil
}

// read returns the text of a file of the tree.
func (r *repo) read(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(r.root, filepath.FromSlash(name)))
}

// goFile parses a Go file of the tree, comments included.
func (r *repo) goFile(name string) (*ast.File, error) {
	if f, ok := r.gofiles[name]; ok {
		return f, nil
	}
	src, err := r.read(name)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(r.fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	r.gofiles[name] = f
	return f, nil
}

// inTestdata reports whether name lies in a testdata folder, which holds
// fixtures, not the project's code.
func inTestdata(name string) bool {
	return strings.HasPrefix(name, "testdata/") || strings.Contains(name, "/testdata/")
}

// goSources are the tree's Go files outside testdata, tests included.
func (r *repo) goSources() []string {
	var out []string
	for _, f := range r.files {
		if strings.HasSuffix(f, ".go") && !inTestdata(f) {
			out = append(out, f)
		}
	}
	return out
}

// lines counts the lines of a text, a last line without a newline too.
func lines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
