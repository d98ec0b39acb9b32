package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/complete"
	"github.com/spf13/cobra"
)

func newCompleteCmd() *cobra.Command {
	var output, inFormat string
	var count, all, jsonOut bool
	var limit int
	var seed uint64
	cmd := &cobra.Command{
		Use:   "complete [FILE|-]",
		Short: "Complete a partly filled board, or prove that it cannot be",
		Long: `complete reads one partial board (from FILE, or stdin when FILE is - or
missing): queens already placed, and optionally blocked squares (x in dots
boards, "blocked":[[row,col],...] in JSON, 1-based). It prints one
completion, a full solution that keeps those queens and avoids the blocked
squares, or the line "no completion exists", which is then a proof by
exhaustive search; both are answers, so both exit 0.

Boards up to 64×64 are searched exactly (bit-parallel backtracking that
fills the most constrained row first and forced squares at once); --count
prints the exact number of completions and --all streams them. Larger
boards get a local search that never moves the placed queens; when it
fails, complete says so (the exact search, which could prove that none
exists, stops at 64) and exits 1.

The input is checked first: two placed queens that attack each other, a
queen on a blocked square or malformed input are reported with positions,
exit 1. Every completion is verified before it is printed.`,
		Example: `  printf '.Q......\n........\n........\n........\n........\n........\n........\n........\n' | nqueens complete
  echo "2 0 0 0 0 0" | nqueens complete --format list
  nqueens complete board.txt --count
  nqueens complete board.json --all --limit 10 --format list`,
		Args: maxArgs(1),
	}
	format := cmd.Flags().StringP("format", "f", "", "output format: list, grid, dots, unicode, json, svg, png (default: the input's, or dots)")
	cmd.Flags().StringVar(&inFormat, "input-format", "auto", "input format: auto, list, grid, dots, json")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file instead of stdout")
	cmd.Flags().BoolVar(&count, "count", false, "print the exact number of completions (n ≤ 64)")
	cmd.Flags().BoolVar(&all, "all", false, "print every completion (n ≤ 64)")
	cmd.Flags().IntVar(&limit, "limit", 0, "with --all, stop after this many completions (0: no limit)")
	cmd.Flags().BoolVar(&jsonOut, "json", false, `print JSON Lines: a board as {"n":N,"queens":[...]}, {"n":N,"completions":K} for --count, {"n":N,"exists":false} when there is none`)
	cmd.Flags().Uint64Var(&seed, "seed", 0, "seed of the local search used above 64×64")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formatNames(board.Formats), cobra.ShellCompDirectiveNoFileComp))
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		inf, err := inputFormat(inFormat)
		if err != nil {
			return err
		}
		switch {
		case count && all:
			return usagef("--count and --all cannot be used together")
		case limit < 0:
			return usagef("--limit must be 0 or more, got %d", limit)
		case limit > 0 && !all:
			return usagef("--limit needs --all")
		}
		in, name, err := openBoards(cmd, argOr(args, 0, "-"))
		if err != nil {
			return err
		}
		defer in.Close()
		p, detected, err := readOnePartial(in, name, inf)
		if err != nil {
			return err
		}
		f := detected
		if *format != "" {
			if f, err = checkFormat(*format, board.Formats); err != nil {
				return err
			}
		}
		if jsonOut {
			f = board.JSON
		}
		if all && f.IsPicture() {
			return usagef("--all prints many boards; a %s picture shows one (use list, json or a board format)", f)
		}
		if err := complete.Validate(p); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		n := len(p.Queens)
		ctx := cmd.Context()
		opts := complete.Options{Seed: seed}
		if n > complete.ExactLimit && !count && !all {
			fmt.Fprintf(cmd.ErrOrStderr(), "nqueens: %d×%d is beyond the exact search (n ≤ %d): trying local search with the placed queens fixed\n", n, n, complete.ExactLimit)
		}
		return writeOutput(cmd, output, func(w *bufio.Writer) error {
			switch {
			case count:
				k, err := complete.Count(ctx, p, opts)
				if err != nil {
					return err
				}
				if jsonOut {
					return writeJSONLine(w, map[string]any{"n": n, "completions": k})
				}
				_, err = fmt.Fprintln(w, k)
				return err
			case all:
				k := 0
				for sol, err := range complete.All(ctx, p, opts) {
					if err != nil {
						return err
					}
					if err := checkCompletion(sol, p); err != nil {
						return err
					}
					k++
					if err := writeListed(w, sol, f, k, 0); err != nil {
						return err
					}
					if k == limit {
						break
					}
				}
				if k == 0 {
					return noCompletion(w, n, jsonOut)
				}
				return nil
			}
			sol, err := complete.Complete(ctx, p, opts)
			if errors.Is(err, complete.ErrNoCompletion) {
				return noCompletion(w, n, jsonOut)
			}
			if err != nil {
				return err
			}
			if err := checkCompletion(sol, p); err != nil {
				return err
			}
			return board.Write(w, sol, f)
		})
	}
	return cmd
}

// readOnePartial reads exactly one board and names the format to answer in:
// the input's own when it is known, else dots.
func readOnePartial(in io.Reader, name string, f board.Format) (board.Partial, board.Format, error) {
	var boards []board.Partial
	for rec, err := range readBoards(in, name, f) {
		if err != nil {
			return board.Partial{}, "", err
		}
		if rec.Err != nil {
			return board.Partial{}, "", fmt.Errorf("%s: line %d: %w", name, rec.Line, rec.Err)
		}
		boards = append(boards, rec.Board)
	}
	if len(boards) != 1 {
		return board.Partial{}, "", fmt.Errorf("%s: complete takes exactly one board, got %d", name, len(boards))
	}
	if f == board.Auto {
		f = board.Dots
	}
	return boards[0], f, nil
}

// checkCompletion is the last guard before printing: a full solution that
// keeps the placed queens and avoids the blocked squares.
func checkCompletion(sol board.Placement, p board.Partial) error {
	if err := board.VerifyCompletion(sol, p); err != nil {
		return fmt.Errorf("internal error, the completion is invalid: %w", err)
	}
	return nil
}

func noCompletion(w io.Writer, n int, jsonOut bool) error {
	if jsonOut {
		return writeJSONLine(w, map[string]any{"n": n, "exists": false})
	}
	_, err := fmt.Fprintln(w, "no completion exists")
	return err
}
