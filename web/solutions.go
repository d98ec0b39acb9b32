package web

import (
	"net/http"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/solve"
)

// classJSON is one symmetry class: its canonical board (the smallest of the
// orbit), the size of its orbit (a number, as list --unique --json's
// "orbit") and every board of the orbit, canonical one included, 1-based.
type classJSON struct {
	Canonical []int32   `json:"canonical"`
	Size      int       `json:"orbit"`
	Boards    [][]int32 `json:"boards"`
}

type solutionsJSON struct {
	N       int         `json:"n"`
	Total   int         `json:"total"`
	Unique  int         `json:"unique"`
	Classes []classJSON `json:"classes"`
}

// handleSolutions lists every solution of the ?n= board grouped by symmetry
// class, classes in the lexicographic order of their canonical boards.
// Cost: the enumeration (14,200 solutions for n = 12, about 40 ms) and
// 8 images per class.
func (s *Server) handleSolutions(w http.ResponseWriter, r *http.Request) error {
	q, err := query(r, "n")
	if err != nil {
		return err
	}
	n, err := nParam(q, "solutions", s.cfg.MaxGalleryN)
	if err != nil {
		return err
	}
	out := solutionsJSON{N: n, Classes: []classJSON{}}
	for class, err := range solve.Unique(n) {
		if err != nil {
			return err // n was checked against MaxGalleryN: cannot happen
		}
		p, size := class.Canonical, class.Size
		if err := r.Context().Err(); err != nil {
			return err
		}
		orbit, err := board.Orbit(p)
		if err != nil {
			return err // impossible for a solution: one queen a column
		}
		c := classJSON{Canonical: p.OneBased(), Size: size, Boards: make([][]int32, len(orbit))}
		for i, o := range orbit {
			c.Boards[i] = o.OneBased()
		}
		out.Classes = append(out.Classes, c)
		out.Total += size
		out.Unique++
	}
	return writeJSON(w, http.StatusOK, out)
}
