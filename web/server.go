package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"path"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"
)

// Server is the web page and the JSON API. It is an [http.Handler]; [Server.Serve]
// runs it on a listener with the connection timeouts it needs.
type Server struct {
	cfg  Config
	mux  *http.ServeMux
	log  *slog.Logger
	jobs chan struct{} // one token per running heavy job
	// buffered is the budget of request bytes buffered and parsed at once
	// (Config.MaxBufferedBytes), taken before a body is read.
	buffered *semaphore.Weighted
	long     longJobs

	// base is the parent of every count job; Close cancels it.
	base   context.Context
	cancel context.CancelFunc
	counts *countJobs
	wg     sync.WaitGroup // count job goroutines

	allowed map[string][]string // path → methods, for 405 answers
	hosts   map[string]bool     // Config.AllowedHosts, as checkHost compares them
}

// route kinds decide the time limit and whether a job slot is taken.
type routeKind uint8

const (
	light  routeKind = iota // cheap: RequestTimeout, no job slot
	heavy                   // RequestTimeout and a job slot, or 429
	stream                  // a long event stream: StreamTimeout, no slot of its own
)

// New checks cfg, fills its defaults and returns the server. Call
// [Server.Close] to stop its background jobs.
func New(cfg Config) (*Server, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), log: cfg.Logger, jobs: make(chan struct{}, cfg.MaxJobs),
		buffered: semaphore.NewWeighted(cfg.MaxBufferedBytes), long: longJobs{by: map[string]int{}},
		allowed: map[string][]string{}}
	if s.hosts, err = allowedHosts(cfg.AllowedHosts); err != nil {
		return nil, err
	}
	s.base, s.cancel = context.WithCancel(context.Background())
	s.counts = newCountJobs()

	static, _ := fs.Sub(staticFiles, "static")
	files := http.FileServerFS(static)
	// "/" rather than "GET /": a method in this pattern would conflict
	// with the method-less 405 patterns of the API paths.
	s.mux.Handle("/", s.wrap(light, func(w http.ResponseWriter, r *http.Request) error {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			return errorf(http.StatusMethodNotAllowed, "method %s is not allowed here (want GET)", r.Method)
		}
		// The file server answers a name it cannot open (invalid UTF-8,
		// such as /%ff) with a plain-text 500.
		if name := strings.TrimPrefix(path.Clean(r.URL.Path), "/"); name != "" && !fs.ValidPath(name) {
			return badRequest("the path %q is not a valid file name", r.URL.Path)
		}
		securityHeaders(w)
		files.ServeHTTP(w, r)
		return nil
	}))

	s.api("GET /api/ping", light, s.handlePing)
	s.api("GET /api/limits", light, s.handleLimits)
	s.api("GET /api/algorithms", light, s.handleAlgorithms)
	s.api("POST /api/verify", light, s.handleVerify)
	s.api("GET /api/solutions", heavy, s.handleSolutions)
	s.api("GET /api/solve", heavy, s.handleSolve)
	s.api("GET /api/render", heavy, s.handleRender)
	s.api("POST /api/render", heavy, s.handleRender)
	s.api("POST /api/complete", heavy, s.handleComplete)
	s.api("GET /api/trace", stream, s.handleTrace)
	s.api("GET /api/compare", heavy, s.handleCompare)
	s.api("GET /api/construction", light, s.handleConstruction)
	s.api("POST /api/count", light, s.handleCountStart)
	s.api("GET /api/count/{id}", light, s.handleCountStatus)
	s.api("GET /api/count/{id}/events", stream, s.handleCountEvents)
	s.api("DELETE /api/count/{id}", light, s.handleCountCancel)
	s.mux.Handle("/api/", s.wrap(light, func(http.ResponseWriter, *http.Request) error {
		return errorf(http.StatusNotFound, "no such endpoint; see docs/api.md for the list")
	}))
	return s, nil
}

// api registers h for pattern ("METHOD /path") and, for the same path with
// any other method, a JSON 405 naming the allowed methods.
func (s *Server) api(pattern string, kind routeKind, h handlerFunc) {
	s.mux.Handle(pattern, s.wrap(kind, h))
	method, path, _ := strings.Cut(pattern, " ")
	s.allowed[path] = append(s.allowed[path], method)
	if len(s.allowed[path]) > 1 {
		return // the 405 handler of this path is registered already
	}
	s.mux.Handle(path, s.wrap(light, func(w http.ResponseWriter, r *http.Request) error {
		allow := s.allowed[path]
		w.Header().Set("Allow", strings.Join(allow, ", "))
		return errorf(http.StatusMethodNotAllowed, "method %s is not allowed here (want %s)", r.Method, strings.Join(allow, ", "))
	}))
}

