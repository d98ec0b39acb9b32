package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

var (
	hanRun = regexp.MustCompile(`\p{Han}`)
	// words are the runs of letters of a Chinese sentence that are no
	// variable of the pseudocode.
	words     = regexp.MustCompile(`[A-Za-z]{2,}`)
	codeNames = map[string]bool{"cols": true, "ld": true, "rd": true, "free": true, "all": true, "queens": true,
		"grid": true, "diag": true, "anti": true, "row": true, "col": true}
)

// chinese reports whether s reads as Chinese: Han characters, and no
// English word.
func chinese(s string) bool {
	for _, w := range words.FindAllString(s, -1) {
		if !codeNames[w] {
			return false
		}
	}
	return hanRun.MatchString(s)
}

// traceTexts are the text fields of the trace stream of target, with the
// request's Accept-Language header.
func traceTexts(t *testing.T, s http.Handler, target, accept string) []string {
	t.Helper()
	req := newRequest(http.MethodGet, target, nil)
	if accept != "" {
		req.Header.Set("Accept-Language", accept)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Header().Get("Vary"), "Accept-Language") {
		t.Fatalf("%s: %d, Vary %q: %s", target, rec.Code, rec.Header().Values("Vary"), rec.Body.String())
	}
	var texts []string
	for _, ev := range readEvents(t, rec.Body) {
		if ev.Name != "message" {
			continue
		}
		var e struct{ Text string }
		if err := json.Unmarshal([]byte(ev.Data), &e); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, e.Text)
	}
	return texts
}

// TestTraceLang: /api/trace?lang=zh, or Accept-Language: zh-CN without
// lang, gives the step sentences in Chinese; ?lang=en wins over the
// header; the events are the same in every language but for their text.
func TestTraceLang(t *testing.T) {
	s := newServer(t, Config{})
	en := traceTexts(t, s, "/api/trace?n=6&algo=bitmask", "")
	zh := traceTexts(t, s, "/api/trace?n=6&algo=bitmask&lang=zh", "")
	byHeader := traceTexts(t, s, "/api/trace?n=6&algo=bitmask", "zh-CN,zh;q=0.9,en;q=0.8")
	forced := traceTexts(t, s, "/api/trace?n=6&algo=bitmask&lang=en", "zh-CN")
	if len(en) < 100 || len(zh) != len(en) || strings.Join(byHeader, "\n") != strings.Join(zh, "\n") ||
		strings.Join(forced, "\n") != strings.Join(en, "\n") {
		t.Fatalf("%d English events, %d Chinese, %d by the header, %d forced", len(en), len(zh), len(byHeader), len(forced))
	}
	for i, text := range zh {
		if !chinese(text) || chinese(en[i]) {
			t.Fatalf("step %d: %q in Chinese, %q in English", i+1, text, en[i])
		}
	}
	if last := zh[len(zh)-1]; !strings.Contains(last, "搜索结束：共找到 4 个解") {
		t.Errorf("the last step: %q", last)
	}
	// The compact form carries the same sentences.
	compact := do(s, http.MethodGet, "/api/trace?n=6&algo=stack&form=compact&lang=zh", "")
	if !strings.Contains(compact.Body.String(), "搜索结束：共找到 ") {
		t.Errorf("compact trace in Chinese: %.300s", compact.Body.String())
	}
}

