package web

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/testkit"
)

// hostileRequest is one request of the hostile test tables, sent as raw
// bytes over a real socket so that nothing in a Go client can tidy it up
// first (a Host header, an escaped path, a huge header).
type hostileRequest struct {
	name   string
	method string
	target string
	header []string // "Name: value" lines; a Host line replaces the default
	body   string
	status int
	want   string // in the JSON error; "" for a success
}

// raw is the request as bytes: the server's own address as Host unless the
// case names one, Content-Length for a body, and Connection: close.
func (h hostileRequest) raw(addr string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\n", h.method, h.target)
	hasHost := false
	for _, line := range h.header {
		hasHost = hasHost || strings.HasPrefix(strings.ToLower(line), "host:")
		b.WriteString(line + "\r\n")
	}
	if !hasHost {
		b.WriteString("Host: " + addr + "\r\n")
	}
	if h.body != "" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(h.body))
	}
	b.WriteString("Connection: close\r\n\r\n" + h.body)
	return b.String()
}

// sendRaw writes raw to addr and reads the answer.
func sendRaw(t *testing.T, addr, raw string) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(testkit.WaitLimit))
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatalf("reading the answer's body: %v", err)
	}
	return res, body
}

// runHostile sends each request to a server with cfg on a loopback socket
// and checks its status and, for an error, that it is JSON naming want.
func runHostile(t *testing.T, cfg Config, cases []hostileRequest) {
	t.Helper()
	s := newServer(t, cfg)
	base, stop := serveLoopback(t, s)
	t.Cleanup(func() { stop() })
	addr := strings.TrimPrefix(base, "http://")
	for _, h := range cases {
		t.Run(h.name, func(t *testing.T) {
			res, body := sendRaw(t, addr, h.raw(addr))
			if res.StatusCode != h.status {
				t.Fatalf("status %d, want %d: %.300s", res.StatusCode, h.status, body)
			}
			if h.want == "" {
				return
			}
			var e struct{ Error string }
			if ct := res.Header.Get("Content-Type"); ct != "application/json" || json.Unmarshal(body, &e) != nil {
				t.Fatalf("not a JSON error (Content-Type %q): %.300s", ct, body)
			}
			if !strings.Contains(e.Error, h.want) {
				t.Fatalf("error %q, want it to contain %q", e.Error, h.want)
			}
		})
	}
}

const jsonType = "Content-Type: application/json"

// TestHostileContentType: a body is JSON only when its media type is
// exactly application/json, in any case, with a UTF-8 charset if any.
func TestHostileContentType(t *testing.T) {
	verify := func(name string, header []string, status int, want string) hostileRequest {
		return hostileRequest{name, "POST", "/api/verify", header, `{"queens":[2,4,1,3]}`, status, want}
	}
	runHostile(t, Config{}, []hostileRequest{
		verify("none", nil, 415, "Content-Type must be application/json; the request has none"),
		verify("jsonx", []string{"Content-Type: application/jsonx"}, 415, `Content-Type must be application/json, got "application/jsonx"`),
		verify("json suffix", []string{"Content-Type: application/json-seq"}, 415, "Content-Type must be application/json"),
		verify("text", []string{"Content-Type: text/plain"}, 415, "Content-Type must be application/json"),
		verify("form", []string{"Content-Type: application/x-www-form-urlencoded"}, 415, "Content-Type must be application/json"),
		verify("malformed", []string{"Content-Type: application/json; charset"}, 415, "Content-Type must be application/json"),
		verify("two types", []string{"Content-Type: application/json, text/plain"}, 415, "Content-Type must be application/json"),
		verify("latin-1", []string{"Content-Type: application/json; charset=iso-8859-1"}, 415, `JSON is UTF-8: charset "iso-8859-1" is not accepted`),
		verify("exact", []string{jsonType}, 200, ""),
		verify("upper case", []string{"Content-Type: Application/JSON"}, 200, ""),
		verify("charset", []string{"Content-Type: application/json; charset=utf-8"}, 200, ""),
		verify("charset upper case", []string{"Content-Type: application/json;charset=UTF-8"}, 200, ""),
		{"count without type", "POST", "/api/count", nil, `{"n":4}`, 415, "Content-Type must be application/json"},
		{"complete jsonx", "POST", "/api/complete", []string{"Content-Type: application/jsonx"}, `{"queens":[0,0,0,0]}`, 415, "Content-Type must be application/json"},
		{"render without type", "POST", "/api/render", nil, `{"queens":[1]}`, 415, "Content-Type must be application/json"},
	})
}

// TestHostileHost: a Host the server does not serve is refused, so that a
// page of another site whose name was rebound to this address cannot read
// the answers (DNS rebinding).
func TestHostileHost(t *testing.T) {
	limits := func(name, host string, status int, want string) hostileRequest {
		h := hostileRequest{name: name, method: "GET", target: "/api/limits", status: status, want: want}
		if host != "" {
			h.header = []string{"Host: " + host}
		}
		return h
	}
	runHostile(t, Config{}, []hostileRequest{
		limits("own address", "", 200, ""),
		limits("loopback", "127.0.0.1", 200, ""),
		limits("localhost", "localhost:8080", 200, ""),
		limits("localhost upper case", "LOCALHOST", 200, ""),
		limits("localhost with a dot", "localhost.", 200, ""),
		limits("ipv6 loopback", "[::1]:8080", 200, ""),
		limits("rebound name", "evil.example", 421, `host "evil.example" is not served here`),
		limits("rebound name with port", "evil.example:8080", 421, "start the server with --allow-host evil.example"),
		limits("localhost suffix", "localhost.evil.example", 421, "is not served here"),
		limits("other address", "192.0.2.1", 421, "is not served here"),
		{"page", "GET", "/", []string{"Host: evil.example"}, "", 421, "is not served here"},
		{"post", "POST", "/api/verify", []string{"Host: evil.example", jsonType}, `{"queens":[1]}`, 421, "is not served here"},
	})
	runHostile(t, Config{AllowedHosts: []string{"Queens.Example"}}, []hostileRequest{
		limits("allowed", "queens.example", 200, ""),
		limits("allowed with port", "QUEENS.example:80", 200, ""),
		limits("loopback still", "localhost", 200, ""),
		limits("not allowed", "kings.example", 421, "is not served here"),
	})
	runHostile(t, Config{AllowedHosts: []string{"*"}}, []hostileRequest{
		limits("any", "anything.example", 200, ""),
	})
}