// ServeHTTP serves the page and the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Config returns the configuration in force, defaults filled in.
func (s *Server) Config() Config { return s.cfg }

// Close cancels every count job and waits for them to stop.
func (s *Server) Close() {
	s.counts.mu.Lock()
	s.counts.closed = true
	s.counts.mu.Unlock()
	s.cancel()
	s.wg.Wait()
}

// Serve accepts connections on ln until ctx is cancelled, then shuts down
// gracefully: it stops accepting, cancels count jobs so that their streams
// end with a "stopped" event, cancels the other requests in flight and
// waits up to grace for them to finish. Header reads and idle
// connections have their own time limits so that a slow client cannot hold
// a connection open.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	reqs, stopReqs := context.WithCancelCause(context.Background())
	defer stopReqs(nil)
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		// wrap answers headers over maxHeaderBytes with a JSON 431; the
		// HTTP layer cuts far larger ones itself, in plain text, before
		// any handler runs.
		MaxHeaderBytes: 4 * maxHeaderBytes,
		ErrorLog:       slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		// Requests are cancelled when the server stops, but only after
		// the count jobs have ended, so their streams can say how.
		BaseContext: func(net.Listener) context.Context { return reqs },
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		s.Close()
		return err
	case <-ctx.Done():
	}
	s.Close()
	stopReqs(errShuttingDown)
	shut, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := hs.Shutdown(shut)
	if errors.Is(err, context.DeadlineExceeded) {
		err = hs.Close()
	}
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// handlerFunc is an API handler: it writes a response, or returns an error
// that becomes a JSON error response (an *apiError says which status).
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// errShuttingDown is the cause of the requests cancelled by Serve's end.
var errShuttingDown = errors.New("the server is shutting down")

// maxHeaderBytes bounds the request line and headers of a request.
const maxHeaderBytes = 64 << 10

// wrap adds what every request gets: the Host check, the cross-site check
// of heavy and state-changing requests, the header, body and time limits,
// a share of the buffered-bytes budget while the body is held, a job slot
// for heavy work, panic recovery, a JSON error for a returned error, and a
// log line. The body is read in full before a job slot is taken, so that a
// client that sends it slowly holds no slot.
func (s *Server) wrap(kind routeKind, h handlerFunc) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		limit := s.cfg.RequestTimeout
		if kind == stream {
			limit = s.cfg.StreamTimeout
		}
		w := &statusWriter{ResponseWriter: rw, rc: http.NewResponseController(rw), stall: s.cfg.SlowClientTimeout,
			end: start.Add(limit + time.Second)}
		// The write deadline stops a client that reads too slowly; not
		// every ResponseWriter (httptest's) supports one.
		_ = w.rc.SetWriteDeadline(w.end)
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				if !w.wrote {
					writeError(w, errorf(http.StatusInternalServerError, "internal error"))
				}
			}
			// The page's heartbeat, a ping a second, is logged at the debug level.
			level := slog.LevelInfo
			if r.URL.Path == "/api/ping" && w.status == http.StatusNoContent {
				level = slog.LevelDebug
			}
			s.log.Log(r.Context(), level, "request", "method", r.Method, "path", r.URL.Path, "query", r.URL.RawQuery,
				"status", w.status, "bytes", w.bytes, "ms", time.Since(start).Milliseconds(), "remote", r.RemoteAddr)
		}()
		if kind != light || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			if err := checkSite(r); err != nil {
				writeError(w, err)
				return
			}
		}
		release, err := s.admit(rw, r)
		defer release()
		if err != nil {
			writeError(w, requestError(r.Context(), err))
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), limit)
		defer cancel()
		// The handlers' searches see a context that, in the browser, lets
		// the page's requests in (yield_js.go).
		r = r.WithContext(yielding(ctx))
		if kind == heavy {
			release, err := s.acquire()
			if err != nil {
				writeError(w, err)
				return
			}
			defer release()
		}
		if err := h(w, r); err != nil {
			if !w.wrote {
				writeError(w, requestError(ctx, err))
			} else if ctx.Err() == nil {
				s.log.Warn("error after the response started", "path", r.URL.Path, "err", err)
			}
		}
	})
}

// parseFactor is the memory a request body may take while it is read and
// parsed, as a multiple of its size: the body itself, the decoder's tokens
// and the values they become. A verify body of 1 MB of columns raised the
// server's resident size by about 2.3 MB each, 64 of them at once
// (TestVerifyFlood).
const parseFactor = 4

