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
	// Workers is the number of blocks counted at once (default GOMAXPROCS).
	Workers int
	// Name identifies the worker in results and failure reports (default
	// host:pid).
	Name string
	// IdleExit makes Work return once no run has had work for this long;
	// 0 means serve until ctx ends.
	IdleExit time.Duration
	// Log, if set, receives failures and alarms, and with Verbose a line
	// when each block starts and ends.
	Log     func(string)
	Verbose bool
	// HoldFirstUnit is a test hook: the worker holds the first block it
	// takes for this long before counting it, reporting progress
	// meanwhile. The process tests set it (through the worker command's
	// HoldEnv variable) to kill a worker while it owns a block, and to
	// check that progress reports prevent an early redelivery. Leave it
	// zero.
	HoldFirstUnit time.Duration
}

// WorkerReport sums up what a worker did.
type WorkerReport struct {
	Units      int // units whose results this worker stored first
	Duplicates int // units counted again with the same results (redeliveries)
	Conflicts  int // blocks counted again with different results (alarms)
	Failures   int // blocks whose count or storing failed
}

// HoldEnv names the environment variable from which the worker command
// reads [WorkerOptions.HoldFirstUnit] (a duration such as "30s"): a test
// hook with no use in production.
const HoldEnv = "NQUEENS_TEST_HOLD_FIRST_UNIT"

// Work serves every run it finds on the server reached through nc: it
// pulls block messages from the runs' shared consumers, counts the units of
// each block, stores the results create-only ([RecordResult]) and only then
// acknowledges the message, reporting progress at a third of the ack wait
// so that long blocks are not delivered twice. A block whose count fails is
// reported in the bucket and handed back for another attempt. Work returns
// when ctx ends (blocks in hand are handed back at once) or, with IdleExit,
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
	w := &worker{js: js, o: o, hold: o.HoldFirstUnit, runs: map[string]*runHandle{}, skipped: map[string]bool{}}
	w.lastWork.Store(time.Now().UnixNano())
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var idle atomic.Bool

	active := w.discover(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		// Look for new runs often while idle, seldom while busy.
		t := time.NewTimer(0)
		defer t.Stop()
		for {
			if active == 0 {
				t.Reset(250 * time.Millisecond)
			} else {
				t.Reset(2 * time.Second)
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
	size    int // units per block
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
			size, err := strconv.Atoi(md[metaBlock])
			if err != nil || size < 1 || size > MaxBlockSize {
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
			h = &runHandle{run: run, size: size, cons: cons, kv: kv, ackWait: cons.CachedInfo().Config.AckWait}
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

// slot counts one block at a time until ctx ends.
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

// handle counts the block of msg and settles the message.
func (w *worker) handle(ctx context.Context, h *runHandle, msg jetstream.Msg) {
	meta, err := msg.Metadata()
	if err != nil {
		w.logf("message on %s has no metadata: %v", msg.Subject(), err)
		_ = msg.Nak()
		return
	}
	b, err := h.run.blockOf(msg.Subject(), h.size)
	var job blockJob
	if err == nil {
		if jerr := json.Unmarshal(msg.Data(), &job); jerr != nil || job.N != h.run.N || job.First != b.First || job.Last != b.Last {
			err = fmt.Errorf("message body %q does not match subject %s", msg.Data(), msg.Subject())
		}
	}
	if err != nil {
		// Not a block: let it run out of deliveries, so the coordinator
		// reports it.
		w.logf("%v", err)
		w.count(func(r *WorkerReport) { r.Failures++ })
		_ = msg.NakWithDelay(time.Second)
		return
	}
	if w.o.Verbose {
		w.logf("%s of run %s: started (attempt %d)", b, h.run.ID, meta.NumDelivered)
	}

	// Report progress while the block runs, so the server does not hand it
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
		w.logf("test hook %s: holding %s (first %d) for %s", HoldEnv, b, b.First, w.hold)
		select {
		case <-ctx.Done():
		case <-time.After(w.hold):
		}
	}
	t0 := time.Now()
	rec := BlockRecord{N: h.run.N, First: b.First, Last: b.Last, Units: make([]count.UnitResult, 0, b.Len()),
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
		rec.Units = append(rec.Units, r)
	}
	rec.Seconds, rec.At = time.Since(t0).Seconds(), time.Now().UTC()
	dup, err := w.store(ctx, h, rec)
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
	// Only now is the result safe; a lost ack merely redelivers the block,
	// and the next result is a duplicate.
	_ = msg.Ack()
	if w.o.Verbose {
		var total uint64
		for _, u := range rec.Units {
			total += u.Total
		}
		w.logf("%s of run %s: done in %.3fs (total %d)", b, h.run.ID, rec.Seconds, total)
	}
}

// store records a result, retrying while the server is out of reach (a
// restarting coordinator with its embedded server): the count is done, and
// the message stays ours until the ack wait runs out. It gives up after two
// ack waits, when the block has surely gone to another worker.
func (w *worker) store(ctx context.Context, h *runHandle, rec BlockRecord) (bool, error) {
	deadline := time.Now().Add(max(2*h.ackWait, 10*time.Second))
	for {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		dup, err := RecordResult(rctx, h.kv, rec)
		cancel()
		var conflict *ConflictError
		if err == nil || errors.As(err, &conflict) || ctx.Err() != nil || time.Now().After(deadline) {
			return dup, err
		}
		w.logf("%s of run %s: storing the result failed, retrying: %v", rec.Block(), h.run.ID, err)
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// fail reports a failed block in the bucket and hands it back.
func (w *worker) fail(ctx context.Context, h *runHandle, msg jetstream.Msg, meta *jetstream.MsgMetadata, b Block, cause error) {
	w.count(func(r *WorkerReport) { r.Failures++ })
	w.logf("%s of run %s failed (attempt %d): %v", b, h.run.ID, meta.NumDelivered, cause)
	f := FailRecord{First: b.First, Last: b.Last, Error: cause.Error(), Worker: w.o.Name, Delivered: meta.NumDelivered, StreamSeq: meta.Sequence.Stream}
	v, _ := json.Marshal(f)
	if _, err := h.kv.Put(ctx, failedKey(b), v); err != nil {
		w.logf("%s: cannot record the failure: %v", b, err)
	}
	_ = msg.NakWithDelay(2 * time.Second)
}

func (w *worker) count(f func(*WorkerReport)) {
	w.mu.Lock()
	f(&w.rep)
	w.mu.Unlock()
}
