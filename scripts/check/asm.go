package main

import (
	"fmt"
	"go/constant"
	"go/types"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// The assembly takes its numbers from go_asm.h, as Go's own does
// (hash/crc32, internal/bytealg): the go command writes there every
// constant of the package as const_NAME and every struct's size as
// T__size, so that a change on the Go side cannot leave the assembly
// behind.

var (
	// asmDefine is a #define of a bare number: a constant typed by hand.
	asmDefine = regexp.MustCompile(`^\s*#define\s+(\w+)\s+\$?\(?(-?(?:0[xX][0-9a-fA-F]+|[0-9]+))\)?\s*$`)
	// asmImmediate is a decimal immediate operand: $512. Hexadecimal ones
	// are bit patterns (masks, shuffle orders), not sizes.
	asmImmediate = regexp.MustCompile(`\$(-?[0-9]+)\b`)
	// asmText opens a function: TEXT ·name(SB).
	asmText = regexp.MustCompile(`^\s*TEXT\s+[^·]*·(\w+)`)
)

// minSize is the smallest immediate held to the package's constants:
// smaller ones are shift counts, strides of a word and the like, which
// equal some constant by chance.
const minSize = 16

// registerWidths are the widths of the vector registers in bytes and of a
// word in bits: immediates of these sizes are the machine's own (a ZMM
// stride, a shift by a word), and a constant of that value is no name for
// them. A size of a type the function takes is held to its name all the
// same.
var registerWidths = map[int64]bool{32: true, 64: true}

// asmNames are what go_asm.h names a package's values: consts are the
// constants (const_NAME) by value; sizes the struct and array types'
// sizes (T__size), by the assembly function whose Go declaration takes
// the type (through pointers, slices and arrays).
type asmNames struct {
	consts map[int64][]string
	sizes  map[string]map[int64][]string
}

// checkAsm lists, in the tree's assembly files, each #define of a bare
// number and each decimal immediate (outside TEXT lines, whose frame sizes
// go vet checks) that go_asm.h names: the size of a type the function
// takes, or a constant of the package of minSize or more that is not one
// of the registerWidths.
func checkAsm(r *repo) ([]string, error) {
	byDir := map[string][]string{}
	for _, f := range r.files {
		if strings.HasSuffix(f, ".s") && !inTestdata(f) {
			byDir[path.Dir(f)] = append(byDir[path.Dir(f)], f)
		}
	}
	var problems []string
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, dir := range dirs {
		names, err := r.asmNamesOf(dir, byDir[dir])
		if err != nil {
			return problems, err
		}
		for _, f := range byDir[dir] {
			src, err := r.read(f)
			if err != nil {
				return problems, err
			}
			problems = append(problems, asmProblems(f, string(src), names)...)
		}
	}
	return problems, nil
}

// asmProblems checks the text of one assembly file against the names of
// its package.
func asmProblems(name, src string, names asmNames) []string {
	var problems []string
	fn := ""
	for i, line := range strings.Split(src, "\n") {
		if c := strings.Index(line, "//"); c >= 0 {
			line = line[:c]
		}
		if m := asmDefine.FindStringSubmatch(line); m != nil {
			problems = append(problems, fmt.Sprintf("%s:%d: #define %s %s: take the number from go_asm.h (a Go constant)", name, i+1, m[1], m[2]))
			continue
		}
		if m := asmText.FindStringSubmatch(line); m != nil {
			fn = m[1]
			continue
		}
		for _, m := range asmImmediate.FindAllStringSubmatch(line, -1) {
			v, err := strconv.ParseInt(m[1], 10, 64)
			if err != nil {
				continue
			}
			ns := names.sizes[fn][v]
			if abs(v) >= minSize && !registerWidths[abs(v)] {
				ns = append(ns, names.consts[v]...)
			}
			if len(ns) > 0 {
				problems = append(problems, fmt.Sprintf("%s:%d: $%d typed by hand: go_asm.h names it %s", name, i+1, v, strings.Join(ns, ", ")))
			}
		}
	}
	return problems
}

func abs(v int64) int64 { return max(v, -v) }

// asmNamesOf reads the package in dir, built for the architecture of its
// assembly files, and returns what go_asm.h names.
func (r *repo) asmNamesOf(dir string, files []string) (asmNames, error) {
	arch := "amd64"
	for _, f := range files {
		base := strings.TrimSuffix(path.Base(f), ".s")
		if i := strings.LastIndex(base, "_"); i >= 0 {
			arch = base[i+1:]
		}
	}
	names := asmNames{consts: map[int64][]string{}, sizes: map[string]map[int64][]string{}}
	// The package is type-checked from its source: export data leaves out
	// the unexported constants.
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir:  r.root,
		Env:  append(os.Environ(), "GOOS=linux", "GOARCH="+arch, "CGO_ENABLED=0"),
	}
	pkgs, err := packages.Load(cfg, "./"+dir)
	if err != nil {
		return names, fmt.Errorf("%s: %v", dir, err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 || pkgs[0].Types == nil {
		return names, fmt.Errorf("%s: cannot read the package's constants: %v", dir, pkgs[0].Errors)
	}
	pkg, sizes := pkgs[0].Types, types.SizesFor("gc", arch)
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		switch o := scope.Lookup(n).(type) {
		case *types.Const:
			if v, ok := constant.Int64Val(constant.ToInt(o.Val())); ok {
				names.consts[v] = append(names.consts[v], "const_"+n)
			}
		case *types.Func:
			taken := map[int64][]string{}
			sig := o.Signature()
			for _, tuple := range []*types.Tuple{sig.Params(), sig.Results()} {
				for v := range tuple.Variables() {
					if nt := structOrArray(v.Type(), pkg); nt != nil {
						s := sizes.Sizeof(nt)
						if name := nt.Obj().Name() + "__size"; !slices.Contains(taken[s], name) {
							taken[s] = append(taken[s], name)
						}
					}
				}
			}
			names.sizes[n] = taken
		}
	}
	return names, nil
}

// structOrArray is the struct or array type of pkg that t is or leads to
// through pointers, slices and arrays, or nil.
func structOrArray(t types.Type, pkg *types.Package) *types.Named {
	for {
		switch x := t.(type) {
		case *types.Pointer:
			t = x.Elem()
		case *types.Slice:
			t = x.Elem()
		case *types.Array:
			t = x.Elem()
		case *types.Named:
			if x.Obj().Pkg() != pkg || x.TypeParams().Len() > 0 {
				return nil
			}
			switch x.Underlying().(type) {
			case *types.Struct, *types.Array:
				return x
			}
			return nil
		default:
			return nil
		}
	}
}
