package web

import (
	"net/http"
	"testing"
)

// BenchmarkTraceStream is GET /api/trace of the stack search at N = 8, all
// of its 17,869 events, in each form.
func BenchmarkTraceStream(b *testing.B) {
	s := newServer(b, Config{})
	for _, form := range []string{"full", "compact"} {
		b.Run(form, func(b *testing.B) {
			for b.Loop() {
				rec := do(s, http.MethodGet, "/api/trace?n=8&algo=stack&form="+form, "")
				if rec.Code != http.StatusOK {
					b.Fatal(rec.Code, rec.Body.String())
				}
			}
		})
	}
}
