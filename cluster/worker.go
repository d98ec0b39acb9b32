package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
)

// WorkerOptions tune [Work]. The zero value is usable.
type WorkerOptions struct {
	// Workers is the number of units counted at once (default GOMAXPROCS).
	Workers int
	// Name identifies the worker in results and failure reports (default
	// host:pid).
	Name string
	// IdleExit makes Work return once no run has had work for this long;
	// 0 means serve until ctx ends.
	IdleExit time.Duration
	// Log, if set, receives failures and alarms, and with Verbose a line
	// when each unit starts and ends.
	Log     func(string)
	Verbose bool
}

// WorkerReport sums up what a worker did.
type WorkerReport struct {
	Units      int // results stored first
	Duplicates int // units counted again with the same result (redeliveries)
	Conflicts  int // units counted again with a different result (alarms)
	Failures   int
}

// HoldEnv is a test hook, read by [Work]: when set to a duration, the
// worker holds the first unit it takes for that long before counting it,
// reporting progress meanwhile. The cluster tests use it to kill a worker
// while it owns a unit and to check that progress reports prevent an early
// redelivery. It has no use in production.
const HoldEnv = "NQUEENS_TEST_HOLD_FIRST_UNIT"

// Work serves every run it finds on the server reached through nc: it
// pulls unit messages from the runs' shared consumers, counts each unit,
// stores the result create-only ([RecordResult]) and only then
// acknowledges the message, reporting progress at a third of the ack wait
// so that long units are not delivered twice. A unit whose count fails is
// reported in the bucket and handed back for another attempt. Work returns
// when ctx ends (units in hand are handed back at once) or, with IdleExit,
// when the work has run out. Runs of another engine version are skipped.
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
	w := &worker{js: js, o: o, runs: map[string]*runHandle{}, skipped: map[string]bool{}}
	if d, err := time.ParseDuration(os.Getenv(HoldEnv)); err == nil && d > 0 {
		w.hold = d
	}
	w.lastWork.Store(time.Now().UnixNano())
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var idle atomic.Bool

	w.discover(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			active := w.discover(ctx)
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
	hold     time.Duration
	held     atomic.Bool
	lastWork atomic.Int64

	mu      sync.Mutex
	runs    map[string]*runHandle // by stream name
	skipped map[string]bool
	rep     WorkerReport
}

func (w *worker) logf(format string, args ...any) {
	if w.o.Log != nil {
		w.o.Log(fmt.Sprintf(format, args...))
	}
}

