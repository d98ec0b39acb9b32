// Command nqueens solves, counts, verifies, draws and traces the N-Queens
// problem. It is a thin layer over the nqueens library: every subcommand
// parses its arguments and calls a library package.
//
// Exit codes: 0 success, 1 failure (an invalid board, a failed count), 2 bad
// usage (a malformed argument or flag, N out of range, an unknown format),
// 130 interrupted (Ctrl-C or SIGTERM; what was kept is said on stderr;
// serve and worker, which run until stopped, shut down and exit 0). Output
// cut short by a reader that went away (| head) ends quietly with 0.
// Data goes to stdout; messages and progress go to stderr, one line per error.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"github.com/nqueens/nqueens/i18n"
)

func main() {
	// A reader that goes away (| head) ends a command quietly, with exit
	// status 0, whatever the command: with SIGPIPE ignored, a write to the
	// closed pipe fails with EPIPE (see closedPipe) instead of killing the
	// process with status 141 (which some commands got, and others not).
	signal.Ignore(syscall.SIGPIPE)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// closedPipe reports whether err is a write to an output whose reader has
// gone: the reader had enough, which is no failure.
func closedPipe(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Op == "write" && errors.Is(pe.Err, syscall.EPIPE)
}

// run executes one command line with the given streams and returns the exit
// code; tests call it directly.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runContext(ctx, args, stdin, stdout, stderr)
}

// runContext is run with ctx in place of Ctrl-C and SIGTERM.
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(i18n.For(helpLang(args)))
	root.SetArgs(negativeArgs(root, args))
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(&lockedWriter{w: stderr})
	err := root.ExecuteContext(ctx)
	if err == nil || closedPipe(err) {
		return 0
	}
	var ie *interrupted
	if ctx.Err() != nil && !errors.As(err, &ie) && errors.Is(err, context.Canceled) {
		// A command that keeps nothing says only where it stopped.
		ie = &interrupted{}
		if how := stoppedHow(err); how != context.Canceled.Error() {
			ie.kept, ie.said = how, howStopped{err}
		}
		err = ie
	}
	fmt.Fprint(root.ErrOrStderr(), errorText(i18n.For(errorLang(root)), err))
	var ue *usageError
	var fe *failure
	switch {
	case errors.As(err, &ie):
		return 130
	case errors.As(err, &fe):
		return fe.code
	case errors.As(err, &ue), !started(root):
		// Errors raised by cobra itself (unknown command or flag, wrong
		// number of arguments) happen before any RunE starts.
		return 2
	}
	return 1
}
