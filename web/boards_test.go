package web

import (
	"bytes"
	"encoding/json"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/complete"
	"github.com/nqueens/nqueens/solve"
)

func TestSolveEndpoint(t *testing.T) {
	s := newServer(t, Config{MaxSolveN: 100_000})
	// Construction and random, verified on our side too.
	for _, target := range []string{"/api/solve?n=8", "/api/solve?n=1000&method=random&seed=3", "/api/solve?n=100000&format=json"} {
		rec := do(s, http.MethodGet, target, "")
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", target, rec.Code, rec.Body)
		}
		p, err := board.Parse(rec.Body.String(), board.JSON)
		if err != nil || board.Verify(p) != nil {
			t.Fatalf("%s: %v %v", target, err, board.Verify(p))
		}
	}
	// The same seed gives the same board in every format.
	rec := do(s, http.MethodGet, "/api/solve?n=50&method=random&seed=9&format=list&download=1", "")
	want, _ := solve.Random(t.Context(), 50, solve.RandomOptions{Seed: 9})
	if got := strings.TrimSpace(rec.Body.String()); got != want.String() {
		t.Errorf("list %q, want %q", got, want)
	}
	if cd := rec.Header().Get("Content-Disposition"); cd != `attachment; filename="queens-50-random-seed9.txt"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	// Over 1000 rows a picture is downsampled. (A small N: encoding a PNG
	// takes seconds under the race detector.)
	rec = do(s, http.MethodGet, "/api/solve?n=1500&format=png", "")
	img, err := png.Decode(rec.Body)
	if err != nil || rec.Header().Get("Content-Type") != "image/png" || img.Bounds().Dx() > 1024 {
		t.Errorf("png: %v %v", err, rec.Header())
	}
	rec = do(s, http.MethodGet, "/api/solve?n=12&format=svg", "")
	if ct := rec.Header().Get("Content-Type"); ct != "image/svg+xml" || !strings.Contains(rec.Body.String(), "<svg") {
		t.Errorf("svg: %s", ct)
	}
}

func TestRenderEndpoint(t *testing.T) {
	s := newServer(t, Config{})
	for _, target := range []string{"/api/render?queens=2,4,1,3", "/api/render?board=.Q..%0A...Q%0AQ...%0A..Q.", "/api/render?board=2+4+1+3&input=list&format=svg"} {
		rec := do(s, http.MethodGet, target, "")
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "4×4 board, 4 queens") {
			t.Errorf("%s: %d %.200s", target, rec.Code, rec.Body)
		}
	}
	rec := do(s, http.MethodPost, "/api/render", `{"queens":[2,0,0,3],"blocked":[[2,1]],"output":"dots"}`)
	if rec.Code != http.StatusOK || rec.Body.String() != ".Q..\nx...\n....\n..Q.\n" {
		t.Errorf("POST dots: %d %q", rec.Code, rec.Body)
	}
	rec = do(s, http.MethodPost, "/api/render", `{"board":"1 3 5 2 4","output":"png"}`)
	if _, err := png.Decode(bytes.NewReader(rec.Body.Bytes())); err != nil {
		t.Errorf("POST png: %v", err)
	}
}

func TestCompleteEndpoint(t *testing.T) {
	s := newServer(t, Config{})
	var out complete.Answer
	rec := do(s, http.MethodPost, "/api/complete", `{"queens":[1,0,0,0,0,0,0,0]}`)
	decode(t, rec, &out)
	p := board.FromOneBased(toInts(out.Queens)...)
	if !out.Exists || board.Verify(p) != nil || p[0] != 0 {
		t.Errorf("completion %+v", out)
	}
	rec = do(s, http.MethodPost, "/api/complete", `{"board":"Q...\n....\n....\n....\n"}`)
	out = complete.Answer{}
	decode(t, rec, &out)
	if out.Exists || out.N != 4 {
		t.Errorf("corner queen on 4×4: %+v", out)
	}
	// count agrees with the library.
	rec = do(s, http.MethodPost, "/api/complete", `{"queens":[0,0,0,0,0,0,0,0,0,0],"blocked":[[1,1],[5,5]],"count":true}`)
	out = complete.Answer{}
	decode(t, rec, &out)
	want, _ := complete.Count(t.Context(), board.Partial{Queens: board.New(10), Blocked: []board.Square{{Row: 0, Col: 0}, {Row: 4, Col: 4}}}, complete.Options{})
	if out.Completions == nil || *out.Completions != want || !out.Exists {
		t.Errorf("count %+v, want %d", out, want)
	}
}

func toInts(v []int32) []int {
	out := make([]int, len(v))
	for i, c := range v {
		out[i] = int(c)
	}
	return out
}

// TestBoardEndpointErrors: every bad request gets its status and a JSON
// error saying what is wrong.
func TestBoardEndpointErrors(t *testing.T) {
	s := newServer(t, Config{MaxSolveN: 1000, MaxCompleteN: 30})
	tests := []struct {
		method, target, body string
		code                 int
		msg                  string
	}{
		{"GET", "/api/solve", "", 400, "query parameter n (the board size) is missing"},
		{"GET", "/api/solve?n=abc", "", 400, `n must be a whole number written in digits, got "abc"`},
		{"GET", "/api/solve?n=1001", "", 400, "n = 1001 is out of range for solve (1..1000, the server's limit)"},
		{"GET", "/api/solve?n=3", "", 422, "no solution for n = 3"},
		{"GET", "/api/solve?n=8&method=magic", "", 400, `method = "magic" is not one of construct, random`},
		{"GET", "/api/solve?n=8&seed=4", "", 400, "seed goes with method=random"},
		{"GET", "/api/solve?n=8&format=bmp", "", 400, `format = "bmp" is not one of`},
		{"GET", "/api/solve?n=8&colour=red", "", 400, `unknown query parameter "colour"`},
		{"GET", "/api/solve?n=1000&format=unicode", "", 200, ""},
		{"POST", "/api/solve?n=8", "{}", 405, "method POST is not allowed here (want GET)"},
		{"GET", "/api/render", "", 400, "query parameter board"},
		{"GET", "/api/render?board=2+4+z+3", "", 400, `"z" is not a column number`},
		{"GET", "/api/render?board=1&queens=1", "", 400, "not both"},
		{"GET", "/api/render?queens=1,2&input=dots", "", 400, "queens is always a list"},
		{"GET", "/api/render?board=2+4+1+3&input=svg", "", 400, `format "svg" cannot be read`},
		{"POST", "/api/render", `{"board":"2 4 1 3","output":"gif"}`, 400, `format = "gif" is not one of`},
		{"POST", "/api/render", `{"queens":[1,2],"blocked":[[1,1]],"output":"list"}`, 400, "cannot show blocked squares"},
		{"POST", "/api/complete", `{"queens":[1,2,0,0]}`, 422, "queens at row 1, column 1 and row 2, column 2 attack each other"},
		{"POST", "/api/complete", `{"queens":[2,0,0,0],"blocked":[[1,2]]}`, 422, "stands on a blocked square"},
		{"POST", "/api/complete", `{"queens":[0,0,0,0],"blocked":[[5,1]]}`, 400, "off the 4×4 board"},
		{"POST", "/api/complete", `{"board":"` + strings.Repeat("0 ", 31) + `"}`, 400, "1..30, the server's limit"},
		{"POST", "/api/complete", `{"board":"2 4 1 3","queens":[1]}`, 400, "not both"},
		{"POST", "/api/complete", `{"queens":[0,0],"count":"yes"}`, 400, "count"},
		{"POST", "/api/complete", `{}`, 400, "the request needs a board"},
		{"GET", "/api/complete", "", 405, "want POST"},
		// A count beyond the request limit is refused at once, not left to
		// hold a job slot for the limit's time.
		{"POST", "/api/complete", `{"board":"` + strings.Repeat("0 ", 30) + `","count":true}`, 422, "counting the completions of this 30×30 board would take about"},
		{"POST", "/api/complete", `{"board":"` + strings.Repeat("0 ", 30) + `","count":true}`, 422, "beyond this server's limit of 1m0s a request; nqueens complete --count --yes counts it on your machine"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target, func(t *testing.T) {
			rec := do(s, tt.method, tt.target, tt.body)
			if rec.Code != tt.code {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.code, rec.Body)
			}
			if tt.msg == "" {
				return
			}
			var e struct{ Error string }
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || !strings.Contains(e.Error, tt.msg) {
				t.Fatalf("error %q (%v), want one containing %q", rec.Body, err, tt.msg)
			}
		})
	}
}
