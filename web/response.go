package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/nqueens/nqueens/i18n"
)

// Responses: the writer that records and paces them, API errors and the
// JSON and headers every answer carries.

// requestError is err as the client should read it: a request cancelled by
// the server's shutdown is a 503, not a cancellation.
func requestError(ctx context.Context, err error) error {
	if errors.Is(err, context.Canceled) && errors.Is(context.Cause(ctx), errShuttingDown) {
		return errorT(http.StatusServiceUnavailable, "error.shutdown", nil)
	}
	return err
}

// statusWriter records the status and size of a response for the log and
// for wrap, which must not write an error after the response has begun.
// It also paces the write deadline.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool

	rc       *http.ResponseController
	stall    time.Duration // Config.SlowClientTimeout
	end      time.Time     // no write may go on past this
	deadline time.Time     // the write deadline in force; zero before the first write
}

// pace moves the write deadline to SlowClientTimeout from now, never past
// end, so that a client that stops reading is cut off after that time
// however long its answer may run. It moves it at most every quarter of
// that time.
func (w *statusWriter) pace() {
	now := time.Now()
	if !w.deadline.IsZero() && (w.deadline.Sub(now) > w.stall*3/4 || w.deadline.Equal(w.end)) {
		return
	}
	w.deadline = now.Add(w.stall)
	if w.deadline.After(w.end) {
		w.deadline = w.end
	}
	_ = w.rc.SetWriteDeadline(w.deadline)
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.pace()
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.status, w.wrote = http.StatusOK, true
	}
	w.pace()
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach Flush and the deadlines.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// apiError is an error with the HTTP status it answers with.
type apiError struct {
	Status     int
	Msg        string // in English
	RetryAfter int    // seconds, for 429 and 503
	// said is Msg as the catalogs say it (i18n.Localizer), for the
	// request's language; nil when Msg is English only.
	said i18n.Localizer
}

func (e *apiError) Error() string { return e.Msg }

// Localize is the error in p's language, when the catalogs have it.
func (e *apiError) Localize(p *i18n.Printer) string {
	if e.said != nil {
		return e.said.Localize(p)
	}
	return e.Msg
}

// errorOf answers err with status, in the request's language when err can
// say itself in it (i18n.Localizer: a board.SizeError, an i18n.Error).
func errorOf(status int, err error) error {
	ae := &apiError{Status: status, Msg: err.Error()}
	ae.said, _ = err.(i18n.Localizer)
	return ae
}

// errorT answers the message key of the catalogs with status.
func errorT(status int, key string, args i18n.Args) *apiError {
	return errorOf(status, i18n.NewError(key, args)).(*apiError)
}

// statusClientGone is the status logged for a request whose client hung up.
const statusClientGone = 499

// writeError answers {"error": "..."} with the error's status: an
// *apiError's own, 503 for a request that ran out of time, 500 otherwise;
// the message in p's language when the catalogs have it.
func writeError(w http.ResponseWriter, p *i18n.Printer, err error) {
	var ae *apiError
	switch {
	case errors.As(err, &ae):
	case errors.Is(err, context.DeadlineExceeded):
		ae = errorT(http.StatusServiceUnavailable, "error.timeout", nil)
	case errors.Is(err, context.Canceled):
		// The client went away: nobody reads this answer, and its
		// status is for the log only (nginx's "client closed request").
		ae = &apiError{Status: statusClientGone, Msg: "request cancelled"}
	default:
		ae = &apiError{Status: http.StatusInternalServerError, Msg: err.Error()}
	}
	if ae.RetryAfter > 0 {
		w.Header().Set("Retry-After", fmt.Sprint(ae.RetryAfter))
	}
	writeJSON(w, ae.Status, map[string]string{"error": p.Err(ae)})
}

// writeJSON writes v as the whole response.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, err = w.Write(append(b, '\n'))
	return err
}

// securityHeaders keep the page to its own origin: no external scripts,
// styles or connections, no framing.
func securityHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}
