package cluster

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
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/faults"
)

// WorkerOptions tune [Work]. The zero value is usable.
type WorkerOptions struct {
	// Workers is the number of blocks counted at once (default GOMAXPROCS).
	Workers int
	// Name identifies the worker in results and failure reports (default
	// host:pid). A quorum needs workers with different names.
	Name string
	// IdleExit makes Work return once no run has had work for this long;
	// 0 means serve until ctx ends.
	IdleExit time.Duration
	// Log receives failures, alarms and bans, and with Verbose a record
	// when each block starts and ends. Nil discards them.
	Log     *slog.Logger
	Verbose bool
}

// WorkerReport sums up what a worker did.
type WorkerReport struct {
	Units      int      // units whose results this worker stored
	Duplicates int      // units counted again with the same results (redeliveries)
	Conflicts  int      // blocks counted again with different results (alarms)
	Declined   int      // block copies left to others: a quorum needs different workers
	Failures   int      // blocks whose count or storing failed
	Banned     []string // runs whose coordinator banned this worker
}

// Timing of the worker's loops.
const (
	discoverIdle = 250 * time.Millisecond // look for runs this often while idle
	discoverBusy = 2 * time.Second        // and this often while busy
	fetchWait    = time.Second            // longest wait for a block message
	declineDelay = 250 * time.Millisecond // a slot rests after declining a copy
	failDelay    = 2 * time.Second        // before a failed block is offered again
	storeRetry   = 500 * time.Millisecond // between attempts to store a result
)

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
	w := &worker{js: js, o: o, runs: map[string]*runHandle{}, skipped: map[string]bool{}, inHand: map[string]bool{}}
	w.lastWork.Store(time.Now().UnixNano())
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var idle atomic.Bool

	active := w.discover(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
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
				return
			case <-t.C:
			}
			if nc.IsConnected() {
				active = w.discover(ctx)
			} else {
				active = 0 // no server: nothing to do, and a request would only time out
			}
			if o.IdleExit > 0 && active == 0 && time.Since(time.Unix(0, w.lastWork.Load())) > o.IdleExit {
				idle.Store(true)
				cancel()
				return
			}
		}
	})
	for range o.Workers {
		wg.Go(func() { w.slot(ctx) })
	}
	wg.Wait()
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
	active  bool // the stream holds messages
}

type worker struct {
	js       jetstream.JetStream
	o        WorkerOptions
	held     atomic.Bool
	lastWork atomic.Int64

	mu      sync.Mutex
	runs    map[string]*runHandle // by stream name
	skipped map[string]bool
	inHand  map[string]bool // blocks some slot is counting, by subject
	rep     WorkerReport
}

func (w *worker) log(msg string) { w.o.Log.Info(msg) }

func (w *worker) logf(format string, args ...any) { w.log(fmt.Sprintf(format, args...)) }

// discover refreshes the list of runs and returns how many have messages.
func (w *worker) discover(ctx context.Context) int {
	lister := w.js.ListStreams(ctx, jetstream.WithStreamListSubject("nqueens.>"))
	seen := map[string]bool{}
	active := 0
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
		}
	}
	if lister.Err() != nil {
		return 0
	}
	w.mu.Lock()
	for name := range w.runs {
		if !seen[name] {
			delete(w.runs, name)
		}
	}
	w.mu.Unlock()
	return active
}

