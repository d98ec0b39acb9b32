package web

import (
	"errors"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/solve"
)

// maxCompareN is the largest N of /api/compare: at N = 13 the 2-D scan
// alone takes seconds.
const maxCompareN = 12

// compareTimeout is the time /api/compare allows each strategy; a
// brute-force method that would need longer is marked out of reach.
const compareTimeout = time.Second

// compareJSON is one strategy's row of GET /api/compare.
type compareJSON struct {
	Algorithm string            `json:"algorithm"`
	Status    string            `json:"status"` // ok, timeout or skipped (out of reach)
	Counters  *classic.Counters `json:"counters,omitempty"`
	Seconds   float64           `json:"seconds,omitempty"` // one whole run
	// A skipped brute-force method: its candidates (exact, by Formula) and
	// the time they would take at the rate measured.
	Candidates *big.Int `json:"candidates,omitempty"`
	Formula    string   `json:"formula,omitempty"`
	Estimate   float64  `json:"estimate_s,omitempty"`
}

// handleCompare runs every classic strategy for ?n= (or those of
// ?algos=a,b,…) as `nqueens compare N --timeout 1s --json` does
// (classic.Measure), for the page's cost chart and the race's summary.
func (s *Server) handleCompare(w http.ResponseWriter, r *http.Request) error {
	q, err := query(r, "n", "algos")
	if err != nil {
		return err
	}
	n, err := nParam(q, "compare", min(maxCompareN, s.cfg.MaxTraceN))
	if err != nil {
		return err
	}
	var only []string
	if v, ok := q["algos"]; ok {
		for _, name := range strings.Split(v, ",") {
			a, err := classic.Lookup(name)
			if err != nil {
				return badRequest("algos: %v", err)
			}
			if _, ok := classic.LessonOf(a); !ok {
				return badRequest("algos: %s is no classic strategy", name)
			}
			only = append(only, name)
		}
	}
	var out []compareJSON
	for _, a := range classic.All() {
		if _, ok := classic.LessonOf(a); !ok {
			continue // fast is no classic strategy
		}
		if only != nil && !slices.Contains(only, a.Name()) {
			continue
		}
		m, err := classic.Measure(yielding(r.Context()), a, n, compareTimeout)
		if err != nil {
			var se *classic.SizeError
			if errors.As(err, &se) {
				return badRequest("%v", err)
			}
			return err
		}
		row := compareJSON{Algorithm: a.Name(), Status: m.Status}
		if m.Status == "skipped" {
			row.Candidates, row.Estimate = m.Candidates, m.Seconds
			row.Formula = a.(classic.Estimator).Formula()
		} else {
			c := m.Counters
			c.Elapsed = 0
			row.Counters, row.Seconds = &c, m.PerRun.Seconds()
		}
		out = append(out, row)
	}
	return writeJSON(w, http.StatusOK, out)
}

// constructionJSON is the answer of GET /api/construction: how the
// closed-form construction places the queens of the n×n board, in words
// and as its staircases (1-based), so that a page can draw any n exactly.
type constructionJSON struct {
	N    int         `json:"n"`
	Rule string      `json:"rule"`
	Runs []solve.Run `json:"runs"`
}

func (s *Server) handleConstruction(w http.ResponseWriter, r *http.Request) error {
	q, err := query(r, "n")
	if err != nil {
		return err
	}
	n, err := nParam(q, "construction", s.cfg.MaxSolveN)
	if err != nil {
		return err
	}
	p, err := solve.Construct(n)
	if err != nil {
		return badRequest("%v", err)
	}
	out := constructionJSON{N: n, Rule: p.Rule()}
	for _, run := range p.Runs() {
		run.Row++
		run.Col++
		out.Runs = append(out.Runs, run)
	}
	return writeJSON(w, http.StatusOK, out)
}
