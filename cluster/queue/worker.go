package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/seal"
)

// WorkerOptions tune [Work]. The zero value is usable.
type WorkerOptions struct {
	// Workers is the number of blocks counted at once (default GOMAXPROCS).
	Workers int
	// Name labels the worker in results and messages (default host:pid).
	// It is a label only: a quorum counts credentials (Identity), not
	// names.
	Name string
	// Key seals every result: the pool's seal key, the coordinator's
	// (required).
	Key *seal.Key
	// Identity signs every result: the credential the worker connects
	// with ([LoadIdentity]); the zero value is the shared credential.
	Identity Identity
	// IdleExit makes Work return once no run has had work for this long;
	// 0 means serve until ctx ends.
	IdleExit time.Duration
	// Log receives failures, alarms and bans, and at the debug level a
	// record when each block starts and ends. Nil discards them.
	Log *slog.Logger
}

// WorkerReport sums up what a worker did.
type WorkerReport struct {
	Units      int      // units whose results this worker stored
	Duplicates int      // units counted again with the same results (redeliveries)
	Conflicts  int      // blocks counted again with different results (alarms)
	Declined   int      // block copies left to others: a quorum needs different workers
	Failures   int      // blocks whose count or storing failed
	Discarded  int      // block messages the run's coordinator did not seal (forged), removed
	Banned     []string // runs whose coordinator banned this worker
	Refused    []Refusal
}

// Refusal is a run whose coordinator refused the results this worker
// stored, and why: they can never count, so the worker left the run.
type Refusal struct{ Run, Reason string }

// Work serves every run it finds on the server reached through nc: it
// pulls block messages from the runs' shared consumers, counts the units of
// each block, stores its result under a key naming the block and this
// worker with a create-only write, and only then acknowledges the message,
// reporting progress at a third of the ack wait so that long blocks are not
// delivered twice. A copy of a block this worker already counted is left to
// another worker when the run needs several workers' results (a quorum),
// and acknowledged otherwise (its result is stored). A block whose count
// fails is reported in the bucket and handed back for another attempt. A
// worker the coordinator banned stops taking that run's blocks. Work
// returns when ctx ends (blocks in hand are handed back at once) or, with
// IdleExit, when the work has run out. Runs of another engine version are
// skipped.
func Work(ctx context.Context, nc *nats.Conn, o WorkerOptions) (WorkerReport, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return WorkerReport{}, err
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Name == "" {
		host, _ := os.Hostname()
		o.Name = host + ":" + strconv.Itoa(os.Getpid())
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Key == nil {
		return WorkerReport{}, errors.New("a worker needs the pool's seal key")
	}
	if err := CheckName(o.Name); err != nil {
		return WorkerReport{}, err
	}
	w := &worker{js: js, o: o, token: o.Identity.token(o.Name), runs: map[string]*runHandle{}, skipped: map[string]bool{},
		inHand: map[string]bool{}, declined: map[string]int{}, votedIn: map[string]*runHandle{}, idle: &idleClock{exit: o.IdleExit, lastWork: time.Now()}}
	w.requeue, w.spread = w.giveBack, spreadRest
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var idle atomic.Bool

	active, _ := w.discover(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		switch err := w.watch(ctx, active, func(ctx context.Context) (int, bool, error) {
			if nc.IsClosed() {
				return 0, false, closedError(nc)
			}
			if !nc.IsConnected() {
				return 0, false, nil // no server: nothing to do, and a request would only time out
			}
			active, known := w.discover(ctx)
			return active, known, nil
		}); {
		case err == errIdle:
			idle.Store(true)
			cancel(nil)
		case err != nil:
			cancel(err)
		}
	})
	for range o.Workers {
		wg.Go(func() { w.slot(ctx) })
	}
	wg.Wait()
	w.held.Wait()
	if idle.Load() {
		// The coordinator may have refused the last results since the
		// last look; a worker that leaves says so.
		lctx, cancel := context.WithTimeout(context.Background(), lastLook)
		for _, h := range w.votedRuns() {
			w.refused(lctx, h)
		}
		cancel()
	}
	w.mu.Lock()
	rep := w.rep
	w.mu.Unlock()
	if idle.Load() {
		return rep, nil
	}
	return rep, context.Cause(ctx)
}

type runHandle struct {
	run     Run
	cons    jetstream.Consumer
	kv      jetstream.KeyValue
	ackWait time.Duration
	active  bool      // the stream holds messages
	present time.Time // when this worker last stored its presence record
	// The bucket revision of this worker's first result stored in the
	// run in this session (0: none yet), and whether the coordinator
	// refused its results; under worker.mu.
	firstVote uint64
	refused   bool
}

