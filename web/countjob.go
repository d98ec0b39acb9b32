package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"math"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/variant"
)

// A count job runs count.Count (or, for a torus or superqueens,
// variant.Count) in the background, detached from the request
// that started it, so that its progress can be watched and it can be
// cancelled from another request. It holds a heavy-job slot until it ends.
//
// Life: POST /api/count starts it; GET /api/count/{id}/events streams its
// progress and result; DELETE /api/count/{id} cancels it. A job with nobody
// connected to its events for Config.CountIdle is cancelled (a page that
// was closed stops its work), and every job ends after Config.CountTimeout.
// A finished job is kept for countKeep so that a late client reads its
// result, then forgotten; so is the oldest finished job past
// maxFinishedPerClient of its client (its remote address) or
// maxFinishedJobs in all, so that a client starting small counts in a loop
// cannot grow the server's memory. Running jobs are bounded by the job
// slots.

// countKeep is how long a finished job's result stays readable.
const countKeep = 2 * time.Minute

// The finished jobs kept at most, in all and per client.
const (
	maxFinishedJobs      = 128
	maxFinishedPerClient = 8
)

// Job states.
const (
	stateRunning   = "running"
	stateDone      = "done"
	stateCancelled = "cancelled"
	stateFailed    = "failed"
)

// errIdle is the cause of a job cancelled because nobody was listening.
var errIdle = i18n.NewError("count.reason.idle", nil)

// errCountTimeout is the cause of a job that ran past the count time limit.
var errCountTimeout = i18n.NewError("count.reason.timeout", nil)

// errDeleted is the cause of a job cancelled by DELETE.
var errDeleted = i18n.NewError("count.reason.deleted", nil)

// errCountShutdown is the reason of a job the server's shutdown cancelled.
var errCountShutdown = i18n.NewError("count.reason.shutdown", nil)

type countJob struct {
	id     string
	n      int
	spec   *variant.Spec // the variant counted; nil for the N-Queens problem itself
	client string        // the remote address that started it, without port
	cancel context.CancelCauseFunc

	mu        sync.Mutex
	state     string
	progress  countProgressJSON
	result    any           // *countResultJSON, or *variantResultJSON for a variant
	reason    string        // why it was cancelled or failed
	why       error         // the error reason says, for the reader's language
	changed   chan struct{} // closed at every change, then replaced
	listeners int
	idle      *time.Timer // cancels the job when it fires
}

type countJobs struct {
	mu       sync.Mutex
	jobs     map[string]*countJob
	finished []*countJob // the finished jobs of jobs, oldest first
	closed   bool        // set by Server.Close: no new jobs
}

func newCountJobs() *countJobs { return &countJobs{jobs: map[string]*countJob{}} }

func (c *countJobs) get(id string) (*countJob, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	j, ok := c.jobs[id]
	if !ok {
		return nil, errorT(http.StatusNotFound, "error.count.nojob", i18n.Args{"ID": strconv.Quote(id), "Keep": countKeep.String(),
			"PerClient": maxFinishedPerClient, "All": maxFinishedJobs})
	}
	return j, nil
}

// finish keeps j, which has ended, among the finished jobs, and forgets
// the oldest ones past the bounds: in all, and of j's client.
func (c *countJobs) finish(j *countJob) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.finished = append(c.finished, j)
	mine := 0
	for _, f := range c.finished {
		if f.client == j.client {
			mine++
		}
	}
	for i := 0; i < len(c.finished); {
		f := c.finished[i]
		if len(c.finished) <= maxFinishedJobs && (mine <= maxFinishedPerClient || f.client != j.client) {
			i++
			continue
		}
		if f.client == j.client {
			mine--
		}
		delete(c.jobs, f.id)
		c.finished = slices.Delete(c.finished, i, i+1)
	}
}

// forget drops j once its time is up, if the bounds have not dropped it.
func (c *countJobs) forget(j *countJob) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := slices.Index(c.finished, j); i >= 0 {
		delete(c.jobs, j.id)
		c.finished = slices.Delete(c.finished, i, i+1)
	}
}

