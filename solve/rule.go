package solve

import (
	"strconv"

	"github.com/nqueens/nqueens/i18n"
)

// Rule says in words how the construction places the queens for this n, by
// n mod 6 (the case that decides it), in English.
func (p Pattern) Rule() string { return p.RuleIn(i18n.For(i18n.English)) }

// RuleIn is Rule in pr's language: the messages construct.rule.… of the
// catalogs.
func (p Pattern) RuleIn(pr *i18n.Printer) string {
	switch {
	case p.n == 1:
		return pr.T("construct.rule.one", nil)
	case p.rest == 2:
		return pr.T("construct.rule.2", i18n.Args{"N": strconv.Itoa(p.n)})
	case p.rest == 3:
		return pr.T("construct.rule.3", i18n.Args{"N": strconv.Itoa(p.n)})
	}
	return pr.T("construct.rule.plain", i18n.Args{"N": strconv.Itoa(p.n), "Rest": p.rest})
}

// Run is a staircase of the construction: count queens from (Row, Col),
// 0-based, each one row down and two columns right of the one before.
type Run struct {
	Row   int `json:"row"`
	Col   int `json:"col"`
	Count int `json:"count"`
}

// Runs cuts the pattern into its staircases, in row order: every queen is
// in exactly one run. Cost O(n) time, O(runs) memory (at most 7 runs).
func (p Pattern) Runs() []Run {
	var runs []Run
	for r := range p.n {
		c := p.Col(r)
		if k := len(runs) - 1; k >= 0 && runs[k].Row+runs[k].Count == r && runs[k].Col+2*runs[k].Count == c {
			runs[k].Count++
			continue
		}
		runs = append(runs, Run{Row: r, Col: c, Count: 1})
	}
	return runs
}
