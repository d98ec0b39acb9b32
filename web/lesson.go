package web

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/solve"
)

// maxCompareN is the largest N of /api/compare: at N = 13 the 2-D scan
// alone takes seconds.
const maxCompareN = 12

// handleCompare runs every classic strategy for ?n= (or those of
// ?algos=a,b,…) as `nqueens compare N --timeout T --json` does, T the
// server's CompareTimeout
// (classic.Compare, the rows in the same shape), for the page's cost chart
// and the race's summary.
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
				return errorOf(http.StatusBadRequest, i18n.Wrap(err, "error.board.field", i18n.Args{"Field": "algos"}))
			}
			if _, ok := classic.LessonOf(a); !ok {
				return errorT(http.StatusBadRequest, "error.lesson.classic", i18n.Args{"Field": "algos", "Name": name})
			}
			only = append(only, name)
		}
	}
	var list []classic.Strategy
	for _, a := range classic.All() {
		if _, ok := classic.LessonOf(a); !ok {
			continue // fast is no classic strategy
		}
		if only == nil || slices.Contains(only, a.Name()) {
			list = append(list, a)
		}
	}
	out, err := classic.Compare(yielding(r.Context()), list, n, s.cfg.CompareTimeout)
	if err != nil {
		var se *classic.SizeError
		if errors.As(err, &se) {
			return errorOf(http.StatusBadRequest, err)
		}
		return err
	}
	return writeJSON(w, http.StatusOK, out)
}

// maxListedN is the largest n whose construction /api/construction also
// lists column by column: a board small enough to print and to draw a
// square a queen.
const maxListedN = 64

// constructionJSON is the answer of GET /api/construction: how the
// closed-form construction places the queens of the n×n board, in words
// and as its staircases (1-based), so that a page can draw any n exactly;
// for n ≤ maxListedN also its columns, and those of the other classic
// construction, seed article 000's (solve.ConstructHalf), 1-based.
type constructionJSON struct {
	N    int         `json:"n"`
	Rule string      `json:"rule"`
	Runs []solve.Run `json:"runs"`
	// SameAsArticle says whether article 000's construction gives this
	// very board (it does unless n mod 6 is 2 or 3).
	SameAsArticle bool    `json:"same_as_article"`
	Columns       []int32 `json:"columns,omitempty"`
	Article       []int32 `json:"article,omitempty"`
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
		return errorOf(http.StatusBadRequest, err)
	}
	out := constructionJSON{N: n, Rule: p.RuleIn(i18n.Ctx(r.Context())), SameAsArticle: p.SameAsHalf()}
	for _, run := range p.Runs() {
		run.Row++
		run.Col++
		out.Runs = append(out.Runs, run)
	}
	if n <= maxListedN {
		out.Columns = p.Placement().OneBased()
		a, err := solve.ConstructHalf(n)
		if err != nil {
			return err // the same n as Construct's: cannot fail
		}
		out.Article = a.OneBased()
	}
	return writeJSON(w, http.StatusOK, out)
}