// open joins the run of stream name, or returns nil: a run of another
// engine is skipped for good, one not ready yet is tried again later.
func (w *worker) open(ctx context.Context, name string, md map[string]string) *runHandle {
	run, err := runFromMetadata(name, md)
	if err != nil {
		w.logf("skipping stream %s: %v", name, err)
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

func (w *worker) skip(name string) {
	w.mu.Lock()
	w.skipped[name] = true
	delete(w.runs, name)
	w.mu.Unlock()
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
		got := false
		for _, h := range w.activeRuns() {
			batch, err := h.cons.Fetch(1, jetstream.FetchMaxWait(fetchWait))
			if err != nil {
				continue
			}
			for msg := range batch.Messages() {
				got = true
				w.lastWork.Store(time.Now().UnixNano())
				w.handle(ctx, h, msg)
				w.lastWork.Store(time.Now().UnixNano())
			}
			if got {
				break
			}
		}
		if !got {
			select {
			case <-ctx.Done():
			case <-time.After(discoverIdle):
			}
		}
	}
}

// handle counts the block of msg and settles the message.
func (w *worker) handle(ctx context.Context, h *runHandle, msg jetstream.Msg) {
	meta, err := msg.Metadata()
	if err != nil {
		w.logf("message on %s has no metadata: %v", msg.Subject(), err)
		_ = msg.Nak()
		return
	}
	b, err := w.job(h, msg)
	if err != nil {
		// Not a block: let it run out of deliveries, so the coordinator
		// reports it.
		w.log(err.Error())
		w.count(func(r *WorkerReport) { r.Failures++ })
		_ = msg.NakWithDelay(failDelay)
		return
	}
	if w.banned(ctx, h) {
		_ = msg.Nak()
		return
	}
	// Another slot may be counting a copy of the same block right now.
	if !w.take(msg.Subject()) {
		w.decline(ctx, msg)
		return
	}
	defer w.release(msg.Subject())
	if _, err := h.kv.Get(ctx, voteKey(b, w.o.Name)); err == nil {
		// This worker counted the block already: a quorum needs another
		// worker's count; otherwise the result is stored and the message
		// (a redelivery after a lost ack) is done.
		if h.run.Replicas > 1 {
			w.decline(ctx, msg)
		} else {
			_ = msg.Ack()
		}
		return
	}
	if w.o.Verbose {
		w.logf("%s of run %s: started (attempt %d)", b, h.run.ID, meta.NumDelivered)
	}
	stopBeat := w.beat(ctx, h, msg)
	defer stopBeat()
	w.holdFirst(ctx, b)
	t0 := time.Now()
	v := vote{N: h.run.N, First: b.First, Last: b.Last, Units: make([]count.UnitResult, 0, b.Len()),
		Worker: w.o.Name, Delivered: meta.NumDelivered}
	for u := b.First; u <= b.Last; u++ {
		r, err := count.CountUnit(ctx, h.run.N, u)
		if ctx.Err() != nil {
			_ = msg.Nak() // hand it back at once
			return
		}
		if err != nil {
			w.fail(ctx, h, msg, meta, b, err)
			return
		}
		faults.Corrupt(&r)
		v.Units = append(v.Units, r)
	}
	v.Seconds, v.At = time.Since(t0).Seconds(), time.Now().UTC()
	w.settle(ctx, h, msg, meta, v)
}

// decline hands a block copy this worker may not count to another worker:
// it queues a fresh copy and acknowledges this one, so that declines do not
// use up the message's deliveries, then keeps this slot off the queue for a
// moment, so that another worker takes the copy.
func (w *worker) decline(ctx context.Context, msg jetstream.Msg) {
	w.count(func(r *WorkerReport) { r.Declined++ })
	id := fmt.Sprintf("%s.declined.%s.%d", msg.Subject(), workerID(w.o.Name), time.Now().UnixNano())
	if _, err := w.js.Publish(ctx, msg.Subject(), msg.Data(), jetstream.WithMsgID(id)); err != nil {
		_ = msg.NakWithDelay(declineDelay)
	} else {
		_ = msg.Ack()
	}
	select {
	case <-ctx.Done():
	case <-time.After(declineDelay):
	}
}

// take marks the block of subject as being counted by a slot, unless one
// already counts it.
func (w *worker) take(subject string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.inHand[subject] {
		return false
	}
	w.inHand[subject] = true
	return true
}

func (w *worker) release(subject string) {
	w.mu.Lock()
	delete(w.inHand, subject)
	w.mu.Unlock()
}

// job reads the block of msg, checking that subject and body agree.
func (w *worker) job(h *runHandle, msg jetstream.Msg) (Block, error) {
	_, b, err := h.run.blockOf(msg.Subject())
	if err != nil {
		return Block{}, err
	}
	var job blockJob
	if jerr := json.Unmarshal(msg.Data(), &job); jerr != nil || job.N != h.run.N || job.First != b.First || job.Last != b.Last || job.Replicas != h.run.Replicas {
		return Block{}, fmt.Errorf("message body %q does not match subject %s", msg.Data(), msg.Subject())
	}
	return b, nil
}

// banned reports whether the coordinator banned this worker from h's run,
// and then leaves the run.
func (w *worker) banned(ctx context.Context, h *runHandle) bool {
	e, err := h.kv.Get(ctx, bannedKey(w.o.Name))
	if err != nil {
		return false
	}
	var b ban
	_ = json.Unmarshal(e.Value(), &b)
	w.logf("ALARM: the coordinator of run %s banned this worker (%s): %s; leaving the run", h.run.ID, w.o.Name, b.Reason)
	w.count(func(r *WorkerReport) { r.Banned = append(r.Banned, h.run.ID) })
	w.skip(h.run.Stream)
	return true
}

// beat reports progress while a block runs, so the server does not hand it
// to another worker after the ack wait. It returns the function that stops
// it.
func (w *worker) beat(ctx context.Context, h *runHandle, msg jetstream.Msg) func() {
	beat, stop := context.WithCancel(ctx)
	var beating sync.WaitGroup
	beating.Go(func() {
		t := time.NewTicker(max(h.ackWait/3, 10*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-beat.Done():
				return
			case <-t.C:
				_ = msg.InProgress()
			}
		}
	})
	return func() { stop(); beating.Wait() }
}

// holdFirst holds the first block a test build's worker takes, reporting
// progress meanwhile (see internal/faults).
func (w *worker) holdFirst(ctx context.Context, b Block) {
	hold := faults.HoldFirst()
	if hold <= 0 || !w.held.CompareAndSwap(false, true) {
		return
	}
	w.logf("fault injection: holding %s (first %d) for %s", b, b.First, hold)
	select {
	case <-ctx.Done():
	case <-time.After(hold):
	}
}

// settle stores the vote and acknowledges the message.
func (w *worker) settle(ctx context.Context, h *runHandle, msg jetstream.Msg, meta *jetstream.MsgMetadata, v vote) {
	b := v.block()
	dup, err := w.store(ctx, h, v)
	var conflict *ConflictError
	switch {
	case errors.As(err, &conflict):
		w.logf("ALARM: %v", err)
		w.count(func(r *WorkerReport) { r.Conflicts++ })
	case err != nil:
		if ctx.Err() != nil {
			_ = msg.Nak()
			return
		}
		w.fail(ctx, h, msg, meta, b, err)
		return
	case dup:
		w.count(func(r *WorkerReport) { r.Duplicates += b.Len() })
	default:
		w.count(func(r *WorkerReport) { r.Units += b.Len() })
	}
	// Only now is the result safe; a lost ack merely redelivers the block.
	_ = msg.Ack()
	if w.o.Verbose {
		var total uint64
		for _, u := range v.Units {
			total += u.Total
		}
		w.logf("%s of run %s: done in %.3fs (total %d)", b, h.run.ID, v.Seconds, total)
	}
}

// store records a vote, retrying while the server is out of reach (a
// restarting coordinator with its embedded server): the count is done, and
// the message stays ours until the ack wait runs out. It gives up after two
// ack waits, when the block has surely gone to another worker.
func (w *worker) store(ctx context.Context, h *runHandle, v vote) (bool, error) {
	deadline := time.Now().Add(max(2*h.ackWait, 10*time.Second))
	for {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		dup, err := storeVote(rctx, h.kv, v)
		cancel()
		var conflict *ConflictError
		if err == nil || errors.As(err, &conflict) || ctx.Err() != nil || time.Now().After(deadline) {
			return dup, err
		}
		w.logf("%s of run %s: storing the result failed, retrying: %v", v.block(), h.run.ID, err)
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(storeRetry):
		}
	}
}