// countProgressJSON is a "progress" event. Engine names the engine
// counting (jobEngine), which says what Nodes counts: pairs of half boards
// compared by the join, or nodes of a search tree.
type countProgressJSON struct {
	N         int           `json:"n"`
	Engine    string        `json:"engine"`
	UnitsDone int           `json:"units_done"`
	Units     int           `json:"units"`
	Nodes     count.Uint128 `json:"nodes"`
	Seconds   float64       `json:"seconds"`
}

// countResultJSON is the "result" event and the result field of a job's
// status: the one JSON form of a count's result, as `nqueens count N
// --json` writes it (docs/json.md), and the engine that counted it.
type countResultJSON struct {
	count.ResultJSON
	Engine string `json:"engine"`
}

// variantResultJSON is a variant's result (variant.ResultJSON, as `nqueens
// count N --torus --super --json` writes it) and its engine.
type variantResultJSON struct {
	variant.ResultJSON
	Engine string `json:"engine"`
}

// engineVariant names the engine of a variant's count (package variant):
// a search tree, whose nodes its Nodes counts.
const engineVariant = "variant"

// jobEngine is the engine that counts n, or the variant spec: count.Engine
// ("join" or "tree") for the N-Queens problem, engineVariant for a
// variant.
func jobEngine(n int, spec *variant.Spec) string {
	if spec != nil {
		return engineVariant
	}
	return count.Engine(n)
}

// countStatusJSON is the answer of POST /api/count and GET /api/count/{id}.
// Result is a count's result, or a variant's (variantResultJSON).
type countStatusJSON struct {
	ID       string             `json:"id"`
	N        int                `json:"n"`
	State    string             `json:"state"`
	Reason   string             `json:"reason,omitempty"`
	Progress *countProgressJSON `json:"progress,omitempty"`
	Result   any                `json:"result,omitempty"`
	Events   string             `json:"events"`
}

// statusIn is status with the reason in p's language.
func (j *countJob) statusIn(p *i18n.Printer) countStatusJSON {
	st := j.status()
	j.mu.Lock()
	defer j.mu.Unlock()
	if st.Reason != "" {
		st.Reason = j.reasonIn(p)
	}
	return st
}

func (j *countJob) status() countStatusJSON {
	j.mu.Lock()
	defer j.mu.Unlock()
	p := j.progress
	return countStatusJSON{ID: j.id, N: j.n, State: j.state, Reason: j.reason, Progress: &p, Result: j.result,
		Events: "/api/count/" + j.id + "/events"}
}

// update changes the job under its lock and wakes every listener.
func (j *countJob) update(f func()) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f()
	close(j.changed)
	j.changed = make(chan struct{})
}

// listen registers a listener; the returned func unregisters it. While
// anybody listens the idle timer is stopped.
func (j *countJob) listen(idle time.Duration) (leave func()) {
	j.mu.Lock()
	j.listeners++
	if j.idle != nil {
		j.idle.Stop()
	}
	j.mu.Unlock()
	return func() {
		j.mu.Lock()
		defer j.mu.Unlock()
		j.listeners--
		if j.listeners == 0 && j.state == stateRunning && j.idle != nil {
			j.idle.Reset(idle)
		}
	}
}

// countRequest starts a count of n; torus and super name a variant of the
// n × n board, as count's --torus and --super do.
type countRequest struct {
	N     int  `json:"n"`
	Torus bool `json:"torus,omitempty"`
	Super bool `json:"super,omitempty"`
}

// spec is the variant the request names, nil for the plain problem.
func (c countRequest) spec() *variant.Spec {
	if !c.Torus && !c.Super {
		return nil
	}
	s := variant.Spec{Rows: c.N, Torus: c.Torus}
	if c.Super {
		s.Piece = variant.Superqueen
	}
	s = s.Normal()
	return &s
}

