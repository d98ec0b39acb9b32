package main

import (
	"bufio"
	"context"
	"fmt"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/variant"
	"github.com/spf13/cobra"
)

// showOptions are the flags and arguments of show.
type showOptions struct {
	streams
	format                      *string
	f                           board.Format
	inf                         board.Format
	output, inFormat, transform string
	sym                         board.Symmetry
	orbit, jsonOut              bool
	path                        string
	variant                     *variantFlags
}

func newShowCmd(p *i18n.Printer) *cobra.Command {
	o := &showOptions{}
	cmd := &cobra.Command{
		Use:   "show [FILE|-]",
		Short: p.T("help.show.short", nil),
		Long:  p.T("help.show.long", nil),
		Example: `  echo "2 4 1 3" | nqueens show --format unicode
  nqueens solve 8 | nqueens show --format svg -o queens8.svg
  nqueens solve 12 | nqueens show --format png -o queens12.png
  echo "1 5 8 6 3 7 2 4" | nqueens show --orbit --format list
  echo "1 3 5" | nqueens show --cols 5 --format dots
  echo "2 4 1 3" | nqueens show --super`,
		Args: maxArgs(1),
	}
	o.format = formatFlag(cmd, p, board.Unicode, board.Formats)
	fl := cmd.Flags()
	fl.StringVar(&o.inFormat, "input-format", "auto", p.T("help.flag.input-format", nil))
	fl.StringVarP(&o.output, "output", "o", "", p.T("help.flag.output", nil))
	fl.StringVar(&o.transform, "transform", "", p.T("help.show.flag.transform", nil))
	fl.BoolVar(&o.orbit, "orbit", false, p.T("help.show.flag.orbit", nil))
	fl.BoolVar(&o.jsonOut, "json", false, p.T("help.show.flag.json", nil))
	_ = cmd.RegisterFlagCompletionFunc("transform", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		names := make([]string, len(board.Symmetries))
		for i, s := range board.Symmetries {
			names[i] = s.String()
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	})
	o.variant = addVariantFlags(cmd, p)
	fl.Lookup("queens").Usage = p.T("help.show.flag.queens", nil)
	fl.Lookup("cols").Usage = p.T("help.flag.cols.read", nil)
	cmd.MarkFlagsMutuallyExclusive("orbit", "transform")
	return command(cmd, o)
}

func (o *showOptions) validate(args []string) error {
	var err error
	if o.f, err = outputFormat(*o.format, board.Formats, o.jsonOut); err != nil {
		return err
	}
	if o.inf, err = inputFormat(o.inFormat); err != nil {
		return err
	}
	o.sym = board.Identity
	if o.transform != "" {
		if o.sym, err = board.ParseSymmetry(o.transform); err != nil {
			return &usageError{err}
		}
	}
	o.path = argOr(args, 0, "-")
	if err := o.variant.check(o.given); err != nil {
		return err
	}
	return o.refuseBinaryToTerminal(o.output, o.f)
}

func (o *showOptions) run(ctx context.Context) error {
	in, name, err := o.openBoards(ctx, o.path)
	if err != nil {
		return err
	}
	defer in.Close()
	return o.writeOutput(ctx, o.output, func(w *bufio.Writer) error {
		s := &showStream{o: o, w: w, name: name}
		for rec, err := range readBoards(in, name, o.inf, o.variant.cols) {
			if err != nil {
				return err
			}
			if rec.Err != nil {
				return i18n.Wrap(rec.Err, "cli.where.line", i18n.Args{"Name": name, "Line": rec.Line})
			}
			o.note(name, rec)
			imgs, err := images(rec.Board, o.sym, o.orbit)
			if err != nil {
				return i18n.Wrap(err, "cli.where.line", i18n.Args{"Name": name, "Line": rec.Line})
			}
			for _, img := range imgs {
				if err := s.add(img); err != nil {
					return err
				}
			}
		}
		return s.end()
	})
}

