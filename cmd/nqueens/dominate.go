package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/nqueens/nqueens/dominate"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// dominateOptions are the flags and arguments of dominate.
type dominateOptions struct {
	streams
	n           int
	independent bool
	count       bool
	jsonOut     bool
	workers     int
}

func newDominateCmd(p *i18n.Printer) *cobra.Command {
	o := &dominateOptions{}
	cmd := &cobra.Command{
		Use:   "dominate N",
		Short: p.T("help.dominate.short", nil),
		Long:  p.T("help.dominate.long", nil),
		Args:  exactArgs(1, "N"),
	}
	fl := cmd.Flags()
	fl.BoolVar(&o.independent, "independent", false, p.T("help.dominate.flag.independent", nil))
	fl.BoolVar(&o.count, "count", false, p.T("help.dominate.flag.count", nil))
	fl.BoolVar(&o.jsonOut, "json", false, p.T("help.flag.json", nil))
	fl.IntVarP(&o.workers, "workers", "w", 0, p.T("help.flag.workers", nil))
	return command(cmd, o)
}

func (o *dominateOptions) validate(args []string) error {
	if err := checkWorkers(o.workers); err != nil {
		return err
	}
	n, err := parseN(args[0], "dominate", dominate.MaxN)
	if err != nil {
		return err
	}
	if o.count && n > dominate.ExactReach {
		return usageT("cli.dominate.reach", i18n.Args{"Max": dominate.ExactReach, "N": n})
	}
	o.n = n
	return nil
}

// dominateJSON is the --json output of dominate. Minimum is absent past
// exact reach, where Found and LowerBound bound it.
type dominateJSON struct {
	N           int      `json:"n"`
	Independent bool     `json:"independent"`
	Minimum     *int     `json:"minimum,omitempty"`
	Found       int      `json:"found"`
	LowerBound  int      `json:"lower_bound"`
	Exact       bool     `json:"exact"`
	Queens      [][2]int `json:"queens"`
	Count       *uint64  `json:"count,omitempty"`
	OEIS        string   `json:"oeis"`
	OEISCount   string   `json:"oeis_count,omitempty"`
	Seconds     float64  `json:"seconds"`
	// The published terms, and whether the proved numbers equal them
	// (null when nothing proved has one), as a count's (docs/json.md).
	Reference *dominate.Reference `json:"reference"`
	Matches   *bool               `json:"matches"`
}

func (o *dominateOptions) run(ctx context.Context) error {
	r, err := dominate.Solve(ctx, o.n, dominate.Options{Independent: o.independent, Count: o.count, Workers: o.workers})
	if ie := stoppedEarly(ctx, err, fmt.Sprintf("dominate %d", o.n), i18n.NewError("cli.kept.nothingprinted", nil)); ie != nil {
		return ie
	} else if err != nil {
		return err
	}
	seqMin, seqCount := "A075458", "A002564"
	if o.independent {
		seqMin, seqCount = "A075324", "A002568"
	}
	if o.jsonOut {
		j := dominateJSON{N: r.N, Independent: r.Independent, Found: r.Minimum, LowerBound: r.LowerBound, Exact: r.Exact, OEIS: seqMin, Seconds: r.Elapsed.Seconds(),
			Reference: dominate.Published(r.N, r.Independent), Matches: r.Matches()}
		if r.Exact {
			j.Minimum = &r.Minimum
		}
		for _, q := range r.Queens {
			j.Queens = append(j.Queens, [2]int{q.Row + 1, q.Col + 1})
		}
		if r.Counted {
			j.Count, j.OEISCount = &r.Count, seqCount
		}
		return writeJSONLine(o.stdout, j)
	}
	w := o.stdout
	what := "queens"
	if o.independent {
		what = "independent queens"
	}
	// Solve has checked every published term: one that differs never
	// comes here.
	ref := dominate.Published(o.n, o.independent)
	term := func(seq string, known bool) string { return checkedTerm(seq, fmt.Sprintf("a(%d)", o.n), known) }
	switch {
	case r.Exact && o.n <= dominate.ExactReach:
		fmt.Fprintf(w, "minimum %d (%s; no %d %s dominate the board: exhaustive search)\n", r.Minimum, term(seqMin, ref != nil && ref.Minimum != nil), r.Minimum-1, what)
	case r.Exact:
		fmt.Fprintf(w, "minimum %d (%s; it meets the lower bound ⌈(N − 1)/2⌉)\n", r.Minimum, term(seqMin, ref != nil && ref.Minimum != nil))
	default:
		published := ""
		if ref != nil && ref.Minimum != nil {
			published = fmt.Sprintf("; the published minimum is %d (OEIS %s a(%d))", *ref.Minimum, seqMin, o.n)
		}
		fmt.Fprintf(w, "found %d %s; lower bound %d (⌈(N − 1)/2⌉): the minimum is %d … %d, not proved here (exhaustive search reaches N = %d)%s\n",
			r.Minimum, what, r.LowerBound, r.LowerBound, r.Minimum, dominate.ExactReach, published)
	}
	rows := make([][]byte, o.n)
	for i := range rows {
		rows[i] = []byte(strings.Repeat(".", o.n))
	}
	for _, q := range r.Queens {
		rows[q.Row][q.Col] = 'Q'
	}
	for _, row := range rows {
		fmt.Fprintf(w, "%s\n", row)
	}
	if r.Counted {
		fmt.Fprintf(w, "count %d (%s: every minimum arrangement, rotations and mirrors included)\n", r.Count, term(seqCount, ref != nil && ref.Count != nil))
	}
	return nil
}
