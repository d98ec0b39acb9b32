package web

import (
	"encoding/json"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
)

// discardWriter is a ResponseWriter that counts the bytes of the body and
// keeps none of them, so that a test can measure what the server itself
// holds in memory: at the first write and after each further 8 MiB it
// collects garbage and records the live heap.
type discardWriter struct {
	header http.Header
	status int
	bytes  int64
	head   []byte // the first bytes, for error messages
	base   uint64 // the live heap before the request
	peak   int64  // the most live heap at a write, above base
}

func (d *discardWriter) Header() http.Header { return d.header }
func (d *discardWriter) WriteHeader(code int) {
	if d.status == 0 {
		d.status = code
	}
}
func (d *discardWriter) Write(b []byte) (int, error) {
	d.WriteHeader(http.StatusOK)
	if len(d.head) < 512 {
		d.head = append(d.head, b[:min(len(b), 512-len(d.head))]...)
	}
	if d.bytes == 0 || d.bytes>>23 != (d.bytes+int64(len(b)))>>23 {
		d.peak = max(d.peak, liveHeap()-int64(d.base))
	}
	d.bytes += int64(len(b))
	return len(b), nil
}

// liveHeap is the heap in use after a collection.
func liveHeap() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// measure serves one request into a discardWriter and returns it with the
// live heap left after it, above what was live before.
func measure(s *Server, body string) (d *discardWriter, retained int64) {
	req := newRequest("POST", "/api/render", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	d = &discardWriter{header: http.Header{}, base: uint64(liveHeap())}
	s.ServeHTTP(d, req)
	return d, liveHeap() - int64(d.base)
}

// allBlocked is the request of an n×n board with every square blocked, in
// dots, drawn as f. The SVG draws each blocked square: for n = 1000 a 1 MB
// body asked for a 130 MB SVG.
func allBlocked(n int, f board.Format) string {
	all := strings.Repeat(strings.Repeat("x", n)+`\n`, n-1) + strings.Repeat("x", n)
	return `{"board":"` + all + `","output":"` + string(f) + `"}`
}

// TestRenderStreams: a large picture is written as it is drawn, not built
// in memory first: what the server holds while it sends is far less than
// what it sends, it says the length up front, and it keeps nothing
// afterwards.
func TestRenderStreams(t *testing.T) {
	const n = 100 // a 1.3 MB SVG: writing it takes a second under the race detector
	s := newServer(t, Config{MaxRenderBytes: 1 << 30})
	body := allBlocked(n, board.SVG)
	var req struct{ Board string }
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatal(err)
	}
	p, err := board.ParsePartial(req.Board, board.Dots)
	if err != nil {
		t.Fatal(err)
	}
	var want countWriter
	if err := board.WritePartial(&want, p, board.SVG); err != nil {
		t.Fatal(err)
	}
	d, retained := measure(s, body)
	t.Logf("%d-byte request, %d-byte SVG: %d bytes live at most while sending, %d after", len(body), d.bytes, d.peak, retained)
	if d.status != http.StatusOK || d.bytes != want.n || d.header.Get("Content-Length") != strconv.FormatInt(want.n, 10) {
		t.Fatalf("status %d, %d bytes, Content-Length %q, want %d: %s", d.status, d.bytes, d.header.Get("Content-Length"), want.n, d.head)
	}
	// The request and its n² blocked squares are live while it is sent:
	// about a fifth of the answer.
	if d.peak > d.bytes/2 {
		t.Errorf("%d bytes live while sending %d: the picture was held in memory", d.peak, d.bytes)
	}
	if retained > 256<<10 {
		t.Errorf("%d bytes still live after the request", retained)
	}
}

// TestRenderOutputLimit: a request whose answer would be larger than
// MaxRenderBytes is refused with a clear 400, without the picture ever
// being held, and its memory comes back. The same board as PNG, whose size
// its pixels bound, is drawn. (The limit is small here: the refusal costs
// the time of measuring the answer, under the race detector a second for
// each 2 MB.)
func TestRenderOutputLimit(t *testing.T) {
	const n = 100
	s := newServer(t, Config{MaxRenderBytes: 256 << 10})
	d, retained := measure(s, allBlocked(n, board.SVG))
	t.Logf("refused: %d bytes live at most when answering, %d after", d.peak, retained)
	var e struct{ Error string }
	if d.status != http.StatusBadRequest || json.Unmarshal(d.head, &e) != nil ||
		e.Error != "the svg answer would be larger than the server's limit of 262144 bytes; ask for png, or draw fewer blocked squares" {
		t.Fatalf("status %d: %s", d.status, d.head)
	}
	if d.peak > 256<<10 || retained > 256<<10 {
		t.Errorf("%d bytes live when refusing the request, %d after it", d.peak, retained)
	}
	d, retained = measure(s, allBlocked(n, board.PNG))
	t.Logf("png: %d bytes, %d bytes live at most while sending, %d after", d.bytes, d.peak, retained)
	if d.status != http.StatusOK || d.header.Get("Content-Type") != "image/png" || d.header.Get("Content-Length") != strconv.FormatInt(d.bytes, 10) {
		t.Fatalf("png: status %d, %v: %s", d.status, d.header, d.head)
	}
	if retained > 256<<10 {
		t.Errorf("png: %d bytes still live after the request", retained)
	}
}

// countWriter counts what is written to it.
type countWriter struct{ n int64 }

func (c *countWriter) Write(b []byte) (int, error) { c.n += int64(len(b)); return len(b), nil }