// TestProseLang: the lessons, descriptions, the construction's rule and
// the errors follow lang; keys and codes do not.
func TestProseLang(t *testing.T) {
	s := newServer(t, Config{})
	for _, lang := range []string{"en", "zh"} {
		var algos []struct {
			Name, Description, Title, Summary string
			Pseudocode                        []string
		}
		decode(t, do(s, http.MethodGet, "/api/algorithms?lang="+lang, ""), &algos)
		for _, a := range algos {
			if chinese(a.Description) != (lang == "zh") || a.Title != "" && chinese(a.Title+a.Summary) != (lang == "zh") {
				t.Errorf("%s %s: %q, %q, %q", lang, a.Name, a.Description, a.Title, a.Summary)
			}
		}
		var c struct{ Rule string }
		decode(t, do(s, http.MethodGet, "/api/construction?n=8&lang="+lang, ""), &c)
		if hanRun.MatchString(c.Rule) != (lang == "zh") {
			t.Errorf("%s: rule %q", lang, c.Rule)
		}
	}
	var v struct{ Error string }
	decode(t, do(s, http.MethodPost, "/api/verify?lang=zh", `{"queens":[1,2,3,4]}`), &v)
	if v.Error != "第 1 行第 1 列和第 2 行第 2 列的皇后在同一条 ↘ 主对角线上，互相攻击" {
		t.Errorf("verify in Chinese: %q", v.Error)
	}
	for _, tc := range []struct {
		target string
		status int
		want   string
	}{
		{"/api/trace?n=99&lang=zh", http.StatusBadRequest, "n = 99 超出了 trace 接受的范围（1..20，这是本服务器的限制）"},
		{"/api/trace?n=99", http.StatusBadRequest, "n = 99 is out of range for trace (1..20, the server's limit)"},
		{"/api/trace?n=4&algo=fast&lang=zh", http.StatusBadRequest, "算法 fast 不能逐步演示"},
		{"/api/trace?n=4&algo=nope&lang=zh", http.StatusBadRequest, `没有名为 "nope" 的算法`},
		{"/api/nothing?lang=zh", http.StatusNotFound, "没有这个接口"},
		{"/api/trace?n=4&lang=fr", http.StatusBadRequest, `lang = "fr" is not one of en, zh`},
		{"/api/trace?n=4&lang=zh&lang=en", http.StatusBadRequest, `query parameter "lang" is given 2 times`},
		{"/api/trace?n=4&lang=zh&bogus=1", http.StatusBadRequest, `未知的查询参数 "bogus"`},
	} {
		rec := do(s, http.MethodGet, tc.target, "")
		if rec.Code != tc.status {
			t.Errorf("%s: %d, want %d", tc.target, rec.Code, tc.status)
		}
		wantError(t, rec, tc.want)
	}
}

// TestBodyErrorsLang: the errors of a request's body and host are said in
// the request's language.
func TestBodyErrorsLang(t *testing.T) {
	s := newServer(t, Config{})
	for _, tc := range []struct {
		body, want string
	}{
		{"", "请求体为空；需要一个 JSON 对象"},
		{`{"queens":[1,2`, "请求体在 JSON 对象的中间就结束了"},
		{`{"queens":[1]} {}`, "请求体中有不止一个 JSON 值"},
	} {
		rec := do(s, http.MethodPost, "/api/verify?lang=zh", tc.body)
		if rec.Code != http.StatusBadRequest {
			t.Errorf("%q: status %d", tc.body, rec.Code)
		}
		wantError(t, rec, tc.want)
	}
	req := newRequest(http.MethodGet, "/api/trace?n=4&lang=zh", nil)
	req.Host = "elsewhere.example"
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	wantError(t, rec, `这里不为主机 "elsewhere.example" 提供服务`)
}

// apiNames are the field and parameter names, values and formats that an
// API error names as code, in every language.
var apiNames = map[string]bool{"queens": true, "board": true, "blocked": true, "format": true, "input": true,
	"algos": true, "seed": true, "method": true, "random": true, "list": true, "json": true, "svg": true,
	"png": true, "grid": true, "dots": true, "auto": true, "JSON": true, "null": true, "true": true,
	"false": true, "partial": true, "super": true}