// admit checks what a request must pass before its handler runs: the Host
// it names, the size of its headers, and its body, which it reads in full
// within MaxBodyBytes and SlowClientTimeout. Before it reads a byte of the
// body it takes the body's share of the server's budget of buffered bytes
// (its declared size, or MaxBodyBytes when it declares none, times
// parseFactor), or answers 503 at once, reading the body into no buffer
// when the client sends it unasked; release gives the share back.
func (s *Server) admit(rw http.ResponseWriter, r *http.Request) (release func(), err error) {
	release = func() {}
	if err := s.checkHost(r); err != nil {
		return release, err
	}
	hb := headerBytes(r)
	if hb > maxHeaderBytes {
		rw.Header().Set("Connection", "close")
		return release, errorf(http.StatusRequestHeaderFieldsTooLarge, "request headers are larger than the limit of %d bytes (%d)", maxHeaderBytes, hb)
	}
	hasBody := r.Body != nil && r.Body != http.NoBody
	// A body refused unread is not read after the answer either (the HTTP
	// layer would, to reuse the connection): the connection is closed.
	refuseBody := func() {
		rw.Header().Set("Connection", "close")
		_ = http.NewResponseController(rw).SetReadDeadline(time.Unix(1, 0))
	}
	size := int64(0)
	if hasBody {
		size = r.ContentLength
		if size > s.cfg.MaxBodyBytes {
			refuseBody()
			return release, errorf(http.StatusRequestEntityTooLarge, "request body is larger than the limit of %d bytes", s.cfg.MaxBodyBytes)
		}
		if size < 0 {
			size = s.cfg.MaxBodyBytes // chunked: as large as it may be
		}
	}
	weight := int64(hb) + parseFactor*size
	if !s.buffered.TryAcquire(weight) {
		busy := &apiError{Status: http.StatusServiceUnavailable, RetryAfter: 1,
			Msg: fmt.Sprintf("server busy: the requests in progress hold its limit of %d buffered bytes; try again in a moment", s.cfg.MaxBufferedBytes)}
		switch {
		case !hasBody:
		case r.Header.Get("Expect") != "":
			refuseBody() // the client waits to be asked for its body
		default:
			// A client that sends its body at once may not read the
			// answer before it has sent it all: the body is read, into
			// no buffer, so that the client sees the 503 rather than a
			// connection reset.
			s.discardBody(rw, r)
		}
		return release, busy
	}
	release = func() { s.buffered.Release(weight) }
	if !hasBody {
		return release, nil
	}
	if err := s.readBody(rw, r, size); err != nil {
		return release, err
	}
	return release, nil
}

// readBody reads the body of r, of at most size bytes, within
// SlowClientTimeout, and puts it back as a [bufferedBody].
func (s *Server) readBody(rw http.ResponseWriter, r *http.Request, size int64) error {
	rc := http.NewResponseController(rw)
	_ = rc.SetReadDeadline(time.Now().Add(s.cfg.SlowClientTimeout))
	// A request cut off by shutdown stops waiting for its body at once.
	stop := context.AfterFunc(r.Context(), func() { _ = rc.SetReadDeadline(time.Unix(1, 0)) })
	var buf bytes.Buffer
	buf.Grow(int(size) + bytes.MinRead) // one allocation for a body of the declared size
	_, err := buf.ReadFrom(http.MaxBytesReader(rw, r.Body, s.cfg.MaxBodyBytes))
	stop()
	if err == nil {
		// No deadline once the body is in: the HTTP layer's read that
		// watches for the client hanging up must not time out. After a
		// failure the deadline stays, so that the connection is closed
		// at once rather than its body read on.
		_ = rc.SetReadDeadline(time.Time{})
	}
	var (
		tooBig  *http.MaxBytesError
		netErr  net.Error
		timeout = errors.As(err, &netErr) && netErr.Timeout()
	)
	switch {
	case err == nil:
		r.Body = &bufferedBody{bytes.NewReader(buf.Bytes()), buf.Bytes()}
		return nil
	case errors.Is(context.Cause(r.Context()), errShuttingDown):
		return context.Canceled
	case errors.As(err, &tooBig):
		return errorf(http.StatusRequestEntityTooLarge, "request body is larger than the limit of %d bytes", tooBig.Limit)
	case timeout:
		rw.Header().Set("Connection", "close")
		return errorf(http.StatusRequestTimeout, "the request body did not arrive within the time limit of %v", s.cfg.SlowClientTimeout)
	case r.Context().Err() != nil:
		return r.Context().Err() // the client hung up
	}
	return badRequest("cannot read the request body: %v", err)
}

