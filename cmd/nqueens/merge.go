package main

import (
	"fmt"

	"github.com/nqueens/nqueens/cluster"
	"github.com/spf13/cobra"
)

func newMergeCmd() *cobra.Command {
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "merge LEDGER…",
		Short: "Add up the ledgers of a sharded count into the exact total",
		Long: `merge reads the ledger files written by "nqueens count N --shard I/K --ledger
FILE" and prints the total and unique counts exactly as count does. It
refuses ledgers of different runs (fingerprints), reports every unit found
with two different results (naming both files and lines), and lists the
missing units; a unit found twice with the same result is counted once.
A last line cut short by a kill is ignored with a warning.

In the --json output, seconds is the sum of the units' counting times (CPU
seconds) and workers the number of distinct hosts.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("merge needs at least one ledger file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			files := make([]*cluster.LedgerFile, 0, len(args))
			for _, path := range args {
				lf, err := cluster.ReadLedgerFile(path)
				if err != nil {
					return err
				}
				if lf.Truncated > 0 {
					fmt.Fprintf(cmd.ErrOrStderr(), "nqueens: warning: %s:%d: ignoring a last line cut short (the shard was killed while writing; rerun it to redo those units)\n", path, lf.Truncated)
				}
				files = append(files, lf)
			}
			rep, err := cluster.Merge(files)
			if err != nil {
				return err
			}
			if rep.Duplicates > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "nqueens: %d unit(s) were counted more than once, with equal results\n", rep.Duplicates)
			}
			return printCountResult(cmd.OutOrStdout(), rep.Result, jsonOut)
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print a JSON object")
	return cmd
}
