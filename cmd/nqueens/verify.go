package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/variant"
	"github.com/spf13/cobra"
)

// verifyOptions are the flags and arguments of verify.
type verifyOptions struct {
	streams
	jsonOut, partial bool
	inFormat         string
	f                board.Format
	path             string
	torus, super     bool
}

func newVerifyCmd() *cobra.Command {
	o := &verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify [FILE|-]",
		Short: "Check boards: print ok, or exactly why a board is not a solution",
		Long: `verify reads one or more boards (from FILE, or stdin when FILE is - or
missing) and prints, for each, "ok" or why it is not a solution: which two
queens attack each other (rows, columns and the line they share), which row
is empty, which column is out of range. With several boards each line
starts with the line number where the board begins.

Boards are in any input format, detected or named with --format: 1-based
column lists ("2 4 1 3", "[2,4,1,3]"), 0/1 grids, dot boards (".Q.."), JSON
({"n":4,"queens":[2,4,1,3]}). Board formats are separated by blank lines;
lists and JSON take one line each.

Exit status 1 if any board is invalid or malformed, 0 if all are solutions.`,
		Example: `  echo "2 4 1 3" | nqueens verify
  nqueens list 8 | nqueens verify --json
  nqueens verify boards.txt --partial`,
		Args: maxArgs(1),
	}
	fl := cmd.Flags()
	fl.StringVarP(&o.inFormat, "format", "f", "auto", "input format: auto, list, grid, dots, json")
	fl.BoolVar(&o.jsonOut, "json", false, "print a JSON object per board")
	fl.BoolVar(&o.partial, "partial", false, "accept empty rows: check only that no two queens attack each other")
	fl.BoolVar(&o.torus, "torus", false, "check on a torus: diagonals (and knight moves) wrap round the edges")
	fl.BoolVar(&o.super, "super", false, "check superqueens: queens that also move as a knight")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(append([]string{"auto"}, formatNames(board.InputFormats)...), cobra.ShellCompDirectiveNoFileComp))
	return command(cmd, o)
}

func (o *verifyOptions) validate(args []string) error {
	var err error
	o.f, err = inputFormat(o.inFormat)
	o.path = argOr(args, 0, "-")
	return err
}

func (o *verifyOptions) run(ctx context.Context) error {
	in, name, err := o.openBoards(ctx, o.path)
	if err != nil {
		return err
	}
	defer in.Close()
	check := board.Partial.Verify
	if o.partial {
		check = board.Partial.Check
	}
	if o.torus || o.super {
		check = o.variantCheck(check)
	}
	return o.writeOutput(ctx, "", func(w *bufio.Writer) error {
		return verifyAll(w, readBoards(in, name, o.f), name, check, o.jsonOut)
	})
}

// variantCheck checks a board by the rules of --torus and --super, after
// plain (which checks blocked squares, and which a variant's stricter rule
// does not loosen except for the torus's wrapped diagonals, checked here).
func (o *verifyOptions) variantCheck(plain func(board.Partial) error) func(board.Partial) error {
	piece := variant.Queen
	if o.super {
		piece = variant.Superqueen
	}
	return func(p board.Partial) error {
		if len(p.Queens) == 0 || len(p.Queens) > variant.MaxSide {
			if len(p.Blocked) > 0 {
				if err := board.CheckBlocked(p.Queens, p.Blocked); err != nil {
					return err
				}
			}
			return plain(p)
		}
		return variant.CheckBoard(p, o.torus, piece, !o.partial)
	}
}

// verifyAll prints a verdict for each board of boards and fails (exit 1)
// if any board is not a solution. With more than one board, each line
// starts with the line number where its board begins.
func verifyAll(w *bufio.Writer, boards iter.Seq2[board.Record, error], name string, check func(board.Partial) error, jsonOut bool) error {
	next, stop := iter.Pull2(boards)
	defer stop()
	bad, total := 0, 0
	rec, err, ok := next()
	if !ok {
		return fmt.Errorf("%s: no board found", name)
	}
	for ; ok; total++ {
		if err != nil {
			return err
		}
		following, ferr, more := next()
		v := verdictOf(rec, check)
		if !v.OK {
			bad++
		}
		var werr error
		switch {
		case jsonOut:
			werr = writeJSONLine(w, v)
		case total == 0 && (!more || ferr != nil):
			werr = writeVerdict(w, v, false)
		default:
			werr = writeVerdict(w, v, true)
		}
		if werr != nil {
			return werr
		}
		rec, err, ok = following, ferr, more
	}
	switch {
	case bad == 0:
		return nil
	case total == 1:
		return &failure{code: 1, msg: name + ": the board is not a solution"}
	}
	return &failure{code: 1, msg: fmt.Sprintf("%s: %d of %d boards are not solutions", name, bad, total)}
}

// writeVerdict prints "ok" or why not, after the board's line number when
// there are several boards.
func writeVerdict(w io.Writer, v verdict, numbered bool) error {
	msg := "ok"
	if !v.OK {
		msg = v.Error
	}
	if numbered {
		msg = fmt.Sprintf("line %d: %s", v.Line, msg)
	}
	_, err := fmt.Fprintln(w, msg)
	return err
}

// verdict is the result of verify for one board, also its --json form:
// problem in the one JSON form of board.Problem, malformed for text that is
// not a board.
type verdict struct {
	Line      int            `json:"line"`
	N         int            `json:"n,omitempty"`
	OK        bool           `json:"ok"`
	Error     string         `json:"error,omitempty"`
	Problem   *board.Problem `json:"problem,omitempty"`
	Malformed bool           `json:"malformed,omitempty"`
}

func verdictOf(rec board.Record, check func(board.Partial) error) verdict {
	v := verdict{Line: rec.Line}
	var p *board.Problem
	switch {
	case errors.As(rec.Err, &p):
		// A well-formed board with a column past n is a board, not a
		// malformed text: the problem is its column.
		v.N, v.Error, v.Problem = p.N, rec.Err.Error(), p
		return v
	case rec.Err != nil:
		v.Error, v.Malformed = "malformed: "+rec.Err.Error(), true
		return v
	}
	v.N = len(rec.Board.Queens)
	if err := check(rec.Board); err != nil {
		v.Error = err.Error()
		errors.As(err, &v.Problem)
		return v
	}
	v.OK = true
	return v
}

// inputFormat checks an input format name ("auto" detects).
func inputFormat(name string) (board.Format, error) {
	f, err := board.ParseFormat(name)
	if err != nil {
		return "", &usageError{err}
	}
	if f == board.Auto {
		return f, nil
	}
	for _, g := range board.InputFormats {
		if f == g {
			return f, nil
		}
	}
	return "", usagef("format %q cannot be read (want auto or one of %s)", name, joinFormats(board.InputFormats))
}

// argOr returns args[i], or def when there is no such argument.
func argOr(args []string, i int, def string) string {
	if i < len(args) {
		return args[i]
	}
	return def
}