func (s *Server) handleCountStart(w http.ResponseWriter, r *http.Request) error {
	var req countRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if err := checkN(req.N, "count", s.cfg.MaxCountN); err != nil {
		return err
	}
	release, err := s.acquireLong(r)
	if err != nil {
		return err
	}
	var idb [8]byte
	_, _ = rand.Read(idb[:])
	ctx, cancel := context.WithCancelCause(s.base)
	ctx, cancelTimeout := context.WithTimeoutCause(ctx, s.cfg.CountTimeout, errCountTimeout)
	units := count.Units(req.N)
	if spec := req.spec(); spec != nil {
		units, _ = variant.Units(*spec) // n was checked: the spec is valid
	}
	j := &countJob{id: hex.EncodeToString(idb[:]), n: req.N, spec: req.spec(), client: clientOf(r), cancel: cancel, state: stateRunning,
		changed: make(chan struct{}), progress: countProgressJSON{N: req.N, Engine: jobEngine(req.N, req.spec()), Units: units}}
	j.idle = time.AfterFunc(s.cfg.CountIdle, func() { cancel(errIdle) })
	// Registering and starting under the lock that Close takes keeps a
	// job from starting after Close has begun to wait for them.
	s.counts.mu.Lock()
	if s.counts.closed {
		s.counts.mu.Unlock()
		j.idle.Stop()
		release()
		cancelTimeout()
		cancel(nil)
		return errorT(http.StatusServiceUnavailable, "count.reason.shutdown", nil)
	}
	s.counts.jobs[j.id] = j
	s.wg.Go(func() {
		defer release()
		defer cancelTimeout()
		defer j.idle.Stop()
		s.runCount(ctx, j)
		s.counts.finish(j)
		time.AfterFunc(countKeep, func() { s.counts.forget(j) })
	})
	s.counts.mu.Unlock()
	s.log.Info("count job started", "id", j.id, "n", j.n)
	return writeJSON(w, http.StatusAccepted, j.statusIn(i18n.Ctx(r.Context())))
}

// runCount runs the count and records its progress and its end in j.
func (s *Server) runCount(ctx context.Context, j *countJob) {
	progress := func(done, units int, nodes count.Uint128, elapsed time.Duration) {
		j.update(func() {
			j.progress = countProgressJSON{N: j.n, Engine: jobEngine(j.n, j.spec), UnitsDone: done, Units: units, Nodes: nodes, Seconds: seconds(elapsed)}
		})
	}
	var result any
	var err error
	if j.spec != nil {
		var res variant.Result
		res, err = variant.Count(yielding(ctx), *j.spec, variant.Options{
			Workers:       s.cfg.CountWorkers,
			ProgressEvery: 200 * time.Millisecond,
			Progress:      func(p variant.Progress) { progress(p.UnitsDone, p.Units, p.Nodes, p.Elapsed) },
		})
		r := variantResultJSON{ResultJSON: res.JSON(), Engine: engineVariant}
		r.Seconds = seconds(res.Elapsed)
		result = &r
	} else {
		var res count.Result
		res, err = count.Count(yielding(ctx), j.n, count.Options{
			Workers:       s.cfg.CountWorkers,
			ProgressEvery: 200 * time.Millisecond,
			Progress:      func(p count.Progress) { progress(p.UnitsDone, p.Units, p.Nodes, p.Elapsed) },
		})
		r := countResultJSON{ResultJSON: res.JSON(), Engine: count.Engine(j.n)}
		r.Seconds = seconds(res.Elapsed)
		result = &r
	}
	j.update(func() {
		switch {
		case err == nil:
			j.state = stateDone
			j.result = result
		case ctx.Err() != nil:
			j.state = stateCancelled
			j.why = context.Cause(ctx)
			if errors.Is(j.why, context.Canceled) {
				j.why = errCountShutdown
			}
			j.reason = j.why.Error()
		default:
			j.state = stateFailed
			j.why, j.reason = err, err.Error()
		}
	})
	s.log.Info("count job ended", "id", j.id, "n", j.n, "state", j.state, "reason", j.reason)
}

