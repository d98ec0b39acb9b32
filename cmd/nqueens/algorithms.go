package main

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// algorithmsOptions are the flags of algorithms.
type algorithmsOptions struct {
	streams
	jsonOut bool
}

func newAlgorithmsCmd(p *i18n.Printer) *cobra.Command {
	o := &algorithmsOptions{}
	cmd := &cobra.Command{
		Use:   "algorithms",
		Short: p.T("help.algorithms.short", nil),
		Long:  p.T("help.algorithms.long", nil),
		Args:  exactArgs(0, "no arguments"),
	}
	cmd.Flags().BoolVar(&o.jsonOut, "json", false, p.T("help.algorithms.flag.json", nil))
	return command(cmd, o)
}

func (o *algorithmsOptions) validate([]string) error { return nil }

func (o *algorithmsOptions) run(ctx context.Context) error {
	w := o.stdout
	p, data := say(ctx), i18n.Ctx(dataLang(ctx))
	markWidth := max(5, displayWidth(p.T("cli.algorithms.traceable", nil)))
	for _, s := range classic.All() {
		_, traceable := classic.TraceOf(s)
		if o.jsonOut {
			err := writeJSONLine(w, struct {
				Name        string `json:"name"`
				Description string `json:"description"`
				Traceable   bool   `json:"traceable"`
				Enumerates  bool   `json:"enumerates"`
			}{s.Name(), classic.Describe(data, s), traceable, classic.Enumerates(s)})
			if err != nil {
				return err
			}
			continue
		}
		mark := ""
		if traceable {
			mark = p.T("cli.algorithms.traceable", nil)
		}
		if _, err := fmt.Fprintf(w, "%-26s %s  %s\n", s.Name(), padRight(mark, markWidth), classic.Describe(p, s)); err != nil {
			return err
		}
	}
	return nil
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
