package web

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRequestBodies posts arbitrary bodies to the endpoints that read a
// board: every answer must be a success or a 4xx with a JSON error, never a
// panic or a 5xx. Seeds: testdata/requests/*.json.
func FuzzRequestBodies(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "requests", "*.json"))
	for _, path := range seeds {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	s, err := New(Config{MaxVerifyN: 1000, MaxCompleteN: 12, MaxRenderN: 1000, Logger: quietLogger()})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(s.Close)
	f.Fuzz(func(t *testing.T, body string) {
		for _, path := range fuzzedEndpoints {
			rec := do(s, "POST", path, body)
			if rec.Code >= 500 {
				t.Fatalf("POST %s %q: status %d: %s", path, body, rec.Code, rec.Body)
			}
			if rec.Code >= 400 {
				var e struct{ Error string }
				if json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Error == "" {
					t.Fatalf("POST %s %q: status %d without a JSON error: %s", path, body, rec.Code, rec.Body)
				}
			} else if rec.Code != http.StatusOK {
				t.Fatalf("POST %s %q: status %d", path, body, rec.Code)
			}
		}
	})
}
