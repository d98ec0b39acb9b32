package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nqueens/nqueens/board"
	"github.com/spf13/cobra"
)

// commands lists the constructors of every subcommand, in the order help
// shows them (cobra sorts them by name).
var commands = []func() *cobra.Command{
	// Boards: make, list, check and draw them.
	newSolveCmd, newListCmd, newVerifyCmd, newShowCmd, newCompleteCmd,
	// Counting, on one machine or many.
	newCountCmd, newEstimateCmd, newMergeCmd, newCoordinatorCmd, newWorkerCmd,
	// The classic algorithms, and the web page.
	newAlgorithmsCmd, newCompareCmd, newTraceCmd, newServeCmd,
	newVersionCmd,
}

const startedKey = "nqueens-started"

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "nqueens",
		Short: "Solve, count, verify, draw and trace the N-Queens problem",
		Long: `nqueens places n queens on an n×n board so that no two attack each other.

It constructs a solution for any n ≥ 4 in linear time, lists and counts all
solutions and their symmetry classes, verifies and converts boards between
formats (list, grid, dots, unicode, json, svg, png), and more.

Data goes to stdout, messages to stderr. Exit codes: 0 ok, 1 failure, 2 usage.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRun: func(cmd *cobra.Command, _ []string) {
			cmd.Root().Annotations = map[string]string{startedKey: "1"}
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	for _, f := range commands {
		root.AddCommand(f())
	}
	return root
}

func started(root *cobra.Command) bool { return root.Annotations[startedKey] == "1" }

// usageError is a mistake on the command line: exit status 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return &usageError{fmt.Errorf(format, args...)} }

// failure carries an explicit exit status, for commands whose result is a
// verdict (verify exits 1 when a board is invalid, after printing why).
type failure struct {
	code int
	msg  string
}

func (f *failure) Error() string { return f.msg }

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// exactArgs is cobra.ExactArgs with a usage error.
func exactArgs(n int, names string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s needs %s, got %d argument(s)", cmd.CommandPath(), names, len(args))
		}
		return nil
	}
}

// maxArgs is cobra.MaximumNArgs with a usage error.
func maxArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return usagef("%s takes at most %d argument(s), got %d", cmd.CommandPath(), n, len(args))
		}
		return nil
	}
}

// parseN reads the board size N for operation op, which accepts 1..limit:
// board.ParseSize, as a usage error.
func parseN(arg, op string, limit int) (int, error) {
	n, err := board.ParseSize(arg, op, limit)
	if err != nil {
		return 0, &usageError{err}
	}
	return n, nil
}

// formatFlag adds --format (and -f) with shell completion of format names.
func formatFlag(cmd *cobra.Command, def board.Format, allowed []board.Format) *string {
	names := formatNames(allowed)
	p := cmd.Flags().StringP("format", "f", string(def), "output format: "+strings.Join(names, ", "))
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(names, cobra.ShellCompDirectiveNoFileComp))
	return p
}

// checkFormat validates a --format value against the formats a command allows.
func checkFormat(name string, allowed []board.Format) (board.Format, error) {
	f, err := board.ParseFormat(name)
	if err != nil {
		return "", &usageError{err}
	}
	for _, a := range allowed {
		if a == f {
			return f, nil
		}
	}
	return "", usagef("format %q is not available here (want one of %s)", name, joinFormats(allowed))
}

// openOutput returns stdout for "" or "-", else a new file. The file is
// written in place; done closes it and reports any write error.
func openOutput(cmd *cobra.Command, path string) (w io.Writer, done func() error, err error) {
	if path == "" || path == "-" {
		return cmd.OutOrStdout(), func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

// openInput returns stdin for "" or "-", else the named file.
func openInput(cmd *cobra.Command, path string) (io.ReadCloser, string, error) {
	if path == "" || path == "-" {
		return io.NopCloser(cmd.InOrStdin()), "stdin", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	return f, path, nil
}

func formatNames(fs []board.Format) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}

func joinFormats(fs []board.Format) string { return strings.Join(formatNames(fs), ", ") }
