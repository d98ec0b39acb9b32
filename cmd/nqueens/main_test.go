package main

import (
	"bytes"
	"strings"
)

// runCLI runs a command line through run with empty stdin and returns the
// exit code, stdout and stderr.
func runCLI(args ...string) (int, string, string) { return runCLIIn("", args...) }

// runCLIIn is runCLI with stdin.
func runCLIIn(stdin string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}
