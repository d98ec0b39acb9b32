package web

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// TestEveryEndpointErrors sends each error that any endpoint can get to
// every endpoint the server registers: a method it does not take (405 with
// Allow), and for those that read a body one over the size limit (413), of
// another content type (415), an empty one and one that cannot be read
// (400). Every answer is a JSON error.
func TestEveryEndpointErrors(t *testing.T) {
	s := newServer(t, Config{MaxBodyBytes: 64})
	paths := make([]string, 0, len(s.allowed))
	for p := range s.allowed {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	if len(paths) < 9 {
		t.Fatalf("only %d API paths registered: %v", len(paths), paths)
	}
	for _, path := range paths {
		target := strings.ReplaceAll(path, "{id}", "0123456789abcdef")
		methods := s.allowed[path]
		t.Run("405 "+path, func(t *testing.T) {
			rec := do(s, http.MethodPatch, target, "")
			if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != strings.Join(methods, ", ") {
				t.Fatalf("PATCH: status %d, Allow %q, want 405 and %q", rec.Code, rec.Header().Get("Allow"), strings.Join(methods, ", "))
			}
			wantError(t, rec, "method PATCH is not allowed here (want "+strings.Join(methods, ", ")+")")
		})
		if !slices.Contains(methods, http.MethodPost) {
			continue
		}
		for _, tc := range []struct {
			name        string
			contentType string
			body        string
			status      int
			want        string
		}{
			{"too large", "application/json", `{"queens":[` + strings.Repeat("0,", 40) + `0]}`, 413, "request body is larger than the limit of 64 bytes"},
			{"form", "application/x-www-form-urlencoded", `n=8`, 415, `Content-Type must be application/json, got "application/x-www-form-urlencoded"`},
			{"empty", "application/json", ``, 400, "request body is empty; want a JSON object"},
			{"unreadable", "application/json", "", 400, "cannot read the request body"},
		} {
			t.Run(tc.name+" "+path, func(t *testing.T) {
				req := newRequest(http.MethodPost, target, strings.NewReader(tc.body))
				if tc.name == "unreadable" {
					req = newRequest(http.MethodPost, target, iotest.ErrReader(iotest.ErrTimeout))
				}
				req.Header.Set("Content-Type", tc.contentType)
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				if rec.Code != tc.status {
					t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body)
				}
				wantError(t, rec, tc.want)
			})
		}
	}
}
