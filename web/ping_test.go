package web

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// TestPing: the heartbeat answers 204 with no body, is logged at the debug
// level only (a line a second per page would fill the log), and refuses a
// query like every endpoint.
func TestPing(t *testing.T) {
	var logged bytes.Buffer
	s := newServer(t, Config{Logger: slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	rec := do(s, "GET", "/api/ping", "")
	if rec.Code != http.StatusNoContent || rec.Body.Len() != 0 || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("ping: %d %q %v", rec.Code, rec.Body, rec.Header())
	}
	if strings.Contains(logged.String(), "/api/ping") {
		t.Errorf("a ping was logged at the info level: %s", logged.String())
	}
	if rec := do(s, "GET", "/api/ping?x=1", ""); rec.Code != http.StatusBadRequest {
		t.Errorf("ping?x=1: %d", rec.Code)
	}
	if !strings.Contains(logged.String(), "/api/ping") {
		t.Errorf("a failed ping was not logged: %s", logged.String())
	}
	if rec := do(s, "POST", "/api/ping", ""); rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST ping: %d", rec.Code)
	}
}
