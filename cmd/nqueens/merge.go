package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/nqueens/nqueens/cluster/ledger"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// mergeOptions are the flags and arguments of merge.
type mergeOptions struct {
	streams
	jsonOut bool
	paths   []string
	key     sealKey
}

func newMergeCmd(p *i18n.Printer) *cobra.Command {
	o := &mergeOptions{}
	cmd := &cobra.Command{
		Use:   "merge LEDGER…",
		Short: p.T("help.merge.short", nil),
		Long:  p.T("help.merge.long", nil),
	}
	cmd.Flags().BoolVar(&o.jsonOut, "json", false, p.T("help.merge.flag.json", nil))
	addKeyFlag(cmd, p, &o.key)
	addQuietFlag(cmd, p)
	return command(cmd, o)
}

func (o *mergeOptions) validate(args []string) error {
	if len(args) == 0 {
		return usageT("cli.merge.none", nil)
	}
	o.paths = args
	return nil
}

func (o *mergeOptions) run(ctx context.Context) error {
	key, err := o.key.get(o.stderr, o.quiet)
	if err != nil {
		return err
	}
	// Progress in bytes of the ledgers read, which weighs a large ledger
	// more than a small one.
	var size, done int64
	for _, path := range o.paths {
		if fi, err := os.Stat(path); err == nil {
			size += fi.Size()
		}
	}
	view := newProgressView(o.stderr, o.printer(), o.printer().N("cli.merge.label", len(o.paths), nil), "bytes", o.quiet)
	defer view.finish(false)
	files := make([]*ledger.File, 0, len(o.paths))
	for _, path := range o.paths {
		view.update(progressState{Done: int(done), Units: int(max(size, done))})
		if err := ctx.Err(); err != nil {
			return interruptedT("cli.merge.int", nil)
		}
		lf, err := ledger.ReadFile(ctx, path, key)
		if isInterrupt(ctx, err) {
			return interruptedT("cli.merge.int.reading", i18n.Args{"Path": path})
		} else if err != nil {
			return err
		}
		if fi, err := os.Stat(path); err == nil {
			done += fi.Size()
		}
		if lf.Truncated > 0 {
			fmt.Fprintf(o.stderr, "nqueens: %s\n", o.printer().T("cli.merge.truncated", i18n.Args{"Path": path, "Line": lf.Truncated}))
		}
		files = append(files, lf)
	}
	view.update(progressState{Done: int(done), Units: int(max(size, done))})
	view.finish(true)
	rep, err := ledger.Merge(files)
	var me *ledger.MissingError
	if o.jsonOut && errors.As(err, &me) {
		if werr := writeJSONLine(o.stdout, missingJSON(me)); werr != nil {
			return werr
		}
	}
	if err != nil {
		return err
	}
	if rep.Duplicates > 0 {
		fmt.Fprintf(o.stderr, "nqueens: %s\n", o.printer().N("cli.merge.duplicates", rep.Duplicates, i18n.Args{"Count": strconv.Itoa(rep.Duplicates)}))
	}
	if _, _, known := count.Known(rep.Result.N); !known {
		if err := count.CheckSpread(ctx, rep.Result); err != nil {
			return err
		}
		fmt.Fprintf(o.stderr, "nqueens: %s\n", o.printer().N("cli.merge.pastknown", rep.Files, i18n.Args{"N": rep.Result.N, "Key": key}))
	}
	return printCountResult(o.stdout, rep.Result, o.jsonOut)
}

// missingJSON is the --json report of a merge with missing units.
func missingJSON(e *ledger.MissingError) any {
	shards := make([]string, len(e.Shards))
	for i, s := range e.Shards {
		shards[i] = s.String()
	}
	return struct {
		N       int      `json:"n"`
		Units   int      `json:"units"`
		Missing []int    `json:"missing"`
		Rerun   []string `json:"rerun_shards"`
	}{e.N, e.Units, e.Missing, shards}
}
