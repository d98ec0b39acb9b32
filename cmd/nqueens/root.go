// Every command has one shape, after gh's pkg/cmd:
//
//	type fooOptions struct {
//		streams     // stdin, stdout, stderr, and which flags were given
//		n     int   // the arguments and flags
//		...
//	}
//
//	func newFooCmd(p *i18n.Printer) *cobra.Command { // p: the help's language
//		o := &fooOptions{}
//		cmd := &cobra.Command{Use: "foo N", Short: p.T("help.FOO.short", nil), Args: exactArgs(1, "N"), ...}
//		cmd.Flags().BoolVar(&o.json, "json", false, p.T("help.FOO.flag.json", nil))
//		cmd.MarkFlagsMutuallyExclusive("a", "b") // which flags go together
//		return command(cmd, o)
//	}
//
//	func (o *fooOptions) validate(args []string) error  // read args, check flags; usage errors only, no work
//	func (o *fooOptions) run(ctx context.Context) error // the work; never sees cobra
//
// command makes RunE: fill in the streams, validate, run. Which flags
// exclude or need each other is declared with cobra's flag groups
// (MarkFlagsMutuallyExclusive, MarkFlagsRequiredTogether,
// MarkFlagsOneRequired), whose errors flagGroupError rewords; validate
// checks only what groups cannot say (ranges, a flag that needs one of two).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// streams is what a command's run gets from the command line besides its
// options: the standard streams, and which flags were given.
type streams struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	given          func(flag string) bool
	// quiet is --quiet, on the commands that take it (addQuietFlag): no
	// progress and no notes on stderr, only errors.
	quiet bool
	p     *i18n.Printer // of the human sentences (printer, noteT)
}

func (s *streams) base() *streams { return s }

// addQuietFlag adds --quiet (-q) to a long command: no progress bar, no
// status lines and no notes on stderr, only errors (streams.quiet).
func addQuietFlag(cmd *cobra.Command, p *i18n.Printer) {
	cmd.Flags().BoolP("quiet", "q", false, p.T("help.flag.quiet", nil))
}

// note prints a line for the user on stderr, unless --quiet.
func (s *streams) note(format string, args ...any) {
	if !s.quiet {
		fmt.Fprintf(s.stderr, "nqueens: "+format+"\n", args...)
	}
}

// options is the shape of every command (see the top of this file).
type options interface {
	base() *streams
	validate(args []string) error
	run(ctx context.Context) error
}

// command sets cmd's RunE to fill in o's streams, validate and run o.
func command(cmd *cobra.Command, o options) *cobra.Command {
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		quiet, _ := cmd.Flags().GetBool("quiet")
		*o.base() = streams{stdin: cmd.InOrStdin(), stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(), given: cmd.Flags().Changed, quiet: quiet, p: say(cmd.Context())}
		if err := o.validate(args); err != nil {
			return err
		}
		return o.run(cmd.Context())
	}
	return cmd
}

// The three errors of cobra's flag groups (cobra 1.10), which print Go
// slices.
var (
	groupTogether  = regexp.MustCompile(`^if any flags in the group \[(.*)\] are set they must all be set; missing \[(.*)\]$`)
	groupOneOf     = regexp.MustCompile(`^at least one of the flags in the group \[(.*)\] is required$`)
	groupExclusive = regexp.MustCompile(`^if any flags in the group \[.*\] are set none of the others can be; \[(.*)\] were all set$`)
)

// flagGroupError rewords an error of cobra's flag groups as a usage error.
func flagGroupError(err error) error {
	dashed := func(list string) []string {
		names := strings.Fields(list)
		for i, n := range names {
			names[i] = "--" + n
		}
		return names
	}
	msg := err.Error()
	if m := groupTogether.FindStringSubmatch(msg); m != nil {
		return usageT("cli.flags.together", i18n.Args{"Set": andNames(dashed(m[1])), "Missing": andNames(dashed(m[2]))})
	}
	if m := groupOneOf.FindStringSubmatch(msg); m != nil {
		return usageT("cli.flags.oneof", i18n.Args{"Flags": strings.Join(dashed(m[1]), ", ")})
	}
	if m := groupExclusive.FindStringSubmatch(msg); m != nil {
		set := dashed(m[1])
		if len(set) == 2 {
			return usageT("cli.flags.notboth", i18n.Args{"A": set[0], "B": set[1]})
		}
		return usageT("cli.flags.onlyone", i18n.Args{"Flags": strings.Join(set, ", ")})
	}
	return &usageError{err}
}