// countJobOf is the job a request's path names ({id}); these requests take
// no query parameters.
func (s *Server) countJobOf(r *http.Request) (*countJob, error) {
	if _, err := query(r); err != nil {
		return nil, err
	}
	return s.counts.get(r.PathValue("id"))
}

func (s *Server) handleCountStatus(w http.ResponseWriter, r *http.Request) error {
	j, err := s.countJobOf(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, j.statusIn(i18n.Ctx(r.Context())))
}

func (s *Server) handleCountCancel(w http.ResponseWriter, r *http.Request) error {
	j, err := s.countJobOf(r)
	if err != nil {
		return err
	}
	j.cancel(errDeleted)
	// Wait briefly for the workers to stop, so that the answer says so.
	timeout := time.After(5 * time.Second)
	for {
		j.mu.Lock()
		state, changed := j.state, j.changed
		j.mu.Unlock()
		if state != stateRunning {
			break
		}
		select {
		case <-changed:
		case <-timeout:
			return writeJSON(w, http.StatusAccepted, j.statusIn(i18n.Ctx(r.Context())))
		case <-r.Context().Done():
			return r.Context().Err()
		}
	}
	return writeJSON(w, http.StatusOK, j.statusIn(i18n.Ctx(r.Context())))
}

// handleCountEvents streams "progress" events (at most every 200 ms) and
// ends with one "result" event, or a "stopped" event for a job cancelled or
// failed. A client that connects after the end gets the end at once. A
// stream cut off by the stream time limit while the job runs ends with an
// "error" event; connecting again follows the job on.
func (s *Server) handleCountEvents(w http.ResponseWriter, r *http.Request) error {
	j, err := s.countJobOf(r)
	if err != nil {
		return err
	}
	defer j.listen(s.cfg.CountIdle)()
	say := i18n.Ctx(r.Context())
	es := startEventStream(w, r)
	defer es.close()
	for {
		j.mu.Lock()
		state, p, res, reason, changed := j.state, j.progress, j.result, j.reasonIn(say), j.changed
		j.mu.Unlock()
		switch state {
		case stateRunning:
			if err := es.sendNow("progress", p); err != nil {
				return err
			}
		case stateDone:
			if err := es.send("progress", p); err != nil {
				return err
			}
			return es.sendNow("result", res)
		default:
			return es.sendNow("stopped", stoppedEvent(say, state, reason))
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			// The stream's own time limit, the client left, or the server
			// is stopping, in which case the job has ended first: say so.
			j.mu.Lock()
			state, reason := j.state, j.reasonIn(say)
			j.mu.Unlock()
			switch {
			case state == stateCancelled || state == stateFailed:
				es.sendNow("stopped", stoppedEvent(say, state, reason))
			case errors.Is(r.Context().Err(), context.DeadlineExceeded):
				es.sendNow("error", streamTimeoutEvent(say.T("count.stream.time", i18n.Args{"Limit": s.cfg.StreamTimeout.String()})))
			}
			return r.Context().Err()
		}
	}
}

// stoppedEvent is the data of a "stopped" event.
func stoppedEvent(p *i18n.Printer, state, reason string) map[string]string {
	key := "count.stopped.cancelled"
	if state == stateFailed {
		key = "count.stopped.failed"
	}
	return map[string]string{"state": state, "error": p.T(key, i18n.Args{"Reason": reason})}
}

// reasonIn is why the job stopped, in p's language as far as its error
// can say it (call with j.mu held).
func (j *countJob) reasonIn(p *i18n.Printer) string {
	if j.why == nil {
		return j.reason
	}
	return p.Err(j.why)
}

// seconds is d in seconds, to the millisecond.
func seconds(d time.Duration) float64 { return math.Round(d.Seconds()*1000) / 1000 }