// discover refreshes the list of runs and returns how many have messages.
func (w *worker) discover(ctx context.Context) int {
	lister := w.js.ListStreams(ctx, jetstream.WithStreamListSubject("nqueens.>"))
	seen := map[string]bool{}
	active := 0
	for info := range lister.Info() {
		md := info.Config.Metadata
		n, err := strconv.Atoi(md[metaN])
		if err != nil || n < 1 || n > count.MaxN {
			continue
		}
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
			run := RunFor(n)
			if md[metaFingerprint] != run.Fingerprint || run.Stream != name {
				w.logf("skipping stream %s: its run (%s) is not this engine's (%s)", name, md[metaFingerprint], run.Fingerprint)
				w.mu.Lock()
				w.skipped[name] = true
				w.mu.Unlock()
				continue
			}
			cons, err := w.js.Consumer(ctx, name, Consumer)
			if err != nil {
				continue
			}
			kv, err := w.js.KeyValue(ctx, run.Bucket)
			if err != nil {
				continue
			}
			h = &runHandle{run: run, cons: cons, kv: kv, ackWait: cons.CachedInfo().Config.AckWait}
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

func (w *worker) activeRuns() []*runHandle {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []*runHandle
	for _, h := range w.runs {
		if h.active {
			out = append(out, h)
		}
	}
	// Oldest N first: finish one run before starting the next.
	slices.SortFunc(out, func(a, b *runHandle) int { return a.run.N - b.run.N })
	return out
}

// slot counts one unit at a time until ctx ends.
func (w *worker) slot(ctx context.Context) {
	for ctx.Err() == nil {
		got := false
		for _, h := range w.activeRuns() {
			batch, err := h.cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
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
			case <-time.After(250 * time.Millisecond):
			}
		}
	}
}

// handle counts the unit of msg and settles the message.
func (w *worker) handle(ctx context.Context, h *runHandle, msg jetstream.Msg) {
	meta, err := msg.Metadata()
	if err != nil {
		w.logf("message on %s has no metadata: %v", msg.Subject(), err)
		_ = msg.Nak()
		return
	}
	u, err := h.run.unitOf(msg.Subject())
	var job unitJob
	if err == nil {
		if jerr := json.Unmarshal(msg.Data(), &job); jerr != nil || job.N != h.run.N || job.Unit != u {
			err = fmt.Errorf("message body %q does not match subject %s", msg.Data(), msg.Subject())
		}
	}
	if err != nil {
		// Not a unit: let it run out of deliveries, so the coordinator
		// reports it.
		w.logf("%v", err)
		w.count(func(r *WorkerReport) { r.Failures++ })
		_ = msg.NakWithDelay(time.Second)
		return
	}
	if w.o.Verbose {
		w.logf("unit %d of run %s: started (attempt %d)", u, h.run.ID, meta.NumDelivered)
	}

	// Report progress while the unit runs, so the server does not hand it
	// to another worker after the ack wait.
	beat, stopBeat := context.WithCancel(ctx)
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
	defer func() { stopBeat(); beating.Wait() }()

	if w.hold > 0 && w.held.CompareAndSwap(false, true) {
		w.logf("test hook %s: holding unit %d for %s", HoldEnv, u, w.hold)
		select {
		case <-ctx.Done():
		case <-time.After(w.hold):
		}
	}
	t0 := time.Now()
	r, err := count.CountUnit(ctx, h.run.N, u)
	if ctx.Err() != nil {
		_ = msg.Nak() // hand it back at once
		return
	}
	if err != nil {
		w.fail(ctx, h, msg, meta, u, err)
		return
	}
	rec := UnitRecord{UnitResult: r, N: h.run.N, Seconds: time.Since(t0).Seconds(), Worker: w.o.Name,
		Delivered: meta.NumDelivered, At: time.Now().UTC()}
	dup, err := RecordResult(ctx, h.kv, rec)
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
		w.fail(ctx, h, msg, meta, u, err)
		return
	case dup:
		w.count(func(r *WorkerReport) { r.Duplicates++ })
	default:
		w.count(func(r *WorkerReport) { r.Units++ })
	}
	// Only now is the result safe; a lost ack merely redelivers the unit,
	// and the next result is a duplicate.
	_ = msg.Ack()
	if w.o.Verbose {
		w.logf("unit %d of run %s: done in %.3fs (total %d)", u, h.run.ID, rec.Seconds, r.Total)
	}
}

// fail reports a failed unit in the bucket and hands it back.
func (w *worker) fail(ctx context.Context, h *runHandle, msg jetstream.Msg, meta *jetstream.MsgMetadata, u int, cause error) {
	w.count(func(r *WorkerReport) { r.Failures++ })
	w.logf("unit %d of run %s failed (attempt %d): %v", u, h.run.ID, meta.NumDelivered, cause)
	f := FailRecord{Unit: u, Error: cause.Error(), Worker: w.o.Name, Delivered: meta.NumDelivered, StreamSeq: meta.Sequence.Stream}
	v, _ := json.Marshal(f)
	if _, err := h.kv.Put(ctx, failedKey(u), v); err != nil {
		w.logf("unit %d: cannot record the failure: %v", u, err)
	}
	_ = msg.NakWithDelay(2 * time.Second)
}

func (w *worker) count(f func(*WorkerReport)) {
	w.mu.Lock()
	f(&w.rep)
	w.mu.Unlock()
}
