package main

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/web"
)

// TestOneJSONShape: every command with a twin in the API writes the same
// JSON object as its twin answers, field for field and in the same order,
// but for what docs/json.md says differs: verify's line (the API reads one
// board), the API's seconds of a completion, and the times of a count and
// the API's engine of a count.
// verify --json and /api/verify were two types (the API's "queens" was
// missing from the command), complete's completion a board in the command
// and an answer with "exists" in the API (issue 23).
func TestOneJSONShape(t *testing.T) {
	cfg := web.DefaultConfig()
	cfg.Logger = slog.New(slog.DiscardHandler)
	cfg.CountWorkers = 2
	srv, err := web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	api := func(t *testing.T, method, path, body string) string {
		t.Helper()
		req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode/100 != 2 {
			t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, b)
		}
		return strings.TrimSpace(string(b))
	}
	// countResult starts a count job and reads its result event.
	countResult := func(t *testing.T, body string) string {
		t.Helper()
		var job struct{ Events string }
		if err := json.Unmarshal([]byte(api(t, "POST", "/api/count", body)), &job); err != nil {
			t.Fatal(err)
		}
		res, err := ts.Client().Get(ts.URL + job.Events)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for event := ""; sc.Scan(); {
			line := sc.Text()
			if e, ok := strings.CutPrefix(line, "event: "); ok {
				event = e
			} else if data, ok := strings.CutPrefix(line, "data: "); ok && event != "progress" {
				if event != "result" {
					t.Fatalf("%s: %s %s", body, event, data)
				}
				return data
			}
		}
		t.Fatalf("%s: no result", body)
		return ""
	}
	timed := regexp.MustCompile(`,"seconds":[0-9.e+-]+`)
	// The API's count result also names the engine that counted (the
	// page says what its work is), which the command does not.
	timedEngine := regexp.MustCompile(`,"seconds":[0-9.e+-]+|,"engine":"[a-z]+"`)
	for _, tc := range []struct {
		name, stdin string
		args        []string
		api         func(*testing.T) string
		drop        *regexp.Regexp // of the command's line
		dropAPI     *regexp.Regexp // of the API's answer
	}{
		{"verify ok", "2 4 1 3\n", []string{"verify", "--json"},
			func(t *testing.T) string { return api(t, "POST", "/api/verify", `{"queens":[2,4,1,3]}`) }, regexp.MustCompile(`"line":1,`), nil},
		{"verify attack", "2 4 1 4\n", []string{"verify", "--json"},
			func(t *testing.T) string { return api(t, "POST", "/api/verify", `{"queens":[2,4,1,4]}`) }, regexp.MustCompile(`"line":1,`), nil},
		{"verify partial", "2 0 0 0\n", []string{"verify", "--partial", "--json"},
			func(t *testing.T) string { return api(t, "POST", "/api/verify", `{"queens":[2,0,0,0],"partial":true}`) }, regexp.MustCompile(`"line":1,`), nil},
		{"verify torus", "1 3 5 2 4\n", []string{"verify", "--torus", "--json"},
			func(t *testing.T) string { return api(t, "POST", "/api/verify", `{"queens":[1,3,5,2,4],"torus":true}`) }, regexp.MustCompile(`"line":1,`), nil},
		{"complete one", "1 0 0 0 0 0 0 0\n", []string{"complete", "--json"},
			func(t *testing.T) string { return api(t, "POST", "/api/complete", `{"queens":[1,0,0,0,0,0,0,0]}`) }, nil, timed},
		{"complete none", "Q...\n....\n....\n....\n", []string{"complete", "--json"},
			func(t *testing.T) string {
				return api(t, "POST", "/api/complete", `{"board":"Q...\n....\n....\n...."}`)
			}, nil, timed},
		{"complete count", "1 0 0 0 0 0 0 0\n", []string{"complete", "--count", "--json"},
			func(t *testing.T) string {
				return api(t, "POST", "/api/complete", `{"queens":[1,0,0,0,0,0,0,0],"count":true}`)
			}, nil, timed},
		{"solve", "", []string{"solve", "8", "--json"},
			func(t *testing.T) string { return api(t, "GET", "/api/solve?n=8&format=json", "") }, nil, nil},
		{"solve random", "", []string{"solve", "50", "--random", "--seed", "3", "--json"},
			func(t *testing.T) string {
				return api(t, "GET", "/api/solve?n=50&method=random&seed=3&format=json", "")
			}, nil, nil},
		{"show", "2 4 1 3\n", []string{"show", "--json"},
			func(t *testing.T) string { return api(t, "GET", "/api/render?queens=2,4,1,3&format=json", "") }, nil, nil},
		{"count", "", []string{"count", "10", "--workers", "2", "--json"},
			func(t *testing.T) string { return countResult(t, `{"n":10}`) }, timed, timedEngine},
		{"count torus", "", []string{"count", "7", "--torus", "--workers", "2", "--json"},
			func(t *testing.T) string { return countResult(t, `{"n":7,"torus":true}`) }, timed, timedEngine},
		{"count super", "", []string{"count", "10", "--super", "--workers", "2", "--json"},
			func(t *testing.T) string { return countResult(t, `{"n":10,"super":true}`) }, timed, timedEngine},
		{"list unique", "", []string{"list", "6", "--unique", "--json"},
			func(t *testing.T) string {
				// The gallery's classes, as list --unique --json writes
				// them: its "orbit" was the boards, "size" the number.
				var got struct {
					N       int
					Classes []struct {
						Canonical []int `json:"canonical"`
						Orbit     int   `json:"orbit"`
					}
				}
				if err := json.Unmarshal([]byte(api(t, "GET", "/api/solutions?n=6", "")), &got); err != nil {
					t.Fatal(err)
				}
				var b strings.Builder
				for _, c := range got.Classes {
					line, _ := json.Marshal(struct {
						N      int   `json:"n"`
						Queens []int `json:"queens"`
						Orbit  int   `json:"orbit"`
					}{got.N, c.Canonical, c.Orbit})
					b.Write(append(line, '\n'))
				}
				return strings.TrimSpace(b.String())
			}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, out, _ := runCLIIn(tc.stdin, tc.args...)
			cli, got := strings.TrimSpace(out), tc.api(t)
			if tc.drop != nil {
				cli = tc.drop.ReplaceAllString(cli, "")
			}
			if tc.dropAPI != nil {
				got = tc.dropAPI.ReplaceAllString(got, "")
			}
			if cli != got {
				t.Errorf("nqueens %s\n%s\nthe API\n%s", strings.Join(tc.args, " "), cli, got)
			}
		})
	}
}

