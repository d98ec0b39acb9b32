package web

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"path"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nqueens/nqueens/i18n"
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
	buffered *budget
	long     longJobs

	// base is the parent of every count job; Close cancels it.
	base   context.Context
	cancel context.CancelFunc
	counts *countJobs
	wg     sync.WaitGroup // count job goroutines

	allowed map[string][]string // path → methods, for 405 answers
	hosts   map[string]bool     // Config.AllowedHosts, as checkHost compares them
	locales map[string][]byte   // the page's catalogs (localeFiles)
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
		buffered: newBudget(cfg.MaxBufferedBytes), long: longJobs{by: map[string]int{}},
		allowed: map[string][]string{}}
	if s.hosts, err = allowedHosts(cfg.AllowedHosts); err != nil {
		return nil, err
	}
	s.base, s.cancel = context.WithCancel(context.Background())
	s.counts = newCountJobs()

	if s.locales, err = localeFiles(); err != nil {
		return nil, err
	}
	static, _ := fs.Sub(staticFiles, "static")
	files := http.FileServerFS(static)
	// "/" rather than "GET /": a method in this pattern would conflict
	// with the method-less 405 patterns of the API paths.
	s.mux.Handle("/", s.wrap(light, func(w http.ResponseWriter, r *http.Request) error {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			return errorT(http.StatusMethodNotAllowed, "error.method", i18n.Args{"Method": r.Method, "Allow": "GET"})
		}
		// The file server answers a name it cannot open (invalid UTF-8,
		// such as /%ff) with a plain-text 500.
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && !fs.ValidPath(name) {
			return errorT(http.StatusBadRequest, "error.path", i18n.Args{"Path": strconv.Quote(r.URL.Path)})
		}
		securityHeaders(w)
		if data, ok := s.locales[name]; ok {
			http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
			return nil
		}
		files.ServeHTTP(w, r)
		return nil
	}))

	s.api("GET /api/ping", light, s.handlePing)
	s.api("GET /api/limits", light, s.handleLimits)
	s.api("GET /api/algorithms", light, s.handleAlgorithms)
	s.api("GET /api/reference", light, s.handleReference)
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
		return errorT(http.StatusNotFound, "error.notfound", i18n.Args{"Doc": "docs/api.md"})
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
		return errorT(http.StatusMethodNotAllowed, "error.method", i18n.Args{"Method": r.Method, "Allow": strings.Join(allow, ", ")})
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
		// The language of the answer's prose (lang.go); every answer may
		// hold some, an error at least.
		lang, langErr := requestLang(r)
		p := i18n.For(lang)
		if strings.HasPrefix(r.URL.Path, "/api/") {
			w.Header().Add("Vary", "Accept-Language")
		}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				if !w.wrote {
					writeError(w, p, errorT(http.StatusInternalServerError, "error.internal", nil))
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
		if langErr != nil {
			writeError(w, p, langErr)
			return
		}
		if kind != light || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			if err := checkSite(r); err != nil {
				writeError(w, p, err)
				return
			}
		}
		release, err := s.admit(rw, r)
		defer release()
		if err != nil {
			writeError(w, p, requestError(r.Context(), err))
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), limit)
		defer cancel()
		// The handlers' searches see a context that, in the browser, lets
		// the page's requests in (yield_js.go).
		r = r.WithContext(yielding(i18n.NewContext(ctx, lang)))
		if kind == heavy {
			release, err := s.acquire()
			if err != nil {
				writeError(w, p, err)
				return
			}
			defer release()
		}
		if err := h(w, r); err != nil {
			if !w.wrote {
				writeError(w, p, requestError(ctx, err))
			} else if ctx.Err() == nil {
				s.log.Warn("error after the response started", "path", r.URL.Path, "err", err)
			}
		}
	})
}