// commands lists the constructors of every subcommand, in the order help
// shows them (cobra sorts them by name).
var commands = []func(*i18n.Printer) *cobra.Command{
	// Boards: make, list, check and draw them.
	newSolveCmd, newListCmd, newVerifyCmd, newShowCmd, newCompleteCmd,
	// Counting, on one machine or many.
	newCountCmd, newEstimateCmd, newDominateCmd, newMergeCmd, newCoordinatorCmd, newWorkerCmd,
	// The classic algorithms, and the web page.
	newAlgorithmsCmd, newCompareCmd, newTraceCmd, newServeCmd, newSiteCmd,
	newVersionCmd,
}

const startedKey = "nqueens-started"

// newRootCmd builds the command tree, its help in p's language.
func newRootCmd(p *i18n.Printer) *cobra.Command {
	root := &cobra.Command{
		Use:           "nqueens",
		Short:         p.T("help.root.short", nil),
		Long:          p.T("help.root.long", nil),
		Annotations:   map[string]string{},
		SilenceErrors: true,
		SilenceUsage:  true,
		// Cobra checks flag groups after this hook: check them first, so
		// that a wrong combination is a usage error in our words.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmd.ValidateFlagGroups(); err != nil {
				return flagGroupError(err)
			}
			human, data, err := cmdLangs(cmd)
			if err != nil {
				return err
			}
			cmd.SetContext(withLangs(cmd.Context(), human, data))
			cmd.Root().Annotations[startedKey] = "1"
			return nil
		},
	}
	root.SetFlagErrorFunc(flagError)
	addLangFlag(root, p)
	for _, f := range commands {
		root.AddCommand(f(p))
	}
	root.Version = versionString()
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetHelpCommand(newHelpCmd(root, p))
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			strictParent(c, "cli.completion.shell.need", "cli.completion.shell.unknown")
		}
	}
	localizeCobra(root, p)
	return root
}

