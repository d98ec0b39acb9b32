package web

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// eventStream writes server-sent events (text/event-stream), gzip-compressed
// for a client that accepts it. It flushes at most every flushEvery, so
// that a fast producer sends few large packets (and the compressor sees
// many events at once: a trace's events, flushed one by one, compress to
// about ten times the size) and a slow one is seen at once.
type eventStream struct {
	out       io.Writer // w, or gz over w
	gz        *gzip.Writer
	rc        *http.ResponseController
	lastFlush time.Time
}

const flushEvery = 50 * time.Millisecond

// startEventStream answers r with an event stream. Call close when the
// stream ends, so that a compressed one is complete.
func startEventStream(w http.ResponseWriter, r *http.Request) *eventStream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // tell proxies not to hold events back
	h.Set("X-Content-Type-Options", "nosniff")
	h.Add("Vary", "Accept-Encoding")
	es := &eventStream{out: w, rc: http.NewResponseController(w)}
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		es.gz, _ = gzip.NewWriterLevel(w, gzip.DefaultCompression)
		es.out = es.gz
	}
	w.WriteHeader(http.StatusOK)
	es.flush()
	return es
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip
// (RFC 9110, 12.5.3): "gzip" or "x-gzip", or "*" when gzip is not named,
// with a weight above 0.
func acceptsGzip(header string) bool {
	star := false
	for _, item := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(item, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		ok := true
		for _, p := range strings.Split(params, ";") {
			name, v, found := strings.Cut(p, "=")
			if found && strings.EqualFold(strings.TrimSpace(name), "q") {
				q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				ok = err == nil && q > 0
			}
		}
		switch coding {
		case "gzip", "x-gzip":
			return ok
		case "*":
			star = ok
		}
	}
	return star
}

// send writes one event; name "" is the default "message" event. data is
// written as JSON on one line.
func (es *eventStream) send(name string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return es.sendJSON(name, b)
}

// sendJSON writes one event whose data is the JSON text b, on one line.
func (es *eventStream) sendJSON(name string, b []byte) error {
	buf := make([]byte, 0, len(b)+32)
	if name != "" {
		buf = append(buf, "event: "...)
		buf = append(buf, name...)
		buf = append(buf, '\n')
	}
	buf = append(buf, "data: "...)
	buf = append(buf, b...)
	buf = append(buf, '\n', '\n')
	if _, err := es.out.Write(buf); err != nil {
		return err
	}
	if time.Since(es.lastFlush) >= flushEvery {
		return es.flush()
	}
	return nil
}

// sendNow writes one event and flushes it.
func (es *eventStream) sendNow(name string, data any) error {
	if err := es.send(name, data); err != nil {
		return err
	}
	return es.flush()
}

func (es *eventStream) flush() error {
	es.lastFlush = time.Now()
	if es.gz != nil {
		if err := es.gz.Flush(); err != nil {
			return err
		}
	}
	err := es.rc.Flush()
	if err == http.ErrNotSupported {
		return nil
	}
	return err
}

// close ends a compressed stream (its last block and checksum) and flushes
// what is left; the connection may be gone already.
func (es *eventStream) close() {
	if es.gz != nil {
		es.gz.Close()
	}
	_ = es.rc.Flush()
}

// streamTimeoutEvent is the data of the "error" event that ends a stream
// cut off by Config.StreamTimeout.
func streamTimeoutEvent(msg string) map[string]string { return map[string]string{"error": msg} }
