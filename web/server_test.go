package web

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/count"
)

// newServer returns a server with cfg (defaults for zero fields) that logs
// nothing, closed at the end of the test.
func newServer(t testing.TB, cfg Config) *Server {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = quietLogger()
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// fuzzedEndpoints read a board from a POST body.
var fuzzedEndpoints = []string{"/api/verify", "/api/render", "/api/complete"}

// do sends one request to h and returns the recorded response.
func do(h http.Handler, method, target, body string) *httptest.ResponseRecorder {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := newRequest(method, target, rd)
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// newRequest is httptest.NewRequest with a loopback Host: a request made
// in the same process is checked as if it came over loopback, and
// httptest's default Host, example.com, is refused.
func newRequest(method, target string, body io.Reader) *http.Request {
	return httptest.NewRequest(method, "http://localhost"+target, body)
}

// wantRequestError sends one request to h and checks that it answers
// status with a JSON error that contains want.
func wantRequestError(t *testing.T, h http.Handler, method, target, body string, status int, want string) {
	t.Helper()
	rec := do(h, method, target, body)
	if rec.Code != status {
		t.Fatalf("status %d, want %d; body %s", rec.Code, status, rec.Body)
	}
	wantError(t, rec, want)
}

// wantError checks that a response is a JSON error containing want.
func wantError(t *testing.T, rec *httptest.ResponseRecorder, want string) {
	t.Helper()
	var e struct{ Error string }
	decode(t, rec, &e)
	if !strings.Contains(e.Error, want) {
		t.Fatalf("error %q, want it to contain %q", e.Error, want)
	}
}

// decode reads a JSON response body into v, failing the test if it is not
// JSON.
func decode(t *testing.T, rec *httptest.ResponseRecorder, v any) {
	t.Helper()
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type = %q, want application/json; body %s", ct, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
		t.Fatalf("body is not JSON: %v: %s", err, rec.Body)
	}
}

// sseEvent is one server-sent event.
type sseEvent struct {
	Name string
	Data string
}

// readEvents reads a whole text/event-stream body.
func readEvents(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	cur := sseEvent{Name: "message"}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Data != "" {
				out = append(out, cur)
			}
			cur = sseEvent{Name: "message"}
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.Data += strings.TrimPrefix(line, "data: ")
		default:
			t.Fatalf("unexpected line in event stream: %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"negative", Config{MaxCountN: -1}, "max count N must not be negative"},
		{"count over engine", Config{MaxCountN: 65}, "max count N = 65 is over what the engine supports (64)"},
		{"trace over engine", Config{MaxTraceN: 100}, "max trace N = 100"},
		{"negative timeout", Config{RequestTimeout: -time.Second}, "request timeout must not be negative"},
		{"negative body", Config{MaxBodyBytes: -1}, "max body bytes must not be negative"},
		{"negative render bytes", Config{MaxRenderBytes: -1}, "max render bytes must not be negative"},
		{"negative slow client", Config{SlowClientTimeout: -1}, "slow client timeout must not be negative"},
		{"host with scheme", Config{AllowedHosts: []string{"http://queens.example"}}, `allowed host "http://queens.example" is not a host name or address`},
		{"host with port", Config{AllowedHosts: []string{"queens.example:8080"}}, "without scheme or port"},
		{"empty host", Config{AllowedHosts: []string{""}}, `allowed host ""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New: %v, want %q", err, tc.want)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	s := newServer(t, Config{})
	got := s.Config()
	got.Logger = nil
	want := DefaultConfig()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Config() = %+v, want defaults %+v", got, want)
	}
}

// TestPageAndStatic serves every file of the page with its type and the
// page's Content-Security-Policy, and checks that none of them loads
// anything from elsewhere.
func TestPageAndStatic(t *testing.T) {
	s := newServer(t, Config{})
	static, err := fs.Sub(staticFiles, "static")
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]string{".html": "text/html", ".js": "javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json"}
	files := 0
	err = fs.WalkDir(static, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		want, err := fs.ReadFile(static, name)
		if err != nil {
			return err
		}
		target := "/" + name
		if name == "index.html" {
			target = "/" // the file server sends /index.html there
		}
		rec := do(s, "GET", target, "")
		if rec.Code != http.StatusOK || rec.Body.String() != string(want) {
			t.Errorf("GET %s: status %d, %d bytes, want the %d of %s", target, rec.Code, rec.Body.Len(), len(want), name)
		}
		if ct, wantType := rec.Header().Get("Content-Type"), types[path.Ext(name)]; wantType == "" || !strings.Contains(ct, wantType) {
			t.Errorf("GET %s: Content-Type %q, want %q", target, ct, wantType)
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("GET %s: Content-Security-Policy %q", target, csp)
		}
		// The SVG namespace is a name, not an address anything loads from.
		text := strings.ReplaceAll(string(want), "http://www.w3.org/2000/svg", "")
		for _, bad := range []string{"http://", "https://", "//cdn"} {
			if path.Ext(name) != ".png" && strings.Contains(text, bad) {
				t.Errorf("%s refers to %q: the page must not load anything from elsewhere", name, bad)
			}
		}
		return nil
	})
	if err != nil || files < 4 {
		t.Fatalf("%d files in static/: %v", files, err)
	}
	if body := do(s, "GET", "/", "").Body.String(); !strings.Contains(body, "<script") {
		t.Errorf("the page has no script")
	}
	if rec := do(s, "GET", "/nope.js", ""); rec.Code != http.StatusNotFound {
		t.Errorf("GET /nope.js: status %d, want 404", rec.Code)
	}
	if rec := do(s, "POST", "/", `{}`); rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: status %d, want 405", rec.Code)
	}
}

// TestErrors checks that every malformed request gets the right status and a
// JSON error saying what is wrong.
func TestErrors(t *testing.T) {
	s := newServer(t, Config{MaxBodyBytes: 200})
	big := `{"queens":[` + strings.Repeat("1,", 200) + `1]}`
	for _, tc := range []struct {
		method, target, body string
		status               int
		want                 string
	}{
		// Routing.
		{"GET", "/api/nope", "", 404, "no such endpoint"},
		{"GET", "/api/verify", "", 405, "method GET is not allowed here (want POST)"},
		{"PUT", "/api/count", "", 405, "want POST"},
		{"POST", "/api/trace?n=4", "", 405, "want GET"},
		{"PATCH", "/api/count/abc", "", 405, "want GET, DELETE"},
		{"GET", "/api/limits?x=1", "", 400, `unknown query parameter "x"`},
		{"GET", "/api/algorithms?x=1", "", 400, `unknown query parameter "x"`},

		// Bodies.
		{"POST", "/api/verify", "", 400, "request body is empty"},
		{"POST", "/api/verify", `{"queens":[1,2`, 400, "ends in the middle"},
		{"POST", "/api/verify", `{"queens":[1,2,]}`, 400, "malformed JSON at byte"},
		{"POST", "/api/verify", `[1,2]`, 400, "must be a JSON object"},
		{"POST", "/api/verify", `{"queens":"1 2"}`, 400, `field "queens" must be an array`},
		{"POST", "/api/verify", `{"queens":[1],"colour":1}`, 400, `unknown field "colour"`},
		{"POST", "/api/verify", `{"queens":[1]} {}`, 400, "more than one JSON value"},
		{"POST", "/api/verify", big, 413, "larger than the limit of 200 bytes"},
		{"POST", "/api/verify", `{}`, 400, "the request needs a board"},
		{"POST", "/api/verify", `{"queens":[]}`, 400, "n = 0 is out of range for verify (1..1000000, the server's limit)"},
		{"POST", "/api/verify", `{"queens":[1,2],"n":3}`, 400, "n = 3 but the board has 2 rows"},
		{"POST", "/api/verify", `{"queens":[99999999999]}`, 400, `field "queens[0]" = 99999999999 is out of range -2147483648..2147483647`},
		{"POST", "/api/verify", `{"queens":[1,3],"blocked":[[3,1]]}`, 400, "blocked[0] = [3, 1] is off the 2×2 board"},
		{"POST", "/api/verify", `{"queens":[1],"format":"list"}`, 400, `"format" applies to "board" text only`},
		{"POST", "/api/count", `{"n":0}`, 400, "n = 0 is out of range for count (1..16, the server's limit)"},
		{"POST", "/api/count", `{"n":17}`, 400, "n = 17 is out of range for count (1..16, the server's limit)"},
		{"POST", "/api/count", `{"n":"8"}`, 400, `field "n" must be a number`},

		// Query parameters.
		{"GET", "/api/trace", "", 400, "query parameter n (the board size) is missing"},
		{"GET", "/api/trace?n=x", "", 400, `n must be a whole number written in digits, got "x"`},
		{"GET", "/api/trace?n=21", "", 400, "n = 21 is out of range for trace (1..20, the server's limit)"},
		{"GET", "/api/trace?n=99999999999999999999", "", 400, "n = 99999999999999999999 is out of range for trace (1..20, the server's limit)"},
		{"GET", "/api/trace?n=-3", "", 400, "n = -3 is out of range for trace (1..20, the server's limit)"},
		{"GET", "/api/trace?n=4&n=5", "", 400, `query parameter "n" is given 2 times`},
		{"GET", "/api/trace?n=4&algo=quick", "", 400, `unknown algorithm "quick"`},
		{"GET", "/api/trace?n=4&algo=fast", "", 400, "algorithm fast cannot be traced (want one of"},
		{"GET", "/api/trace?n=4&limit=0", "", 400, "limit = 0 is out of range 1..200000"},
		{"GET", "/api/trace?n=4&queens=1,0,0", "", 400, "n = 4 but the board has 3 rows"},
		{"GET", "/api/trace?n=4&queens=1,2,0,0", "", 422, "attack each other"},
		{"GET", "/api/trace?n=4&queens=1,0,0,0&board=Q...", "", 400, "not both"},
		{"GET", "/api/trace?n=4&input=dots", "", 400, "there is no board"},
		{"GET", "/api/trace?n=2&board=" + url.QueryEscape(`{"queens":[1,0],"blocked":[[1,1]]}`), "", 422, "blocked"},
		{"GET", "/api/trace?n=4&queens=1,0,0,0&algo=permutations", "", 400, "cannot start from a board (the backtracking strategies can: backtrack-2d,"},
		{"GET", "/api/trace?n=4&limit=200001", "", 400, "limit = 200001 is out of range 1..200000"},
		{"GET", "/api/trace?n=4&speed=2", "", 400, `unknown query parameter "speed"`},
		{"GET", "/api/solutions?n=13", "", 400, "n = 13 is out of range for solutions (1..12, the server's limit)"},
		{"GET", "/api/solutions", "", 400, "query parameter n (the board size) is missing"},

		// Count jobs.
		{"GET", "/api/count/0123", "", 404, `no count job "0123"`},
		{"GET", "/api/count/0123/events", "", 404, `no count job "0123"`},
		{"DELETE", "/api/count/0123", "", 404, `no count job "0123"`},
	} {
		t.Run(tc.method+" "+tc.target+" "+tc.body, func(t *testing.T) {
			wantRequestError(t, s, tc.method, tc.target, tc.body, tc.status, tc.want)
		})
	}
}

func TestContentTypeMustBeJSON(t *testing.T) {
	s := newServer(t, Config{})
	// A form post from another site cannot set application/json without a
	// CORS preflight, so refusing other types blocks cross-site posts.
	req := newRequest("POST", "/api/count", strings.NewReader(`{"n":4}`))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusUnsupportedMediaType {
		t.Fatalf("status %d, want 415: %s", rec.Code, rec.Body)
	}
}

func TestLimitsAndAlgorithms(t *testing.T) {
	s := newServer(t, Config{MaxCountN: 12, MaxJobs: 2})
	var l limitsJSON
	decode(t, do(s, "GET", "/api/limits", ""), &l)
	if l.MaxCountN != 12 || l.MaxJobs != 2 || l.MaxTraceN != 20 || l.RequestTimeout != 60 {
		t.Fatalf("limits %+v", l)
	}
	var algos []algorithmJSON
	decode(t, do(s, "GET", "/api/algorithms", ""), &algos)
	found := map[string]algorithmJSON{}
	for _, a := range algos {
		found[a.Name] = a
	}
	if !found["stack"].Traceable || !found["permutations"].Traceable || found["fast"].Traceable || found["bitmask"].Description == "" {
		t.Fatalf("algorithms %+v", algos)
	}
}

// TestLimitsMirrorConfig: GET /api/limits has a field for each limit of
// Config, of the same name, with its value (durations in seconds), so that
// a new limit cannot be left out of it.
func TestLimitsMirrorConfig(t *testing.T) {
	cfg := Config{MaxTraceN: 11, MaxGalleryN: 9, MaxCountN: 13, MaxSolveN: 1001, MaxRenderN: 1002, MaxCompleteN: 33,
		MaxVerifyN: 1003, MaxTraceEvents: 1004, MaxBodyBytes: 1005, MaxBufferedBytes: 100_000, MaxRenderBytes: 1006, RequestTimeout: 7 * time.Second,
		StreamTimeout: 8 * time.Second, SlowClientTimeout: 9 * time.Second, CompareTimeout: 2 * time.Second, CountTimeout: 10 * time.Second,
		CountIdle: 11 * time.Second, CountWorkers: 3, MaxJobs: 5}
	s := newServer(t, cfg)
	var got map[string]any
	decode(t, do(s, "GET", "/api/limits", ""), &got)
	lt := reflect.TypeFor[limitsJSON]()
	cv := reflect.ValueOf(s.Config())
	for i := range cv.NumField() {
		f := cv.Type().Field(i)
		if f.Name == "Logger" || f.Name == "AllowedHosts" {
			continue
		}
		lf, ok := lt.FieldByName(f.Name)
		if !ok {
			t.Errorf("Config.%s has no field in /api/limits", f.Name)
			continue
		}
		name, _, _ := strings.Cut(lf.Tag.Get("json"), ",")
		want := cv.Field(i).Interface()
		if d, isDuration := want.(time.Duration); isDuration {
			want = d.Seconds()
		}
		if g, ok := got[name]; !ok || fmt.Sprint(g) != fmt.Sprint(want) {
			t.Errorf("/api/limits %s = %v, want Config.%s = %v", name, g, f.Name, want)
		}
		if reflect.ValueOf(want).IsZero() {
			t.Errorf("Config.%s is zero in the test: give it a value to check", f.Name)
		}
	}
	if len(got) != lt.NumField() {
		t.Errorf("/api/limits has %d fields, limitsJSON %d", len(got), lt.NumField())
	}
}

func TestVerify(t *testing.T) {
	s := newServer(t, Config{})
	for _, tc := range []struct {
		body string
		want verifyResponse
	}{
		{`{"queens":[2,4,1,3]}`, verifyResponse{N: 4, OK: true, Queens: new(4)}},
		{`{"n":4,"queens":[2,4,1,3]}`, verifyResponse{N: 4, OK: true, Queens: new(4)}},
		{`{"queens":[2,4,1,4]}`, verifyResponse{N: 4, Queens: new(4),
			Error:   "queens at row 2, column 4 and row 4, column 4 attack each other on the same column",
			Problem: &problemJSON{Kind: "same column", Row: 4, Col: 4, Row2: 2, Col2: 4}}},
		{`{"queens":[1,2,0,0]}`, verifyResponse{N: 4, Queens: new(2),
			Error:   "queens at row 1, column 1 and row 2, column 2 attack each other on the same diagonal",
			Problem: &problemJSON{Kind: "same diagonal", Row: 2, Col: 2, Row2: 1, Col2: 1}}},
		{`{"queens":[2,0,0,0]}`, verifyResponse{N: 4, Queens: new(1),
			Error: "row 2 has no queen", Problem: &problemJSON{Kind: "empty row", Row: 2}}},
		{`{"queens":[2,0,0,0],"partial":true}`, verifyResponse{N: 4, OK: true, Queens: new(1)}},
		{`{"queens":[5,0,0,0],"partial":true}`, verifyResponse{N: 4, Queens: new(1),
			Error: "row 1: column 5 is out of range 1..4", Problem: &problemJSON{Kind: "column out of range", Row: 1, Col: 5}}},
		{`{"queens":[2,4,1,3],"blocked":[[3,1]]}`, verifyResponse{N: 4, Queens: new(4),
			Error: "queen at row 3, column 1 stands on a blocked square", Problem: &problemJSON{Kind: "blocked square", Row: 3, Col: 1}}},
	} {
		t.Run(tc.body, func(t *testing.T) {
			rec := do(s, "POST", "/api/verify", tc.body)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var got verifyResponse
			decode(t, rec, &got)
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(tc.want)
			if string(gj) != string(wj) {
				t.Fatalf("got  %s\nwant %s", gj, wj)
			}
		})
	}
}

func TestSolutions(t *testing.T) {
	s := newServer(t, Config{})
	for n, want := range map[int][2]int{1: {1, 1}, 2: {0, 0}, 3: {0, 0}, 4: {2, 1}, 6: {4, 1}, 8: {92, 12}, 10: {724, 92}} {
		var got solutionsJSON
		decode(t, do(s, "GET", "/api/solutions?n="+itoa(n), ""), &got)
		if got.N != n || got.Total != want[0] || got.Unique != want[1] || len(got.Classes) != want[1] {
			t.Fatalf("n=%d: total %d unique %d classes %d, want %v", n, got.Total, got.Unique, len(got.Classes), want)
		}
		seen := map[string]bool{}
		sum := 0
		for _, c := range got.Classes {
			if len(c.Boards) != c.Size || !equal32(c.Boards[0], c.Canonical) {
				t.Fatalf("n=%d: class %v: orbit %v of size %d", n, c.Canonical, c.Boards, c.Size)
			}
			sum += c.Size
			for _, q := range c.Boards {
				// Every board is a solution, and appears once.
				body, _ := json.Marshal(map[string]any{"queens": q})
				var v verifyResponse
				decode(t, do(s, "POST", "/api/verify", string(body)), &v)
				if !v.OK {
					t.Fatalf("n=%d: %v is not a solution: %s", n, q, v.Error)
				}
				key := string(body)
				if seen[key] {
					t.Fatalf("n=%d: %v listed twice", n, q)
				}
				seen[key] = true
			}
		}
		if sum != got.Total {
			t.Fatalf("n=%d: orbit sizes add up to %d, total %d", n, sum, got.Total)
		}
	}
}

func equal32(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestLimitsCountEngines: /api/limits says which engine counts each N from
// 1 to engine_max_n, in runs that cover them all once, as count.Engine
// decides.
func TestLimitsCountEngines(t *testing.T) {
	s := newServer(t, Config{})
	var got limitsJSON
	decode(t, do(s, "GET", "/api/limits", ""), &got)
	next := 1
	for _, r := range got.CountEngines {
		if r.From != next || r.To < r.From {
			t.Fatalf("count_engines %+v: a run starts at %d, want %d", got.CountEngines, r.From, next)
		}
		for n := r.From; n <= r.To; n++ {
			if count.Engine(n) != r.Engine {
				t.Errorf("count_engines says %s counts N = %d, count.Engine says %s", r.Engine, n, count.Engine(n))
			}
		}
		next = r.To + 1
	}
	if next != got.EngineMaxN+1 || next != count.MaxN+1 {
		t.Errorf("count_engines ends at %d, engine_max_n is %d", next-1, got.EngineMaxN)
	}
}