// newHelpCmd replaces cobra's help command, which answers an unknown topic
// with the root's help and exit status 0.
func newHelpCmd(root *cobra.Command, p *i18n.Printer) *cobra.Command {
	return &cobra.Command{
		Use:   p.T("help.help.use", nil),
		Short: p.T("help.help.short", nil),
		RunE: func(cmd *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 || target == nil {
				topic := strings.Join(args, " ")
				return &usageError{withNear{i18n.NewError("cli.help.unknown", i18n.Args{"Topic": strconv.Quote(topic)}),
					root.SuggestionsFor(args[len(args)-1])}}
			}
			target.InitDefaultHelpFlag()
			return target.Help()
		},
		ValidArgsFunction: func(_ *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
			var names []string
			for _, c := range root.Commands() {
				names = append(names, c.Name())
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
	}
}

// strictParent makes a command that only groups subcommands refuse an
// unknown one (cobra prints the help and exits 0), with the messages
// needKey (none given) and unknownKey.
func strictParent(c *cobra.Command, needKey, unknownKey string) {
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(cmd *cobra.Command, args []string) error {
		var names []string
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		if len(args) == 0 {
			return usageT(needKey, i18n.Args{"Command": cmd.Name(), "Names": strings.Join(names, ", ")})
		}
		return &usageError{withNear{i18n.NewError(unknownKey, i18n.Args{"Command": cmd.Name(), "Value": strconv.Quote(args[0]),
			"Names": strings.Join(names, ", ")}), cmd.SuggestionsFor(args[0])}}
	}
}

func started(root *cobra.Command) bool { return root.Annotations[startedKey] == "1" }

// usageError is a mistake on the command line: exit status 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// failure carries an explicit exit status, for commands whose result is a
// verdict (verify exits 1 when a board is invalid, after printing why).
type failure struct {
	code int
	msg  string
	said i18n.Localizer // msg in the catalogs' words (failureT); nil for English only
}

func (f *failure) Error() string { return f.msg }

// interrupted is how a command stopped by Ctrl-C or SIGTERM ends: exit
// status 130, and a message that says what was kept and how to go on.
type interrupted struct {
	kept string
	said i18n.Localizer // kept in the catalogs' words (interruptedT); nil for English only
}

func (e *interrupted) Error() string {
	if e.kept == "" {
		return "interrupted"
	}
	return "interrupted; " + e.kept
}

// stoppedHow is the message of an error that ends with the context's
// cancellation, without it: "count of N = 12 stopped after 5 of 730 units".
func stoppedHow(err error) string {
	return strings.TrimSuffix(err.Error(), ": "+context.Canceled.Error())
}

// Unwrap makes an interruption a cancellation for errors.Is.
func (e *interrupted) Unwrap() error { return context.Canceled }

// isInterrupt reports whether err is the end of ctx (Ctrl-C or SIGTERM).
func isInterrupt(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err())
}

// stoppedEarly is the interruption of a command that writes its result
// only at its end (nil if err is not one): where it stopped, from the
// library's message or else "what stopped", and kept, what is left.
// what and kept are strings or i18n.Localizers.
func stoppedEarly(ctx context.Context, err error, what, kept any) error {
	if !isInterrupt(ctx, err) {
		return nil
	}
	var how any = howStopped{err}
	if stoppedHow(err) == err.Error() {
		how = i18n.NewError("cli.stopped.what", i18n.Args{"What": what})
	}
	return interruptedT("cli.stopped.kept", i18n.Args{"How": how, "Kept": kept})
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// errorText is what run prints for err, in p's language when it can say
// itself in it: the error on one line, and typo suggestions, if any, on
// lines of their own below it.
func errorText(p *i18n.Printer, err error) string {
	if pe, ok := err.(*fs.PathError); ok {
		err = pathError{pe}
	}
	head, hint, found := strings.Cut(p.Err(err), strings.TrimRight(suggestion, "\n"))
	// Errors carry text from files and peers: it is escaped, never sent
	// to the terminal as is.
	out := "nqueens: " + escapeText(oneLine(head)) + "\n"
	if found {
		out += p.T("cli.didyoumean", nil) + "\n"
		for _, l := range strings.Split(strings.TrimSpace(hint), "\n") {
			out += "\t" + strings.TrimSpace(l) + "\n"
		}
	}
	return out
}

// exactArgs is cobra.ExactArgs with a usage error; names (a string or an
// i18n.Localizer) says what the arguments are.
func exactArgs(n int, names any) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return argsError(cmd, n, names, len(args))
		}
		return nil
	}
}

// maxArgs is cobra.MaximumNArgs with a usage error.
func maxArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return &usageError{i18n.NewPluralError("cli.args.most", n, i18n.Args{"Command": cmd.CommandPath(), "Got": strconv.Itoa(len(args))})}
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
func formatFlag(cmd *cobra.Command, p *i18n.Printer, def board.Format, allowed []board.Format) *string {
	names := formatNames(allowed)
	f := cmd.Flags().StringP("format", "f", string(def), p.T("help.flag.format", i18n.Args{"Formats": strings.Join(names, ", ")}))
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(names, cobra.ShellCompDirectiveNoFileComp))
	return f
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
	return "", usageT("cli.format.here", i18n.Args{"Value": strconv.Quote(name), "Formats": joinFormats(allowed)})
}

// outputFormat is the format of --format name, checked, or JSON for --json
// (the same as --format json).
func outputFormat(name string, allowed []board.Format, jsonOut bool) (board.Format, error) {
	f, err := checkFormat(name, allowed)
	if err == nil && jsonOut {
		f = board.JSON
	}
	return f, err
}

func formatNames(fs []board.Format) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}

func joinFormats(fs []board.Format) string { return strings.Join(formatNames(fs), ", ") }
