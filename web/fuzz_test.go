package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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

// FuzzDecodeJSON cross-checks decodeJSON, one pass over the tokens, with
// encoding/json: a body that decodeJSON accepts decodes to the same request
// through json.Unmarshal, and one it refuses gets a 400 that says why.
// Seeds: testdata/requests/*.json.
func FuzzDecodeJSON(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "requests", "*.json"))
	for _, path := range seeds {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, s := range []string{`{"queens":[1,2],"queens":[3]}`, `{"blocked":[[1,2,3]]}`, `{"n":null}`, `{"queens":[]}`, `{"queens":[-2147483648]}`, `{"seed":18446744073709551615}`, "{\"board\":\"\xff\"}", `{"board":"\u00e9\n"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		type request struct {
			verifyRequest
			Count bool   `json:"count,omitempty"`
			Seed  uint64 `json:"seed,omitempty"`
		}
		var got, want request
		req := newRequest("POST", "/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		err := decodeJSON(req, &got)
		if err != nil {
			var ae *apiError
			if !errors.As(err, &ae) || ae.Status != http.StatusBadRequest || ae.Msg == "" {
				t.Fatalf("%q: %v, want a 400 that says why", body, err)
			}
			return
		}
		if err := json.Unmarshal([]byte(body), &want); err != nil {
			t.Fatalf("%q: decodeJSON accepts it, encoding/json says %v", body, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: decodeJSON gives %+v, encoding/json %+v", body, got, want)
		}
	})
}