// fail reports a failed block in the bucket and hands it back.
func (w *worker) fail(ctx context.Context, h *runHandle, msg jetstream.Msg, meta *jetstream.MsgMetadata, b Block, cause error) {
	w.count(func(r *WorkerReport) { r.Failures++ })
	w.logf("%s of run %s failed (attempt %d): %v", b, h.run.ID, meta.NumDelivered, cause)
	f := failure{First: b.First, Last: b.Last, Error: cause.Error(), Worker: w.o.Name, Delivered: meta.NumDelivered, StreamSeq: meta.Sequence.Stream}
	v, _ := json.Marshal(f)
	if _, err := h.kv.Put(ctx, failedKey(b), v); err != nil {
		w.logf("%s: cannot record the failure: %v", b, err)
	}
	_ = msg.NakWithDelay(failDelay)
}

func (w *worker) count(f func(*WorkerReport)) {
	w.mu.Lock()
	f(&w.rep)
	w.mu.Unlock()
}

// storeVote stores a worker's result for a block with a create-only write
// under a key naming both. When one is already there (the same worker
// counted the block twice), an equal result is a harmless duplicate (dup
// is true); a different one is stored as an alarm, which bans the worker,
// and returned as one *ConflictError per differing unit (joined). Cost: one
// or three round trips.
func storeVote(ctx context.Context, kv jetstream.KeyValue, v vote) (dup bool, err error) {
	val, err := json.Marshal(v)
	if err != nil {
		return false, err
	}
	b := v.block()
	key := voteKey(b, v.Worker)
	if _, err = kv.Create(ctx, key, val); err == nil {
		return false, nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return false, fmt.Errorf("storing %s: %w", b, err)
	}
	e, err := kv.Get(ctx, key)
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", b, err)
	}
	var first vote
	if err := json.Unmarshal(e.Value(), &first); err != nil {
		return false, fmt.Errorf("%s: stored result is malformed: %v", b, err)
	}
	if sameUnits(first.Units, v.Units) {
		return true, nil
	}
	a := alarm{First: first, Second: v}
	av, _ := json.Marshal(a)
	if _, err := kv.Put(ctx, alarmKey(b, uint64(time.Now().UnixNano())), av); err != nil {
		return false, fmt.Errorf("%s has two different results, and the alarm could not be stored: %v", b, err)
	}
	return false, errors.Join(a.conflicts()...)
}

// conflicts returns one *ConflictError per unit whose results differ.
func (a alarm) conflicts() []error {
	var out []error
	for k := range min(len(a.First.Units), len(a.Second.Units)) {
		x, y := a.First.Units[k], a.Second.Units[k]
		if x != y {
			out = append(out, &ConflictError{N: a.First.N, Unit: x.Index, First: x, Second: y,
				FirstAt: Source{Path: "worker " + a.First.Worker}, SecAt: Source{Path: "worker " + a.Second.Worker}})
		}
	}
	if len(out) == 0 {
		out = append(out, fmt.Errorf("results of %s by worker %s disagree in shape", a.First.block(), a.First.Worker))
	}
	return out
}