// TestJSONReadsBack: every board the command writes in JSON reads back as
// a board: list --unique's lines with "orbit" and complete's completions
// with "exists" were "unknown field" to verify and show.
func TestJSONReadsBack(t *testing.T) {
	for _, tc := range []struct {
		stdin string
		args  []string
		lines int
	}{
		{"", []string{"list", "6", "--unique", "--json"}, 1},
		{"", []string{"list", "10", "--super", "--unique", "--json"}, 1},
		{"", []string{"list", "8", "--json"}, 92},
		{"1 0 0 0 0 0 0 0\n", []string{"complete", "--json"}, 1},
		{"1 0 0 0 0 0 0 0\n", []string{"complete", "--all", "--json"}, 4},
		{"", []string{"solve", "9", "--json"}, 1},
	} {
		code, out, errOut := runCLIIn(tc.stdin, tc.args...)
		if code != 0 || strings.Count(out, "\n") != tc.lines {
			t.Fatalf("%v: exit %d, %q %s", tc.args, code, out, errOut)
		}
		verify := []string{"verify"}
		if slices.Contains(tc.args, "--super") {
			verify = append(verify, "--super")
		}
		if code, got, errOut := runCLIIn(out, verify...); code != 0 || strings.Count(got, "ok\n") != tc.lines {
			t.Errorf("%v | verify: exit %d, %q %s", tc.args, code, got, errOut)
		}
		if code, _, errOut := runCLIIn(out, "show", "--format", "list"); code != 0 {
			t.Errorf("%v | show: exit %d, %s", tc.args, code, errOut)
		}
	}
}
