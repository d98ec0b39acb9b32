package main

import (
	"encoding/json"
	"fmt"

	"github.com/nqueens/nqueens/classic"
	"github.com/spf13/cobra"
)

func newAlgorithmsCmd() *cobra.Command {
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "algorithms",
		Short: "List the classic algorithms, one line each",
		Long: `List the classic algorithms that count, compare and trace run, from brute
force to the bitmask search, one line each. "trace" marks those that
nqueens trace can show step by step.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			for _, s := range classic.All() {
				_, traceable := classic.TraceOf(s)
				if jsonOut {
					line, err := json.Marshal(struct {
						Name        string `json:"name"`
						Description string `json:"description"`
						Traceable   bool   `json:"traceable"`
						Enumerates  bool   `json:"enumerates"`
					}{s.Name(), s.Description(), traceable, classic.Enumerates(s)})
					if err != nil {
						return err
					}
					fmt.Fprintf(w, "%s\n", line)
					continue
				}
				mark := ""
				if traceable {
					mark = "trace"
				}
				fmt.Fprintf(w, "%-26s %-5s  %s\n", s.Name(), mark, s.Description())
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "JSON Lines: name, description, traceable, enumerates")
	return cmd
}

// lookupAlgo finds a strategy by name, a usage error if there is none.
func lookupAlgo(name string) (classic.Strategy, error) {
	s, err := classic.Lookup(name)
	if err != nil {
		return nil, &usageError{err}
	}
	return s, nil
}

// algoNames completes --algo values.
func algoNames(cmd *cobra.Command, flag string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(classic.Names(), cobra.ShellCompDirectiveNoFileComp))
}
