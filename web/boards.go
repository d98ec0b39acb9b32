package web

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/complete"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/solve"
)

// contentTypes of the formats a board can be sent in.
var contentTypes = map[board.Format]string{
	board.List:    "text/plain; charset=utf-8",
	board.Grid:    "text/plain; charset=utf-8",
	board.Dots:    "text/plain; charset=utf-8",
	board.Unicode: "text/plain; charset=utf-8",
	board.JSON:    "application/json",
	board.SVG:     "image/svg+xml",
	board.PNG:     "image/png",
}

// formatParam reads an output format; def when absent.
func formatParam(q map[string]string, def board.Format) (board.Format, error) {
	v, ok := q["format"]
	if !ok {
		return def, nil
	}
	f, err := board.ParseFormat(v)
	if err != nil || f == board.Auto {
		return "", errorT(http.StatusBadRequest, "error.param.choice", i18n.Args{"Name": "format", "Value": strconv.Quote(v), "Allowed": formatNames()})
	}
	return f, nil
}

func formatNames() string {
	s := ""
	for i, f := range board.Formats {
		if i > 0 {
			s += ", "
		}
		s += string(f)
	}
	return s
}

// sendBoard writes a board in format f; download names the file for the
// browser to save. Nothing as large as the answer is held in memory: a PNG,
// whose size its pixels bound, is drawn in memory and sent with its length;
// any other format is written straight to the client. With limit > 0 it is
// first written to a counter, which stops at limit bytes: an answer over
// the limit, or a board the format cannot show, is then still a clean JSON
// error, and the answer goes out with its length.
func sendBoard(w http.ResponseWriter, p board.Partial, f board.Format, download string, limit int64) error {
	if max := board.MaxWriteN(f); len(p.Queens) > max {
		return errorT(http.StatusBadRequest, "error.format.large", i18n.Args{"Rows": strconv.Itoa(len(p.Queens)), "Format": string(f), "Max": strconv.Itoa(max)})
	}
	var picture bytes.Buffer
	size := int64(-1)
	switch {
	case f == board.PNG:
		if err := board.WritePartial(&picture, p, f); err != nil {
			return errorOf(http.StatusBadRequest, err)
		}
		size = int64(picture.Len())
	case limit > 0:
		m := &meter{limit: limit}
		err := board.WritePartial(m, p, f)
		if errors.Is(err, errOverLimit) {
			return errorT(http.StatusBadRequest, "error.format.bytes", i18n.Args{"Format": string(f), "Limit": strconv.FormatInt(limit, 10)})
		} else if err != nil {
			return errorOf(http.StatusBadRequest, err)
		}
		size = m.n
	}
	h := w.Header()
	h.Set("Content-Type", contentTypes[f])
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if size >= 0 {
		h.Set("Content-Length", strconv.FormatInt(size, 10))
	}
	if f == board.SVG {
		// An SVG opened on its own must not run anything.
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
	}
	if download != "" {
		ext := string(f)
		if f.IsBoard() || f == board.List {
			ext = "txt"
		}
		h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", download+"."+ext))
	}
	w.WriteHeader(http.StatusOK)
	if f == board.PNG {
		_, err := w.Write(picture.Bytes())
		return err
	}
	return board.WritePartial(w, p, f)
}

// errOverLimit stops a meter at its limit.
var errOverLimit = errors.New("the answer is over the size limit")

// meter counts the bytes written to it and keeps none; past limit it fails.
type meter struct{ n, limit int64 }

func (m *meter) Write(b []byte) (int, error) {
	m.n += int64(len(b))
	if m.n > m.limit {
		return 0, errOverLimit
	}
	return len(b), nil
}

