package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
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
	variant          *variantFlags
}

func newVerifyCmd(p *i18n.Printer) *cobra.Command {
	o := &verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify [FILE|-]",
		Short: p.T("help.verify.short", nil),
		Long:  p.T("help.verify.long", nil),
		Example: `  echo "2 4 1 3" | nqueens verify
  nqueens list 8 | nqueens verify --json
  nqueens verify boards.txt --partial
  nqueens list 6 --cols 9 --queens 4 | nqueens verify --cols 9 --queens 4`,
		Args: maxArgs(1),
	}
	fl := cmd.Flags()
	fl.StringVarP(&o.inFormat, "format", "f", "auto", p.T("help.flag.input-format", nil))
	fl.BoolVar(&o.jsonOut, "json", false, p.T("help.verify.flag.json", nil))
	fl.BoolVar(&o.partial, "partial", false, p.T("help.verify.flag.partial", nil))
	o.variant = addVariantFlags(cmd, p)
	fl.Lookup("queens").Usage = p.T("help.verify.flag.queens", nil)
	fl.Lookup("cols").Usage = p.T("help.flag.cols.read", nil)
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(append([]string{"auto"}, formatNames(board.InputFormats)...), cobra.ShellCompDirectiveNoFileComp))
	return command(cmd, o)
}

func (o *verifyOptions) validate(args []string) error {
	var err error
	if o.f, err = inputFormat(o.inFormat); err != nil {
		return err
	}
	o.path = argOr(args, 0, "-")
	return o.variant.check(o.given)
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
	if o.variant.active(o.given) {
		// Every board by the variant's rules, at its own size; one past
		// the variants' 64 rows is an error, never the plain board's
		// verdict.
		rules := o.variant.rules()
		check = func(p board.Partial) error { return variant.Check(p, rules, o.partial) }
	}
	return o.writeOutput(ctx, "", func(w *bufio.Writer) error {
		return verifyAll(ctx, w, readBoards(in, name, o.f, o.variant.cols), name, check, o.jsonOut, o.variant.cols)
	})
}

// verifyAll prints a verdict for each board of boards, of cols columns (0:
// square), and fails (exit 1) if any board is not a solution. With more
// than one board, each line starts with the line number where its board
// begins.
func verifyAll(ctx context.Context, w *bufio.Writer, boards iter.Seq2[board.Record, error], name string, check func(board.Partial) error, jsonOut bool, cols int) error {
	p, data := say(ctx), i18n.Ctx(dataLang(ctx))
	next, stop := iter.Pull2(boards)
	defer stop()
	bad, total := 0, 0
	rec, err, ok := next()
	if !ok {
		return errT("cli.verify.none", i18n.Args{"Name": name})
	}
	for ; ok; total++ {
		if err != nil {
			return err
		}
		following, ferr, more := next()
		v := verdictOf(rec, check, cols)
		if !v.OK {
			bad++
		}
		var werr error
		switch {
		case jsonOut:
			v.Error = verdictText(data, v)
			werr = writeJSONLine(w, v)
		case total == 0 && (!more || ferr != nil):
			werr = writeVerdict(p, w, v, false)
		default:
			werr = writeVerdict(p, w, v, true)
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
		return failureT(1, "cli.verify.notsolution", i18n.Args{"Name": name})
	}
	return failureT(1, "cli.verify.notsolutions", i18n.Args{"Name": name, "Bad": strconv.Itoa(bad), "Total": strconv.Itoa(total)})
}

// writeVerdict prints "ok" or why not, after the board's line number when
// there are several boards.
func writeVerdict(p *i18n.Printer, w io.Writer, v board.Verdict, numbered bool) error {
	msg := p.T("cli.verify.ok", nil)
	if !v.OK {
		msg = verdictText(p, v)
	}
	if numbered {
		msg = p.T("cli.verify.line", i18n.Args{"Line": strconv.Itoa(v.Line), "Msg": msg})
	}
	_, err := fmt.Fprintln(w, msg)
	return err
}

// verdictOf is the verdict of verify on one board read, also its --json
// form (board.Verdict, the shape /api/verify answers too).
func verdictOf(rec board.Record, check func(board.Partial) error, cols int) board.Verdict {
	var p *board.Problem
	switch {
	case errors.As(rec.Err, &p):
		// A well-formed board with a column past n is a board, not a
		// malformed text: the problem is its column. On a board of
		// given columns the columns are all that is known of its size.
		v := board.Verdict{Line: rec.Line, N: p.N, Error: rec.Err.Error()}
		v.SetProblem(rec.Err)
		if cols > 0 {
			v.N, v.Cols = 0, cols
		}
		return v
	case rec.Err != nil:
		return board.Verdict{Line: rec.Line, Error: "malformed: " + rec.Err.Error(), Malformed: true}
	}
	v := board.NewVerdict(rec.Board, check(rec.Board))
	v.Line = rec.Line
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
	return "", usageT("cli.verify.format", i18n.Args{"Value": strconv.Quote(name), "Formats": joinFormats(board.InputFormats)})
}

// argOr returns args[i], or def when there is no such argument.
func argOr(args []string, i int, def string) string {
	if i < len(args) {
		return args[i]
	}
	return def
}

// verdictText is v's error in p's language: its problem said again from
// the catalogs (English is the verdict's own words); a malformed board's
// error stays as it is.
func verdictText(p *i18n.Printer, v board.Verdict) string {
	if v.Problem == nil || p.Lang() == i18n.English {
		return v.Error
	}
	j := v.Problem
	kind, err := board.ParseProblemKind(j.Kind)
	if err != nil {
		return v.Error
	}
	return p.Err(&board.Problem{Kind: kind, Row: j.Row - 1, Col: j.Col - 1, Row2: j.Row2 - 1, Col2: j.Col2 - 1, N: max(v.N, v.Cols)})
}