// showStream writes the boards of show as they are read, holding one back:
// the first, which is written with a "# board 1" line only when a second
// follows, and which alone makes a picture. So show holds at most two
// boards at once, however many it reads (it held them all: 1.7 GB for an
// 8 MB file of 4 million boards).
type showStream struct {
	o       *showOptions
	w       *bufio.Writer
	name    string
	first   *board.Partial // held back until a second board comes
	written int            // boards written
}

// add writes board b, or holds it back if it is the first.
func (s *showStream) add(b board.Partial) error {
	f := s.o.f
	if err := board.CheckSize(max(len(b.Queens), b.Width()), "the "+string(f)+" format", board.MaxWriteN(f)); err != nil {
		return &usageError{err}
	}
	switch {
	case s.first == nil && s.written == 0:
		s.first = &b
		return nil
	case f.IsPicture():
		return usageT("cli.show.picture", i18n.Args{"Name": s.name, "Format": string(f)})
	case s.first != nil:
		first := *s.first
		s.first = nil
		if err := s.write(first); err != nil {
			return err
		}
	}
	return s.write(b)
}

// write writes one board of several.
func (s *showStream) write(b board.Partial) error {
	s.written++
	if s.o.f.IsBoard() {
		fmt.Fprintf(s.w, "# board %d\n", s.written)
	}
	return board.WritePartial(s.w, b, s.o.f)
}

// end writes the board held back, if it is the only one.
func (s *showStream) end() error {
	switch {
	case s.first != nil:
		return board.WritePartial(s.w, *s.first, s.o.f)
	case s.written == 0:
		return errT("cli.verify.none", i18n.Args{"Name": s.name})
	}
	return nil
}

// note says on stderr why a board read breaks the rules of the variant
// flags, if any are given; the board is drawn all the same.
func (o *showOptions) note(name string, rec board.Record) {
	if !o.variant.active(o.given) {
		return
	}
	if err := variant.Check(rec.Board, o.variant.rules(), true); err != nil {
		rules := o.variant.rules()
		rules.Rows, rules.Cols = len(rec.Board.Queens), rec.Board.Width()
		if rules.Queens == 0 {
			rules.Queens = rules.Rows
		}
		fmt.Fprintf(o.stderr, "nqueens: %s\n", o.printer().T("cli.show.notplacement", i18n.Args{"Name": name, "Line": rec.Line, "Variant": rules, "Err": err}))
	}
}

// images returns p under sym, or with orbit every distinct image of p
// under the symmetries of its board (4 for a rectangle). The identity
// returns p itself, so that a large board is not copied.
func images(p board.Partial, sym board.Symmetry, orbit bool) ([]board.Partial, error) {
	if sym == board.Identity && !orbit {
		return []board.Partial{p}, nil
	}
	n, cols := len(p.Queens), p.Width()
	syms := []board.Symmetry{sym}
	if orbit {
		syms = nil
		for _, s := range board.Symmetries {
			if s.OnRect(n, cols) {
				syms = append(syms, s)
			}
		}
	}
	var out []board.Partial
	for _, s := range syms {
		q, err := s.ApplyRect(p.Queens, cols)
		if err != nil {
			return nil, err
		}
		img := board.Partial{Queens: q, Cols: p.Cols}
		for _, sq := range p.Blocked {
			r, c := s.MapRect(n, cols, sq.Row, sq.Col)
			img.Blocked = append(img.Blocked, board.Square{Row: r, Col: c})
		}
		dup := false
		for _, o := range out {
			dup = dup || (o.Queens.Equal(img.Queens) && sameSquares(o.Blocked, img.Blocked))
		}
		if !dup {
			out = append(out, img)
		}
	}
	return out, nil
}

func sameSquares(a, b []board.Square) bool {
	set := make(map[board.Square]bool, len(a))
	for _, s := range a {
		set[s] = true
	}
	if len(a) != len(b) {
		return false
	}
	for _, s := range b {
		if !set[s] {
			return false
		}
	}
	return true
}