// handleSolve answers GET /api/solve?n=N[&method=construct|random][&seed=S]
// [&format=F][&download=1]: one solution, verified before it is sent. The
// same seed gives the same random board, so the page can show a picture
// and offer the same solution as a file. Cost O(n).
func (s *Server) handleSolve(w http.ResponseWriter, r *http.Request) error {
	q, err := query(r, "n", "method", "seed", "format", "download")
	if err != nil {
		return err
	}
	n, err := nParam(q, "solve", s.cfg.MaxSolveN)
	if err != nil {
		return err
	}
	method, err := choice(q, "method", "construct", "construct", "random")
	if err != nil {
		return err
	}
	seed, err := uintParam(q, "seed", 1)
	if err != nil {
		return err
	}
	if _, ok := q["seed"]; ok && method != "random" {
		return errorT(http.StatusBadRequest, "error.param.with", i18n.Args{"Name": "seed", "With": "method=random"})
	}
	f, err := formatParam(q, board.JSON)
	if err != nil {
		return err
	}
	download, err := choice(q, "download", "0", "0", "1")
	if err != nil {
		return err
	}
	var p board.Placement
	start := time.Now()
	if method == "random" {
		p, err = solve.Random(r.Context(), n, solve.RandomOptions{Seed: seed})
	} else {
		var pat solve.Pattern
		if pat, err = solve.Construct(n); err == nil {
			p = pat.Placement()
		}
	}
	var ns *solve.NoSolutionError
	switch {
	case errors.As(err, &ns):
		return errorOf(http.StatusUnprocessableEntity, err)
	case err != nil:
		return err
	}
	if err := board.Verify(p); err != nil {
		return errorOf(http.StatusInternalServerError, i18n.Wrap(err, "error.internal.solution", i18n.Args{"Method": method}))
	}
	w.Header().Set("X-Solve-Seconds", strconv.FormatFloat(time.Since(start).Seconds(), 'f', 3, 64))
	name := ""
	if download == "1" {
		name = fmt.Sprintf("queens-%d-%s", n, method)
		if method == "random" {
			name += fmt.Sprintf("-seed%d", seed)
		}
	}
	// The solution is verified and its size bounded by MaxSolveN: no
	// error can come up while it is written, and it is not measured first.
	return sendBoard(w, board.Partial{Queens: p}, f, name, 0)
}

// renderRequest is the body of POST /api/render: a board and the format to
// draw it in (default svg).
type renderRequest struct {
	boardRequest
	Output string `json:"output,omitempty"`
}

// handleRender draws a board: GET /api/render?board=TEXT[&input=F][&format=svg|png|…]
// (or queens=2,4,1,3 instead of board)
// or POST /api/render with a board request and "output". Blocked squares
// are drawn; the board need not be a solution. Cost O(n) (O(n²) for the
// text board formats).
func (s *Server) handleRender(w http.ResponseWriter, r *http.Request) error {
	var req renderRequest
	var f board.Format
	if r.Method == http.MethodGet {
		q, err := query(r, "board", "queens", "input", "format")
		if err != nil {
			return err
		}
		b, ok, err := queryBoard(q)
		switch {
		case err != nil:
			return err
		case !ok:
			return errorT(http.StatusBadRequest, "error.param.board", i18n.Args{"Board": "board", "Queens": "queens", "BoardEx": "2 4 1 3", "QueensEx": "2,4,1,3"})
		}
		req.boardRequest = b
		if f, err = formatParam(q, board.SVG); err != nil {
			return err
		}
	} else {
		if err := decodeJSON(r, &req); err != nil {
			return err
		}
		f = board.SVG
		if req.Output != "" {
			var err error
			if f, err = formatParam(map[string]string{"format": req.Output}, board.SVG); err != nil {
				return err
			}
		}
	}
	p, err := req.read("render", s.cfg.MaxRenderN)
	if err != nil {
		return err
	}
	return sendBoard(w, p, f, "", s.cfg.MaxRenderBytes)
}

// queryBoard reads the board of a GET request: board=TEXT in any input
// format (input=F names it; default auto) or queens=2,4,1,3, 1-based
// columns with 0 for an empty row. ok is false when the query has neither.
func queryBoard(q map[string]string) (b boardRequest, ok bool, err error) {
	text, hasText := q["board"]
	b.Format = q["input"]
	switch queens, hasQueens := q["queens"]; {
	case hasText && hasQueens:
		return b, false, errorT(http.StatusBadRequest, "error.param.both", i18n.Args{"Board": "board", "Queens": "queens"})
	case hasQueens:
		if _, given := q["input"]; given {
			return b, false, errorT(http.StatusBadRequest, "error.param.input.queens", i18n.Args{"Input": "input", "Board": "board", "Queens": "queens"})
		}
		text, b.Format = queens, string(board.List)
	case !hasText:
		if _, given := q["input"]; given {
			return b, false, errorT(http.StatusBadRequest, "error.param.input.none", i18n.Args{"Input": "input", "Board": "board"})
		}
		return b, false, nil
	}
	b.Board = &text
	return b, true, nil
}