// codeParts are the quoted names and values of an error, and the list of
// what it allows.
var codeParts = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|可选：[^）]*）`)

// TestFieldErrorsLang: each bad request's error is said in the request's
// language: with ?lang=zh in Chinese, no English word but the names and
// values of code; in English as before.
func TestFieldErrorsLang(t *testing.T) {
	s := newServer(t, Config{})
	for _, tc := range []struct {
		method, target, body string
		en                   string // part of the English error
	}{
		{"POST", "/api/verify", `[1,2]`, "request body must be a JSON object, got an array"},
		{"POST", "/api/verify", `{"queens":"1 2"}`, `field "queens" must be an array, got a string`},
		{"POST", "/api/verify", `{"queens":[null]}`, `field "queens[0]" must be a number, got null`},
		{"POST", "/api/verify", `{"partial":1}`, `field "partial" must be true or false, got a number`},
		{"POST", "/api/verify", `{"Queens":[1]}`, `unknown field "Queens" (names are case-sensitive: "queens")`},
		{"POST", "/api/verify", `{"xyz":1}`, `unknown field "xyz"`},
		{"POST", "/api/verify", `{"queens":[1],"queens":[1]}`, `field "queens" is given twice`},
		{"POST", "/api/verify", `{"blocked":[[1]],"queens":[1]}`, `field "blocked[0]" must be an array of 2 numbers, got 1 value`},
		{"POST", "/api/verify", `{"blocked":[[1,"a"]],"queens":[1]}`, `field "blocked[0][1]" must be a number, got a string`},
		{"POST", "/api/verify", `{"queens":[1.5]}`, `field "queens[0]" must be a whole number, got 1.5`},
		{"POST", "/api/verify", `{"queens":[99999999999]}`, `field "queens[0]" = 99999999999 is out of range -2147483648..2147483647`},
		{"POST", "/api/verify", `{"queens":[-2147483648]}`, "queens[0] = -2147483648 is out of range 0..1"},
		{"POST", "/api/verify", `{"queens":[1],"board":"1"}`, `give the board either as "board" text or as "queens"`},
		{"POST", "/api/verify", `{"board":"1","format":"svg"}`, `"format": format "svg" cannot be read`},
		{"POST", "/api/verify", `{"queens":[1],"format":"list"}`, `"format" applies to "board" text only`},
		{"POST", "/api/verify", `{"queens":[1],"blocked":[[3,1]]}`, "blocked[0] = [3, 1] is off the 1×1 board (rows and columns are 1..1)"},
		{"POST", "/api/verify", `{}`, `the request needs a board: "queens"`},
		{"POST", "/api/verify", `{"queens":[1],"n":2}`, "n = 2 but the board has 1 rows"},
		{"POST", "/api/verify", `{"queens":[1,0],"partial":true,"torus":true,"blocked":[[1,1]],"n":2,"super":1}`, `field "super" must be true or false, got a number`},
		{"GET", "/api/render?queens=1&board=1", "", "give either board (text) or queens (1-based columns), not both"},
		{"GET", "/api/render?queens=1&input=list", "", "input names the format of board text; queens is always a list"},
		{"GET", "/api/render?input=list", "", "input names the format of board text, and there is no board"},
		{"GET", "/api/render", "", "query parameter board (the board as text, such as 2 4 1 3) or queens (such as 2,4,1,3) is missing"},
		{"GET", "/api/render?queens=1&format=xyz", "", `format = "xyz" is not one of`},
		{"GET", "/api/solve?n=8&seed=3", "", "seed goes with method=random"},
		{"GET", "/api/solve?n=8&method=random&seed=abc", "", `seed must be a whole number from 0 to 18446744073709551615, got "abc"`},
		{"GET", "/api/compare?n=4&algos=nope", "", "algos: "},
		{"GET", "/%ff", "", `the path "/\xff" is not a valid file name`},
	} {
		for _, lang := range []string{"en", "zh"} {
			target := tc.target + "?lang=" + lang
			if strings.Contains(tc.target, "?") {
				target = tc.target + "&lang=" + lang
			}
			rec := do(s, tc.method, target, tc.body)
			if rec.Code < 400 || rec.Code >= 500 {
				t.Errorf("%s %s %s: status %d", tc.method, target, tc.body, rec.Code)
			}
			var e struct{ Error string }
			decode(t, rec, &e)
			if lang == "en" {
				if !strings.Contains(e.Error, tc.en) {
					t.Errorf("%s %s %s: error %q, want it to contain %q", tc.method, target, tc.body, e.Error, tc.en)
				}
				continue
			}
			for _, w := range words.FindAllString(codeParts.ReplaceAllString(e.Error, ""), -1) {
				if !apiNames[w] && !codeNames[w] {
					t.Errorf("%s %s %s: %q in %q", tc.method, target, tc.body, w, e.Error)
					break
				}
			}
			if !hanRun.MatchString(e.Error) {
				t.Errorf("%s %s %s: no Chinese in %q", tc.method, target, tc.body, e.Error)
			}
		}
	}
}