type worker struct {
	js    jetstream.JetStream
	o     WorkerOptions
	token string         // the identity's bucket key token
	idle  *idleClock     // IdleExit
	held  sync.WaitGroup // declined copies waiting to be queued again
	// requeue gives a declined copy back (giveBack; a test's own on the
	// fake clock of pace_test.go).
	requeue func(h *runHandle, msg jetstream.Msg)
	// spread draws the rest of a declined copy from its longest
	// (spreadRest; none when nil).
	spread func(time.Duration) time.Duration
	gate   fetchGate // between the slots' fetches and the hand-backs of declined copies
	rate   rateLog   // what peers can make the worker say at will

	mu       sync.Mutex
	runs     map[string]*runHandle // by stream name
	skipped  map[string]bool
	inHand   map[string]bool       // blocks some slot is counting, by subject
	declined map[string]int        // times this worker declined each block, by subject
	votedIn  map[string]*runHandle // runs this worker stored results in, by stream name
	rep      WorkerReport
}

// errIdle ends watch when the worker has been idle for IdleExit.
var errIdle = errors.New("idle")

// watch looks for runs with look every discoverIdle, or every
// discoverBusy while some have work (active, at the start), until ctx
// ends (nil), look fails (its error), or the worker has been idle for
// IdleExit (errIdle; see idleClock). look returns the runs with work, and
// known false when the server did not answer.
func (w *worker) watch(ctx context.Context, active int, look func(context.Context) (active int, known bool, err error)) error {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		if active == 0 {
			t.Reset(discoverIdle)
		} else {
			t.Reset(discoverBusy)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		var known bool
		var err error
		if active, known, err = look(ctx); err != nil {
			return err
		}
		if w.idle.look(time.Now(), active, known) {
			return errIdle
		}
	}
}

// discover refreshes the list of runs and returns how many have messages;
// known is false when the server did not answer. It stores this worker's
// presence record in each run with work, every presenceEvery.
func (w *worker) discover(ctx context.Context) (active int, known bool) {
	lister := w.js.ListStreams(ctx, jetstream.WithStreamListSubject("nqueens.>"))
	seen := map[string]bool{}
	for info := range lister.Info() {
		name := info.Config.Name
		seen[name] = true
		w.mu.Lock()
		h, known := w.runs[name]
		skipped := w.skipped[name]
		w.mu.Unlock()
		if skipped {
			continue
		}
		if !known {
			h = w.open(ctx, name, info.Config.Metadata)
			if h == nil {
				continue
			}
		}
		w.mu.Lock()
		h.active = info.State.Msgs > 0
		w.runs[name] = h
		w.mu.Unlock()
		if h.active {
			active++
			w.present(ctx, h)
		}
	}
	if lister.Err() != nil {
		return 0, false
	}
	w.mu.Lock()
	for name := range w.runs {
		if !seen[name] {
			delete(w.runs, name)
		}
	}
	w.mu.Unlock()
	return active, true
}

// present stores this worker's presence record in h's bucket, at most
// every presenceEvery.
func (w *worker) present(ctx context.Context, h *runHandle) {
	if time.Since(h.present) < presenceEvery {
		return
	}
	h.present = time.Now()
	v, err := w.o.Key.Seal(presence{Worker: w.o.Name, Voter: w.o.Identity.pub, At: time.Now().UTC()})
	if err == nil {
		_, err = h.kv.Put(ctx, presenceKey(w.token), v)
	}
	if err != nil {
		w.o.Log.Warn("cannot store this worker's presence", "run", h.run.ID, "error", err)
	}
	if !w.banned(ctx, h) {
		w.refused(ctx, h)
	}
}

// lastLook bounds the look for refusals of a worker that leaves.
const lastLook = 2 * time.Second

// stored records that this worker stored a result in h's run at bucket
// revision rev (0: none stored).
func (w *worker) stored(h *runHandle, rev uint64) {
	if rev == 0 {
		return
	}
	w.mu.Lock()
	if h.firstVote == 0 {
		h.firstVote = rev
		w.votedIn[h.run.Stream] = h
	}
	w.mu.Unlock()
}

func (w *worker) votedRuns() []*runHandle {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []*runHandle
	for _, h := range w.votedIn {
		out = append(out, h)
	}
	return out
}