type completeRequest struct {
	boardRequest
	// Count asks for the number of completions instead of one of them.
	Count bool   `json:"count,omitempty"`
	Seed  uint64 `json:"seed,omitempty"`
}

// handleComplete completes a partial board: POST /api/complete with a board
// request (queens, 0 for an empty row, and blocked squares), answering one
// completion or exists = false, which is then a proof by exhaustive search;
// with "count" the exact number of completions. A board
// whose queens attack each other or stand on blocked squares is a 422 naming
// the squares. Cost: exponential in the worst case (the problem is
// NP-complete), well under a second for n ≤ 21; bounded by the request
// time limit.
func (s *Server) handleComplete(w http.ResponseWriter, r *http.Request) error {
	var req completeRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	p, err := req.read("complete", s.cfg.MaxCompleteN)
	if err != nil {
		return err
	}
	if err := complete.Validate(p); err != nil {
		return errorOf(http.StatusUnprocessableEntity, err)
	}
	start := time.Now()
	out := complete.None(len(p.Queens))
	opts := complete.Options{Seed: req.Seed}
	if req.Count {
		// Refused at once when it would outlast the request's time limit,
		// rather than holding a job slot until the limit ends it.
		f, err := complete.Plan(r.Context(), p, 100*time.Millisecond)
		if err != nil {
			return completeError(err)
		}
		if limit := s.cfg.RequestTimeout; f.Seconds > limit.Seconds() {
			n := len(p.Queens)
			return errorT(http.StatusUnprocessableEntity, "error.complete.cost", i18n.Args{"N": n, "Time": roughSeconds(f.Seconds),
				"Nodes": strconv.FormatFloat(f.Nodes, 'g', 3, 64), "Limit": limit.String(), "Command": "nqueens complete --count --yes"})
		}
		k, err := complete.Count(r.Context(), p, opts)
		if err != nil {
			return completeError(err)
		}
		out = complete.Counted(len(p.Queens), k)
	} else {
		sol, err := complete.Complete(r.Context(), p, opts)
		switch {
		case errors.Is(err, complete.ErrNoCompletion):
		case err != nil:
			return completeError(err)
		default:
			if err := board.VerifyCompletion(sol, p); err != nil {
				return errorOf(http.StatusInternalServerError, i18n.Wrap(err, "error.internal.completion", nil))
			}
			out = complete.Found(sol)
		}
	}
	out.Seconds = new(time.Since(start).Seconds())
	return writeJSON(w, http.StatusOK, out)
}

func completeError(err error) error {
	var tl *complete.TooLargeError
	if errors.As(err, &tl) {
		return errorOf(http.StatusUnprocessableEntity, err)
	}
	return err
}

// roughSeconds is an estimated time, said in the reader's language: "40
// s", "3 hours", "2.8e+09 years".
type roughSeconds float64

func (t roughSeconds) Localize(p *i18n.Printer) string {
	const day, year = 86400, 365.25 * 86400
	s := float64(t)
	switch {
	case s < 120:
		return p.T("error.time.seconds", i18n.Args{"V": fmt.Sprintf("%.0f", s)})
	case s < 7200:
		return p.T("error.time.minutes", i18n.Args{"V": fmt.Sprintf("%.0f", s/60)})
	case s < 2*day:
		return p.T("error.time.hours", i18n.Args{"V": fmt.Sprintf("%.0f", s/3600)})
	case s < 2*year:
		return p.T("error.time.days", i18n.Args{"V": fmt.Sprintf("%.0f", s/day)})
	}
	return p.T("error.time.years", i18n.Args{"V": fmt.Sprintf("%.3g", s/year)})
}