// discardBody reads the body of r to its end into no buffer, within
// MaxBodyBytes and SlowClientTimeout; a body that fails closes the
// connection after the answer.
func (s *Server) discardBody(rw http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(rw)
	_ = rc.SetReadDeadline(time.Now().Add(s.cfg.SlowClientTimeout))
	if _, err := io.Copy(io.Discard, http.MaxBytesReader(rw, r.Body, s.cfg.MaxBodyBytes)); err != nil {
		rw.Header().Set("Connection", "close")
		return
	}
	_ = rc.SetReadDeadline(time.Time{})
}

// bufferedBody is a request body read in full by admit; the handlers'
// decoder takes its bytes without copying them.
type bufferedBody struct {
	*bytes.Reader
	data []byte
}

func (*bufferedBody) Close() error { return nil }

// headerBytes is about what the HTTP layer counts against its header
// limit: the request line and each header line.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + len("Host: ") + len(r.Host) + 8
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}

// requestError is err as the client should read it: a request cancelled by
// the server's shutdown is a 503, not a cancellation.
func requestError(ctx context.Context, err error) error {
	if errors.Is(err, context.Canceled) && errors.Is(context.Cause(ctx), errShuttingDown) {
		return errorf(http.StatusServiceUnavailable, "the server is shutting down; try again in a moment")
	}
	return err
}

// longJobs counts the heavy jobs that run as long as their client wants
// (trace streams, count jobs), in all and by client.
type longJobs struct {
	mu    sync.Mutex
	total int
	by    map[string]int
}

// acquireLong takes a heavy-job slot for a long job of client (its remote
// address): a client may hold at most half the slots with long jobs, and
// long jobs in all leave one slot free, so that slow readers of streams
// from one client, or from several, cannot hold every slot.
func (s *Server) acquireLong(r *http.Request) (release func(), err error) {
	client := clientOf(r)
	perClient, inAll := max(1, s.cfg.MaxJobs/2), max(1, s.cfg.MaxJobs-1)
	slot, err := s.acquire()
	if err != nil {
		return nil, err
	}
	s.long.mu.Lock()
	defer s.long.mu.Unlock()
	switch {
	case s.long.by[client] >= perClient:
		slot()
		return nil, &apiError{Status: http.StatusTooManyRequests, RetryAfter: 1,
			Msg: fmt.Sprintf("server busy: this client already runs %d trace stream(s) or count(s), the limit per client; end one, or try again in a moment", perClient)}
	case s.long.total >= inAll:
		slot()
		return nil, &apiError{Status: http.StatusTooManyRequests, RetryAfter: 1,
			Msg: fmt.Sprintf("server busy: %d trace stream(s) and count(s) run, the limit at once; try again in a moment", inAll)}
	}
	s.long.by[client]++
	s.long.total++
	return func() {
		s.long.mu.Lock()
		if s.long.by[client]--; s.long.by[client] == 0 {
			delete(s.long.by, client)
		}
		s.long.total--
		s.long.mu.Unlock()
		slot()
	}, nil
}

// clientOf is the client of r as the limits count it: its remote address
// without the port.
func clientOf(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// acquire takes a heavy-job slot without waiting: a full server answers 429
// at once rather than queueing work that the client may not wait for.
func (s *Server) acquire() (release func(), err error) {
	select {
	case s.jobs <- struct{}{}:
		return func() { <-s.jobs }, nil
	default:
		return nil, &apiError{Status: http.StatusTooManyRequests, RetryAfter: 1,
			Msg: fmt.Sprintf("server busy: the limit of %d heavy job(s) at once is reached; try again in a moment", cap(s.jobs))}
	}
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
	Msg        string
	RetryAfter int // seconds, for 429 and 503
}

func (e *apiError) Error() string { return e.Msg }

func errorf(status int, format string, args ...any) error {
	return &apiError{Status: status, Msg: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) error {
	return errorf(http.StatusBadRequest, format, args...)
}

// statusClientGone is the status logged for a request whose client hung up.
const statusClientGone = 499

// writeError answers {"error": "..."} with the error's status: an
// *apiError's own, 503 for a request that ran out of time, 500 otherwise.
func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	switch {
	case errors.As(err, &ae):
	case errors.Is(err, context.DeadlineExceeded):
		ae = &apiError{Status: http.StatusServiceUnavailable, Msg: "the request ran out of time (server limit); try a smaller N"}
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
	writeJSON(w, ae.Status, map[string]string{"error": ae.Msg})
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