// refused reports whether the coordinator refused a result that this
// worker stored in h's run in this session (a refusal record written
// after its first one), and then leaves the run, saying why: its results
// can never count there (stored under another seal key than the
// coordinator's, or signed by an NKey that is not among the voters).
func (w *worker) refused(ctx context.Context, h *runHandle) bool {
	w.mu.Lock()
	first, done := h.firstVote, h.refused
	w.mu.Unlock()
	if first == 0 || done {
		return false
	}
	e, err := h.kv.Get(ctx, refusedKey(w.token))
	if err != nil || e.Revision() < first {
		return false
	}
	var r refusal
	if json.Unmarshal(e.Value(), &r) != nil || r.Reason == "" {
		return false
	}
	w.o.Log.Error("the coordinator refuses this worker's results; leaving the run", "run", h.run.ID, "worker", w.o.Name, "reason", r.Reason)
	w.mu.Lock()
	h.refused = true
	w.rep.Refused = append(w.rep.Refused, Refusal{Run: h.run.ID, Reason: r.Reason})
	w.mu.Unlock()
	w.skip(h.run.Stream)
	return true
}

// open joins the run of stream name, or returns nil: a run of another
// engine is skipped for good, one not ready yet is tried again later.
func (w *worker) open(ctx context.Context, name string, md map[string]string) *runHandle {
	run, err := runFromMetadata(name, md)
	if err != nil {
		w.o.Log.Warn("skipping a stream", "stream", name, "error", err)
		w.skip(name)
		return nil
	}
	if id := md[metaSealKey]; id != "" && id != w.o.Key.ID() {
		// Every block would be refused as forged, every result as sealed
		// under the wrong key.
		reason := fmt.Sprintf("the run's coordinator seals blocks and opens results with key %s, and this worker has key %s: give it a copy of the coordinator's seal key (--key-file)", clip(id), w.o.Key.ID())
		w.o.Log.Error("this worker cannot take part in a run; skipping it", "run", run.ID, "reason", reason)
		w.count(func(r *WorkerReport) { r.Refused = append(r.Refused, Refusal{Run: run.ID, Reason: reason}) })
		w.skip(name)
		return nil
	}
	cons, err := w.js.Consumer(ctx, name, consumer)
	if err != nil {
		return nil
	}
	kv, err := w.js.KeyValue(ctx, run.Bucket)
	if err != nil {
		return nil
	}
	return &runHandle{run: run, cons: cons, kv: kv, ackWait: cons.CachedInfo().Config.AckWait}
}

// skip leaves the run of stream name for good, and reports whether it was
// still being served.
func (w *worker) skip(name string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	was := !w.skipped[name]
	w.skipped[name] = true
	delete(w.runs, name)
	return was
}

func (w *worker) activeRuns() []*runHandle {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []*runHandle
	for _, h := range w.runs {
		if h.active {
			out = append(out, h)
		}
	}
	// Smallest N first: finish one run before starting the next.
	slices.SortFunc(out, func(a, b *runHandle) int { return a.run.N - b.run.N })
	return out
}

// slot counts one block at a time until ctx ends.
func (w *worker) slot(ctx context.Context) {
	for ctx.Err() == nil {
		got, answered := false, true
		for _, h := range w.activeRuns() {
			msg, ok := w.fetch(h)
			answered = answered && ok
			if msg != nil {
				got = true
				w.idle.worked(time.Now())
				w.handle(ctx, h, msg)
				w.idle.worked(time.Now())
				break
			}
		}
		if !got && answered {
			w.idle.empty() // every run the server had answered: nothing
		}
		if !got {
			select {
			case <-ctx.Done():
			case <-time.After(discoverIdle):
			}
		}
	}
}

// fetch asks h's consumer for a block message, waiting up to fetchWait,
// unless a declined copy is being handed back (then it waits for that
// first). msg is nil when none came; answered is false when the server
// did not answer.
func (w *worker) fetch(h *runHandle) (msg jetstream.Msg, answered bool) {
	w.gate.beginFetch()
	defer func() { w.gate.endFetch(msg != nil) }()
	batch, err := h.cons.Fetch(1, jetstream.FetchMaxWait(fetchWait))
	if err != nil {
		return nil, false
	}
	for m := range batch.Messages() {
		msg = m
	}
	return msg, msg != nil || batch.Error() == nil
}

func (w *worker) count(f func(*WorkerReport)) {
	w.mu.Lock()
	f(&w.rep)
	w.mu.Unlock()
}
