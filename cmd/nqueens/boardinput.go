package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/bounded"
	"golang.org/x/term"
)

// openBoards opens the boards that verify, show and complete read: stdin
// for "" or "-", else the named file, which must not be a directory. The
// reader ends with the command's context, even while a read waits for a
// person typing at a terminal, so that Ctrl-C stops the command at once.
func (s *streams) openBoards(ctx context.Context, path string) (io.ReadCloser, string, error) {
	in, name, err := s.openInput(path)
	if err != nil {
		return nil, "", err
	}
	if f, ok := in.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.IsDir() {
			f.Close()
			return nil, "", errT("cli.input.dir", i18n.Args{"Name": name})
		}
	}
	if f, ok := s.stdin.(*os.File); ok && name == "stdin" && term.IsTerminal(int(f.Fd())) {
		// Otherwise the command seems to hang.
		fmt.Fprintf(s.stderr, "nqueens: %s\n", s.printer().T("cli.input.terminal", i18n.Args{"Key": "Ctrl-D"}))
	}
	br := bufio.NewReader(bounded.NewReader(ctx, in, name, "error.toolarge.boards", -1))
	if err := checkEncoding(br, name); err != nil {
		in.Close()
		if isInterrupt(ctx, err) {
			return nil, "", interruptedT("cli.int.beforeread", i18n.Args{"Name": name})
		}
		return nil, "", err
	}
	return readCloser{br, in}, name, nil
}

// checkEncoding looks at the first bytes of r: UTF-16 text (a byte-order
// mark, or a NUL as second byte) is refused with a hint, and UTF-8's
// byte-order mark, which some editors write, is skipped.
func checkEncoding(r *bufio.Reader, name string) error {
	head, err := r.Peek(3)
	if err != nil && len(head) == 0 {
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
	switch {
	case len(head) >= 2 && (head[0] == 0xff && head[1] == 0xfe || head[0] == 0xfe && head[1] == 0xff || head[1] == 0):
		return errT("cli.input.utf16", i18n.Args{"Name": name, "Command": "iconv -f UTF-16 -t UTF-8"})
	case len(head) == 3 && head[0] == 0xef && head[1] == 0xbb && head[2] == 0xbf:
		_, err := r.Discard(3)
		return err
	}
	return nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// readBoards is board.ParseAllRect (cols 0: square boards) with the
// reader's failure named after the input it came from.
func readBoards(in io.Reader, name string, f board.Format, cols int) iter.Seq2[board.Record, error] {
	return func(yield func(board.Record, error) bool) {
		for rec, err := range board.ParseAllRect(in, f, cols) {
			switch {
			case errors.Is(err, context.Canceled):
				err = interruptedT("cli.int.readingline", i18n.Args{"Name": name, "Line": rec.Line})
			case err != nil:
				err = i18n.Wrap(err, "cli.where.line", i18n.Args{"Name": name, "Line": rec.Line})
			}
			if !yield(rec, err) {
				return
			}
		}
	}
}

// refuseBinaryToTerminal is the guard before a PNG goes to stdout: bytes of
// a picture on a terminal are noise that can even reset it.
func (s *streams) refuseBinaryToTerminal(output string, f board.Format) error {
	if f != board.PNG || (output != "" && output != "-") {
		return nil
	}
	if out, ok := s.stdout.(*os.File); ok && term.IsTerminal(int(out.Fd())) {
		return usageT("cli.output.png", i18n.Args{"Flag": "-o FILE"})
	}
	return nil
}
