package complete

import "github.com/nqueens/nqueens/board"

// Answer is the JSON form of an answer of complete, the one shape of
// `nqueens complete --json` (one completion, --all, --count) and POST
// /api/complete (docs/json.md):
//
//	{"n":8,"exists":true,"queens":[1,5,8,6,3,7,2,4]}   a completion (a board, as the board formats read it)
//	{"n":8,"exists":true,"completions":4}              --count
//	{"n":4,"exists":false}                             none: a proof by exhaustive search
//
// The API adds Seconds, the time of its search.
type Answer struct {
	N           int      `json:"n"`
	Exists      bool     `json:"exists"`
	Queens      []int32  `json:"queens,omitempty"`      // the completion, 1-based columns
	Completions *uint64  `json:"completions,omitempty"` // the exact count, even 0
	Seconds     *float64 `json:"seconds,omitempty"`
}

// Found is the answer of a completion sol.
func Found(sol board.Placement) Answer {
	return Answer{N: len(sol), Exists: true, Queens: sol.OneBased()}
}

// None is the answer of a board of n rows that has no completion.
func None(n int) Answer { return Answer{N: n} }

// Counted is the answer of a board of n rows with k completions.
func Counted(n int, k uint64) Answer { return Answer{N: n, Exists: k > 0, Completions: &k} }
