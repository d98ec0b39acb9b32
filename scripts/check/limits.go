package main

import (
	"fmt"
	"go/ast"
	"strings"
)

// The developers' guide's limits: files ≤ 500 lines and functions ≤ 100
// lines, tests and generated files aside.
const (
	maxFileLines = 500
	maxFuncLines = 100
)

// checkLimits lists the Go files past maxFileLines and the functions
// (declared at the top level, from their func keyword to their closing
// brace) past maxFuncLines.
func checkLimits(r *repo) ([]string, error) {
	var problems []string
	for _, name := range r.goSources() {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := r.goFile(name)
		if err != nil {
			return problems, err
		}
		if ast.IsGenerated(f) {
			continue
		}
		src, err := r.read(name)
		if err != nil {
			return problems, err
		}
		if n := lines(src); n > maxFileLines {
			problems = append(problems, fmt.Sprintf("%s: %d lines, more than %d: split it by concept", name, n, maxFileLines))
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			start, end := r.fset.Position(fn.Pos()), r.fset.Position(fn.End())
			if n := end.Line - start.Line + 1; n > maxFuncLines {
				problems = append(problems, fmt.Sprintf("%s:%d: func %s is %d lines, more than %d", name, start.Line, funcName(fn), n, maxFuncLines))
			}
		}
	}
	return problems, nil
}

// funcName is the name of fn as a reader looks for it: Type.Method for a
// method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fn.Name.Name
		}
		return fn.Name.Name
	}
}
