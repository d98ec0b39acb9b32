package web

import (
	"encoding/json"
	"net/http"
	"time"
)

// eventStream writes server-sent events (text/event-stream). It flushes at
// most every flushEvery, so that a fast producer sends few large packets
// and a slow one is seen at once.
type eventStream struct {
	w         http.ResponseWriter
	rc        *http.ResponseController
	lastFlush time.Time
}

const flushEvery = 50 * time.Millisecond

func startEventStream(w http.ResponseWriter) *eventStream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // tell proxies not to hold events back
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	es := &eventStream{w: w, rc: http.NewResponseController(w)}
	es.flush()
	return es
}

// send writes one event; name "" is the default "message" event. data is
// written as JSON on one line.
func (es *eventStream) send(name string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, len(b)+32)
	if name != "" {
		buf = append(buf, "event: "...)
		buf = append(buf, name...)
		buf = append(buf, '\n')
	}
	buf = append(buf, "data: "...)
	buf = append(buf, b...)
	buf = append(buf, '\n', '\n')
	if _, err := es.w.Write(buf); err != nil {
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
	err := es.rc.Flush()
	if err == http.ErrNotSupported {
		return nil
	}
	return err
}

// streamTimeoutEvent is the data of the "error" event that ends a stream
// cut off by Config.StreamTimeout.
func streamTimeoutEvent(msg string) map[string]string { return map[string]string{"error": msg} }
