// Command check holds the repository to the rules a reviewer would
// otherwise have to remember: the size limits of the developers' guide,
// comments whose pointers (file paths, test names, the declaration a doc
// comment names) still lead somewhere, assembly that takes its constants
// from go_asm.h, and generated files that match their generators.
//
//	go run ./scripts/check [-C dir] [check ...]
//
// With no check named it runs all of them: limits, pointers, asm,
// generate. Each problem is one line, "path:line: what is wrong"; the exit
// status is 1 if there is any, 2 for bad usage. scripts/test.sh runs it.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
)

// A check looks at the repository and returns its problems, each a line.
type check struct {
	name string
	doc  string
	run  func(r *repo) ([]string, error)
}

var checks = []check{
	{"limits", "non-test, non-generated Go files ≤ 500 lines, functions ≤ 100", checkLimits},
	{"pointers", "paths and test names in comments exist; a doc comment names what it sits on", checkPointers},
	{"asm", "assembly takes its constants from go_asm.h", checkAsm},
	{"generate", "go generate ./... leaves every file as it was", checkGenerate},
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("C", ".", "the repository's root")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./scripts/check [-C dir] [check ...]\nchecks:")
		for _, c := range checks {
			fmt.Fprintf(stderr, "  %-9s %s\n", c.name, c.doc)
		}
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	todo := checks
	if fs.NArg() > 0 {
		todo = nil
		for _, name := range fs.Args() {
			i := slices.IndexFunc(checks, func(c check) bool { return c.name == name })
			if i < 0 {
				fmt.Fprintf(stderr, "check: no check named %q\n", name)
				fs.Usage()
				return 2
			}
			todo = append(todo, checks[i])
		}
	}
	r, err := openRepo(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "check:", err)
		return 1
	}
	status := 0
	for _, c := range todo {
		problems, err := c.run(r)
		if err != nil {
			problems = append(problems, err.Error())
		}
		for _, p := range problems {
			fmt.Fprintf(stdout, "%s: %s\n", c.name, p)
		}
		if len(problems) > 0 {
			status = 1
			fmt.Fprintf(stderr, "check: %s: %d problem(s)\n", c.name, len(problems))
		}
	}
	return status
}
