package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/nqueens/nqueens/i18n"
	"io"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// Admission: what a request must pass before its handler runs (its headers
// and body within their limits and the buffered-bytes budget) and the
// heavy-job slots it may take.

// maxHeaderBytes bounds the request line and headers of a request.
const maxHeaderBytes = 64 << 10

// parseFactor is the memory a request body may take while it is read,
// decoded and checked, as a multiple of its size: the body itself and the
// values it becomes (decodeJSON allocates nothing per token). The costliest
// bodies allocate about 5 times their size in all (1 MB of blocked
// squares, 1 MB of board text); TestBodyCost holds every shape to it.
const parseFactor = 6

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
		return release, errorT(http.StatusRequestHeaderFieldsTooLarge, "error.headers.large", i18n.Args{"Limit": strconv.Itoa(maxHeaderBytes), "Size": strconv.Itoa(hb)})
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
			return release, errorT(http.StatusRequestEntityTooLarge, "error.body.large", i18n.Args{"Limit": strconv.FormatInt(s.cfg.MaxBodyBytes, 10)})
		}
		if size < 0 {
			size = s.cfg.MaxBodyBytes // chunked: as large as it may be
		}
	}
	weight := int64(hb) + parseFactor*size
	if !s.buffered.tryAcquire(weight) {
		busy := errorT(http.StatusServiceUnavailable, "error.busy.buffered", i18n.Args{"Limit": strconv.FormatInt(s.cfg.MaxBufferedBytes, 10)})
		busy.RetryAfter = 1
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
	release = func() { s.buffered.release(weight) }
	if !hasBody {
		return release, nil
	}
	if err := s.readBody(rw, r, size); err != nil {
		return release, err
	}
	return release, nil
}

// budget is the server's budget of request bytes buffered and decoded at
// once (Config.MaxBufferedBytes).
type budget struct {
	sem   *semaphore.Weighted
	size  int64
	inUse atomic.Int64
	// burst says that more than half the budget was in use since it was
	// last idle.
	burst atomic.Bool
}

func newBudget(size int64) *budget { return &budget{sem: semaphore.NewWeighted(size), size: size} }

func (b *budget) tryAcquire(n int64) bool {
	if !b.sem.TryAcquire(n) {
		return false
	}
	if b.inUse.Add(n) > b.size/2 {
		b.burst.Store(true)
	}
	return true
}

// release gives n bytes back. When a burst is over, the memory it took
// goes back to the system at once: the collector would otherwise keep the
// heap of the burst's last cycle for minutes, a server that holds no
// request doing no work that would start a collection (TestVerifyFlood).
func (b *budget) release(n int64) {
	b.sem.Release(n)
	if b.inUse.Add(-n) == 0 && b.burst.Swap(false) {
		go debug.FreeOSMemory()
	}
}

// readBody reads the body of r, of at most size bytes, within
// SlowClientTimeout, and puts it back as a [bufferedBody].
func (s *Server) readBody(rw http.ResponseWriter, r *http.Request, size int64) error {
	rc := http.NewResponseController(rw)
	_ = rc.SetReadDeadline(time.Now().Add(s.cfg.SlowClientTimeout))
	// A request cut off by shutdown stops waiting for its body at once.
	stop := context.AfterFunc(r.Context(), func() { _ = rc.SetReadDeadline(time.Unix(1, 0)) })
	// One allocation for a body of the declared size (Buffer.Grow made a
	// second one, of the same size, under the race detector).
	buf := bytes.NewBuffer(make([]byte, 0, int(size)+bytes.MinRead))
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
		return errorT(http.StatusRequestEntityTooLarge, "error.body.large", i18n.Args{"Limit": strconv.FormatInt(tooBig.Limit, 10)})
	case timeout:
		rw.Header().Set("Connection", "close")
		return errorT(http.StatusRequestTimeout, "error.body.slow", i18n.Args{"Limit": s.cfg.SlowClientTimeout.String()})
	case r.Context().Err() != nil:
		return r.Context().Err() // the client hung up
	}
	return errorOf(http.StatusBadRequest, i18n.Wrap(err, "error.body.read", nil))
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
			Msg:  fmt.Sprintf("server busy: this client already runs %d trace stream(s) or count(s), the limit per client; end one, or try again in a moment", perClient),
			said: i18n.NewError("error.busy.client", i18n.Args{"Limit": perClient})}
	case s.long.total >= inAll:
		slot()
		return nil, &apiError{Status: http.StatusTooManyRequests, RetryAfter: 1,
			Msg:  fmt.Sprintf("server busy: %d trace stream(s) and count(s) run, the limit at once; try again in a moment", inAll),
			said: i18n.NewError("error.busy.all", i18n.Args{"Limit": inAll})}
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
			Msg:  fmt.Sprintf("server busy: the limit of %d heavy job(s) at once is reached; try again in a moment", cap(s.jobs)),
			said: i18n.NewError("error.busy.jobs", i18n.Args{"Limit": cap(s.jobs)})}
	}
}
