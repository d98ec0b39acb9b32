//go:build js && wasm

// Command wasm is the nqueens server compiled to WebAssembly, for the page's
// static build (nqueens site). It runs in a Web Worker (web/static/js/
// worker.js) and answers the page's requests with the same http.Handler as
// `nqueens serve`, under web.BrowserConfig's limits, so that every endpoint
// is the same Go code on a server and in the browser.
//
// The page's WebAssembly transport (web/static/js/wasm.js) hands each
// request to nqueens.request; the answer goes back to the page as messages:
// a head (status and headers), chunks of the body as the handler flushes
// them (so that event streams flow), and an end. nqueens.abort cancels a
// request's context, as a closed connection does on a server.
//
// Build: GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w'
// -tags=nethttpomithttp2 ./web/wasm (web.BuildWasm does it for nqueens
// site).
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall/js"

	"github.com/nqueens/nqueens/web"
)

func main() {
	cfg := web.BrowserConfig()
	// Warnings only: a line per request would fill the browser's console.
	cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := web.New(cfg)
	if err != nil {
		panic(err) // BrowserConfig is valid: TestBrowserConfig checks it
	}
	w := &worker{srv: srv, cancels: map[int]context.CancelFunc{}}
	js.Global().Set("nqueens", js.ValueOf(map[string]any{
		"request": js.FuncOf(w.request),
		"abort":   js.FuncOf(w.abort),
	}))
	js.Global().Call("nqueensReady")
	select {} // the worker's messages call in from now on
}

// worker serves the page's requests.
type worker struct {
	srv *web.Server

	mu      sync.Mutex
	cancels map[int]context.CancelFunc // of the requests in progress, by id
}

// request starts serving {id, method, url, headers: [[name, value]…],
// body}. It returns at once: a function called from JavaScript must not
// block.
func (w *worker) request(_ js.Value, args []js.Value) any {
	m := args[0]
	id, ok := messageID(m.Get("id"))
	if !ok {
		// Value.Int panics on anything but a number, which ended the
		// worker and every request in it.
		post(map[string]any{"type": "fail", "id": m.Get("id"), "error": "a request's id must be a whole number"})
		return nil
	}
	var body io.Reader
	if b := m.Get("body"); b.Type() == js.TypeString {
		body = strings.NewReader(b.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, m.Get("method").String(), m.Get("url").String(), body)
	if err != nil {
		cancel()
		post(map[string]any{"type": "fail", "id": id, "error": err.Error()})
		return nil
	}
	headers := m.Get("headers")
	for i := range headers.Length() {
		req.Header.Add(headers.Index(i).Index(0).String(), headers.Index(i).Index(1).String())
	}
	w.mu.Lock()
	w.cancels[id] = cancel
	w.mu.Unlock()
	go w.serve(id, req)
	return nil
}

// abort cancels request id, if it is still in progress.
func (w *worker) abort(_ js.Value, args []js.Value) any {
	id, ok := messageID(args[0])
	if !ok {
		return nil // no request has such an id
	}
	w.mu.Lock()
	cancel := w.cancels[id]
	w.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil
}

// messageID reads a request id: a whole number that fits an int.
func messageID(v js.Value) (int, bool) {
	if v.Type() != js.TypeNumber {
		return 0, false
	}
	f := v.Float()
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

func (w *worker) serve(id int, req *http.Request) {
	res := &response{id: id, ctx: req.Context(), header: http.Header{}}
	defer func() {
		w.mu.Lock()
		w.cancels[id]()
		delete(w.cancels, id)
		w.mu.Unlock()
		// The server recovers its handlers' panics; this is for the rest.
		if v := recover(); v != nil {
			post(map[string]any{"type": "fail", "id": id, "error": fmt.Sprint("internal error: ", v)})
		}
	}()
	w.srv.ServeHTTP(res, req)
	res.end()
}

// chunkBytes is the most body a response holds before it posts it, when
// its handler does not flush first.
const chunkBytes = 256 << 10

// response is the http.ResponseWriter of one request: it posts the head at
// the first write and the body at each flush.
type response struct {
	id     int
	ctx    context.Context // the request's: once cancelled, writes fail
	header http.Header
	status int // 0 until the head is posted
	buf    []byte
}

func (r *response) Header() http.Header { return r.header }

func (r *response) WriteHeader(status int) {
	if r.status != 0 {
		return
	}
	r.status = status
	var pairs []any
	for name, values := range r.header {
		for _, v := range values {
			pairs = append(pairs, []any{name, v})
		}
	}
	post(map[string]any{"type": "head", "id": r.id, "status": status, "headers": pairs})
}

// Write fails once the page has stopped reading, so that a stream's
// handler stops as it does when a client hangs up.
func (r *response) Write(b []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	r.WriteHeader(http.StatusOK)
	r.buf = append(r.buf, b...)
	if len(r.buf) >= chunkBytes {
		r.Flush()
	}
	return len(b), nil
}

// Flush posts the body written since the last flush; http.ResponseController
// finds it.
func (r *response) Flush() {
	r.WriteHeader(http.StatusOK)
	if len(r.buf) == 0 {
		return
	}
	data := js.Global().Get("Uint8Array").New(len(r.buf))
	js.CopyBytesToJS(data, r.buf)
	r.buf = r.buf[:0]
	post(map[string]any{"type": "chunk", "id": r.id, "data": data}, data.Get("buffer"))
}

func (r *response) end() {
	r.Flush()
	post(map[string]any{"type": "end", "id": r.id})
}

// post sends a message to the page, handing over the buffers in transfer
// rather than copying them.
func post(msg map[string]any, transfer ...any) {
	js.Global().Call("postMessage", msg, transfer)
}
