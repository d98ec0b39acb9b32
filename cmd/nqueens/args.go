package main

import (
	"errors"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// What the command line says wrong: flag errors with the nearest names,
// and negative numbers, which pflag takes for flags.

// suggestion is how every typo hint starts: cobra's own wording, kept on
// lines of its own below the one-line error.
const suggestion = "\n\nDid you mean this?\n"

// flagError turns a flag parsing error into a usage error, with the
// nearest flag names when the flag is unknown.
func flagError(cmd *cobra.Command, err error) error {
	// A value its flag refuses with a message of the catalogs: pflag's
	// frame around it in the catalogs too.
	var bad *pflag.InvalidValueError
	if errors.As(err, &bad) {
		if _, ok := errors.Unwrap(bad).(i18n.Localizer); ok {
			f := bad.GetFlag()
			name := "--" + f.Name
			if f.Shorthand != "" {
				name = "-" + f.Shorthand + ", " + name
			}
			return &usageError{i18n.Wrap(errors.Unwrap(bad), "cli.flag.invalid", i18n.Args{"Value": strconv.Quote(bad.GetValue()), "Flag": strconv.Quote(name)})}
		}
	}
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return &usageError{err}
	}
	var near []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		// One typo in a short name, two (a swapped pair) in a longer one.
		if d := editDistance(name, f.Name); d <= 1 || (d == 2 && len(name) >= 5) || strings.HasPrefix(f.Name, name) {
			near = append(near, "--"+f.Name)
		}
	})
	return &usageError{withNear{i18n.NewError("cli.flag.unknown", i18n.Args{"Flag": "--" + name}), near}}
}

// negativeArgs moves each negative number of args that is no flag's value
// behind "--", where it is an argument: pflag takes "-1" for a shorthand
// flag (count -1 said "unknown shorthand flag: '1' in -1"), and the
// command's own check names it (n = -1 is out of range for count (1..64)).
func negativeArgs(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd == root {
		return args
	}
	out := make([]string, 0, len(args)+1)
	var moved []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			out = append(append(out, "--"), moved...)
			return append(out, args[i+1:]...)
		case len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "0123456789") == "":
			moved = append(moved, a)
			continue
		}
		out = append(out, a)
		if takesValue(cmd, a) && i+1 < len(args) {
			out = append(out, args[i+1])
			i++
		}
	}
	if len(moved) == 0 {
		return args
	}
	return append(append(out, "--"), moved...)
}

// takesValue reports whether arg is a flag of cmd given without its value,
// which is then the next argument (--seed 5, -o FILE).
func takesValue(cmd *cobra.Command, arg string) bool {
	var f *pflag.Flag
	switch {
	case strings.HasPrefix(arg, "--") && !strings.Contains(arg, "="):
		f = cmd.Flag(arg[2:]) // its own or a parent's
	case len(arg) == 2 && arg[0] == '-':
		if f = cmd.Flags().ShorthandLookup(arg[1:]); f == nil {
			f = cmd.InheritedFlags().ShorthandLookup(arg[1:])
		}
	}
	return f != nil && f.NoOptDefVal == ""
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
