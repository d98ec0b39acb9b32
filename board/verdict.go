package board

import "errors"

// Verdict is the JSON form of one board's check, the one shape of
// `nqueens verify --json` and POST /api/verify (docs/json.md):
//
//	{"line":1,"n":4,"ok":false,"queens":4,"error":"…","problem":{"kind":"same column",…}}
//
// Line is where the board begins in the text read (the API reads one board
// and has none); Cols is given for a board that is not square; Queens is
// how many queens the board holds, unknown (absent) when the text is no
// board or a column is out of every board's range; Malformed marks text
// that is not a board at all.
type Verdict struct {
	Line      int          `json:"line,omitempty"`
	N         int          `json:"n,omitempty"`
	Cols      int          `json:"cols,omitempty"`
	OK        bool         `json:"ok"`
	Queens    *int         `json:"queens,omitempty"`
	Error     string       `json:"error,omitempty"`
	Problem   *ProblemJSON `json:"problem,omitempty"`
	Malformed bool         `json:"malformed,omitempty"`
}

// NewVerdict is the verdict on board p, whose check returned err (nil: p
// passed). A *[Problem] in err becomes the verdict's problem.
func NewVerdict(p Partial, err error) Verdict {
	k := p.Queens.Queens()
	v := Verdict{N: len(p.Queens), OK: err == nil, Queens: &k}
	if w := p.Width(); w != v.N {
		v.Cols = w
	}
	if err != nil {
		v.Error = err.Error()
		v.SetProblem(err)
	}
	return v
}

// SetProblem sets v's problem from the *[Problem] in err, if there is one,
// and reports whether there was.
func (v *Verdict) SetProblem(err error) bool {
	var p *Problem
	if !errors.As(err, &p) {
		return false
	}
	j := p.JSON()
	v.Problem = &j
	return true
}
