package web

import (
	"math"
	"net/http"
	"slices"
	"strconv"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/variant"
)

// boardRequest is a board in a request body, in one of two forms:
//
//	{"queens": [2,4,1,3], "blocked": [[1,1]]}  1-based columns, 0 for an empty row; blocked squares as [row, col], 1-based
//	{"board": "2 4 1 3", "format": "list"}    text in any format that `nqueens verify` reads (format "auto" or omitted: detect)
//
// "n", if given, must equal the board's size.
//
// Queens and blocked squares are decoded as 32-bit numbers, the width of a
// [board.Placement], which the queens then become in place: a body's cost
// once decoded is counted in parseFactor.
type boardRequest struct {
	N       *int       `json:"n,omitempty"`
	Queens  []int32    `json:"queens,omitempty"`
	Blocked [][2]int32 `json:"blocked,omitempty"`
	Board   *string    `json:"board,omitempty"`
	Format  string     `json:"format,omitempty"`
}

// read checks the request's board against the limit for op. Queens are not
// checked against each other: that is the caller's verdict to give.
func (b *boardRequest) read(op string, limit int) (board.Partial, error) {
	var pb board.Partial
	switch {
	case b.Board != nil && (b.Queens != nil || b.Blocked != nil):
		return pb, errorT(http.StatusBadRequest, "error.board.both", nil)
	case b.Board != nil:
		f, err := board.ParseFormat(b.Format)
		if err == nil && f != board.Auto && !slices.Contains(board.InputFormats, f) {
			err = i18n.NewError("error.board.format.read", i18n.Args{"Format": strconv.Quote(b.Format)})
		}
		if err != nil {
			return pb, errorOf(http.StatusBadRequest, i18n.Wrap(err, "error.board.field", i18n.Args{"Field": `"format"`}))
		}
		p, err := board.ParsePartial(*b.Board, f)
		if err != nil {
			return pb, errorOf(http.StatusBadRequest, i18n.Wrap(err, "error.board.field", i18n.Args{"Field": `"board"`}))
		}
		if err := checkN(len(p.Queens), op, limit); err != nil {
			return pb, err
		}
		pb.Queens, pb.Blocked = p.Queens, p.Blocked
	case b.Queens != nil:
		if b.Format != "" {
			return pb, errorT(http.StatusBadRequest, "error.board.format.only", nil)
		}
		n := len(b.Queens)
		if err := checkN(n, op, limit); err != nil {
			return pb, err
		}
		for i, c := range b.Queens {
			// Columns out of 1..n are a verdict of board.Check, but they
			// must stay in the int32 of a Placement once made 0-based.
			if c == math.MinInt32 {
				return pb, errorT(http.StatusBadRequest, "error.param.range", i18n.Args{"Name": "queens[" + strconv.Itoa(i) + "]", "Value": strconv.Itoa(int(c)), "Lo": "0", "Hi": strconv.Itoa(n)})
			}
		}
		for i, sq := range b.Blocked {
			if sq[0] < 1 || int(sq[0]) > n || sq[1] < 1 || int(sq[1]) > n {
				return pb, errorT(http.StatusBadRequest, "error.board.blocked", i18n.Args{"I": strconv.Itoa(i), "Row": strconv.Itoa(int(sq[0])), "Col": strconv.Itoa(int(sq[1])), "N": strconv.Itoa(n)})
			}
		}
		// The columns become 0-based in place: the request keeps no copy.
		pb.Queens = board.Placement(b.Queens)
		for i := range pb.Queens {
			pb.Queens[i]--
		}
		b.Queens = nil
		if len(b.Blocked) > 0 {
			pb.Blocked = make([]board.Square, len(b.Blocked))
			for i, sq := range b.Blocked {
				pb.Blocked[i] = board.Square{Row: int(sq[0] - 1), Col: int(sq[1] - 1)}
			}
			b.Blocked = nil
		}
	default:
		return pb, errorT(http.StatusBadRequest, "error.board.none", nil)
	}
	if b.N != nil && *b.N != len(pb.Queens) {
		return pb, errorT(http.StatusBadRequest, "error.board.rows", i18n.Args{"N": strconv.Itoa(*b.N), "Rows": strconv.Itoa(len(pb.Queens))})
	}
	return pb, nil
}

type verifyRequest struct {
	boardRequest
	// Partial accepts empty rows: the board need only be free of attacks.
	Partial bool `json:"partial,omitempty"`
	// Torus and Super check by a variant's rules, as verify's --torus and
	// --super do: diagonals (and knight moves) wrap round the edges;
	// superqueens also attack as a knight.
	Torus bool `json:"torus,omitempty"`
	Super bool `json:"super,omitempty"`
}

// problemJSON says why a board is not a solution, in the one JSON form
// board defines for every command and endpoint.
type problemJSON = board.ProblemJSON

// verifyResponse is the verdict, in the one shape of verify --json.
type verifyResponse = board.Verdict

// handleVerify says whether the board is a solution (or, with "partial",
// a board without attacks) and exactly why not. Cost O(n).
func (s *Server) handleVerify(w http.ResponseWriter, r *http.Request) error {
	var req verifyRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	pb, err := req.read("verify", s.cfg.MaxVerifyN)
	if err != nil {
		return err
	}
	check := pb.Verify
	if req.Partial {
		check = pb.Check
	}
	if req.Torus || req.Super {
		if len(pb.Queens) > variant.MaxSide {
			return errorT(http.StatusBadRequest, "error.board.variants", i18n.Args{"Rows": strconv.Itoa(len(pb.Queens)), "Max": strconv.Itoa(variant.MaxSide)})
		}
		piece := variant.Queen
		if req.Super {
			piece = variant.Superqueen
		}
		check = func() error { return variant.CheckBoard(pb, req.Torus, piece, !req.Partial) }
	}
	err = check()
	out := board.NewVerdict(pb, err)
	if err != nil && out.Problem == nil {
		return errorOf(http.StatusBadRequest, err) // read refuses all else that Verify checks
	}
	if err != nil {
		out.Error = i18n.Ctx(r.Context()).Err(err) // a *board.Problem: in the request's language
	}
	return writeJSON(w, http.StatusOK, out)
}