// TestHostileErrors: errors that the HTTP layer used to answer in plain
// text are JSON with the right status.
func TestHostileErrors(t *testing.T) {
	big := "X-Big: " + strings.Repeat("a", 80<<10)
	runHostile(t, Config{}, []hostileRequest{
		{"bad escape", "GET", "/%ff", nil, "", 400, "not a valid file name"},
		{"bad escape in a folder", "GET", "/a/%ff/b", nil, "", 400, "not a valid file name"},
		{"bad escape in the api", "GET", "/api/%ff", nil, "", 404, "no such endpoint"},
		{"big header", "GET", "/api/limits", []string{big}, "", 431, "request headers are larger than the limit of 65536 bytes"},
		{"big header on the page", "GET", "/", []string{big}, "", 431, "request headers are larger than"},
		{"missing page", "GET", "/nope.js", nil, "", 404, ""},
	})
}

// TestHostileJSON: a body is read as strictly as docs/api.md says, and each
// 400 names the field.
func TestHostileJSON(t *testing.T) {
	post := func(target, body string, status int, want string) hostileRequest {
		return hostileRequest{target + " " + body, "POST", target, []string{jsonType}, body, status, want}
	}
	get := func(target string, status int, want string) hostileRequest {
		return hostileRequest{target, "GET", target, nil, "", status, want}
	}
	runHostile(t, Config{}, []hostileRequest{
		post("/api/verify", `{"queens":[1,3],"blocked":[[1,1,1]]}`, 400, `field "blocked[0]" must be an array of 2 numbers, got 3 values`),
		post("/api/verify", `{"queens":[1,3],"blocked":[[1]]}`, 400, `field "blocked[0]" must be an array of 2 numbers, got 1 value`),
		post("/api/verify", `{"Queens":[2,4,1,3],"N":4}`, 400, `unknown field "Queens" (names are case-sensitive: "queens")`),
		post("/api/verify", `{"queens":[2,4,1,3],"N":4}`, 400, `unknown field "N" (names are case-sensitive: "n")`),
		post("/api/count", `{"N":4}`, 400, `unknown field "N"`),
		post("/api/verify", `{"queens":[2,null,1,3]}`, 400, `field "queens[1]" must be a number, got null`),
		post("/api/verify", `{"queens":null}`, 400, `field "queens" must be an array, got null`),
		post("/api/verify", `{"n":null,"queens":[1]}`, 400, `field "n" must be a number, got null`),
		post("/api/verify", `{"queens":[1],"blocked":[null]}`, 400, `field "blocked[0]" must be an array of 2 numbers, got null`),
		post("/api/verify", `{"queens":[1],"queens":[1]}`, 400, `field "queens" is given twice`),
		post("/api/verify", `{"queens":[1.5]}`, 400, `field "queens[0]" must be a whole number, got 1.5`),
		post("/api/verify", `{"queens":[1e0]}`, 400, `field "queens[0]" must be a whole number, got 1e0`),
		post("/api/verify", `{"queens":[99999999999999999999]}`, 400, `field "queens[0]" = 99999999999999999999 is out of range`),
		post("/api/verify", `{"queens":[[1]]}`, 400, `field "queens[0]" must be a number, got an array`),
		post("/api/verify", `{"queens":[1],"partial":null}`, 400, `field "partial" must be true or false, got null`),
		post("/api/verify", `{"board":null}`, 400, `field "board" must be a string, got null`),
		post("/api/complete", `{"queens":[0,0,0,0],"seed":-1}`, 400, `field "seed" = -1 is out of range 0..18446744073709551615`),
		post("/api/render", `{"queens":[1],"Output":"svg"}`, 400, `unknown field "Output" (names are case-sensitive: "output")`),
		post("/api/verify", `{"queens":[2,4,1,3]}`, 200, ""),
		get("/api/solve?n=%2B8", 400, `n must be a whole number written in digits, got "+8"`),
		get("/api/solve?n=+8", 400, `n must be a whole number written in digits, got " 8"`),
		get("/api/solve?n=%208", 400, `n must be a whole number written in digits, got " 8"`),
		get("/api/solve?n=8%20", 400, `n must be a whole number written in digits, got "8 "`),
		get("/api/solve?n=0x8", 400, `n must be a whole number written in digits, got "0x8"`),
		get("/api/solve?n=", 400, `n must be a whole number written in digits, got ""`),
		get("/api/solve?n=8&method=random&seed=%2B1", 400, `seed must be a whole number`),
		get("/api/trace?n=4&limit=%2B5", 400, `limit must be a whole number written in digits, got "+5"`),
		get("/api/trace?n=4&limit=%205", 400, `limit must be a whole number written in digits, got " 5"`),
		get("/api/solve?n=08", 400, `n must be a whole number written in digits, got "08"`),
		get("/api/solve?n=8&%zz=1", 400, `malformed query "n=8&%zz=1"`),
		get("/api/solve?n=8;format=list", 400, "malformed query"),
		get("/api/solve?n=8", 200, ""),
	})
}
