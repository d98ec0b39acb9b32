package queue

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/cluster/ledger"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/faults"
)

// handle counts the block of msg and settles the message.
func (w *worker) handle(ctx context.Context, h *runHandle, msg jetstream.Msg) {
	meta, err := msg.Metadata()
	if err != nil {
		w.o.Log.Warn("a message without metadata", "subject", msg.Subject(), "error", err)
		_ = msg.Nak()
		return
	}
	_, b, err := h.run.openJob(msg.Subject(), msg.Data(), w.o.Key)
	if err != nil {
		// Not the coordinator's (the run's seal key is this worker's, see
		// open): a forgery, removed for good; its block has a message of
		// its own. Left to run out of deliveries, forgeries set genuine
		// blocks aside.
		w.rate.log(w.o.Log, slog.LevelWarn, "forged", "a block message that the run's coordinator did not seal; removed", "run", h.run.ID, "subject", msg.Subject(), "error", err)
		w.count(func(r *WorkerReport) { r.Discarded++ })
		_ = msg.Term()
		return
	}
	if w.banned(ctx, h) {
		_ = msg.Nak()
		return
	}
	// Another slot may be counting a copy of the same block right now.
	if !w.take(msg.Subject()) {
		w.decline(ctx, h, msg)
		return
	}
	defer w.release(msg.Subject())
	if _, err := h.kv.Get(ctx, voteKey(b, w.token)); err == nil {
		// This worker counted the block already: a quorum needs another
		// worker's count; otherwise the result is stored and the message
		// (a redelivery after a lost ack) is done.
		if h.run.Replicas > 1 {
			w.decline(ctx, h, msg)
		} else {
			_ = msg.Ack()
		}
		return
	}
	w.o.Log.Debug("block started", "units", b, "run", h.run.ID, "attempt", meta.NumDelivered)
	stopBeat := w.beat(ctx, h, msg)
	defer stopBeat()
	t0 := time.Now()
	v := vote{N: h.run.N, First: b.First, Last: b.Last, Units: make([]count.UnitResult, 0, b.Len()),
		Worker: w.o.Name, Voter: w.o.Identity.pub, Delivered: meta.NumDelivered, Seq: meta.Sequence.Stream}
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
		r.Total = faults.Corrupt(r.Total)
		v.Units = append(v.Units, r)
	}
	v.Seconds, v.At = time.Since(t0).Seconds(), time.Now().UTC()
	w.settle(ctx, h, msg, meta, v)
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

// banned reports whether the coordinator banned this worker from h's run,
// and then leaves the run, saying so once. The slots look before each
// block, and the look for runs every presenceEvery: a worker in a long
// block learns of its ban before an embedded server shuts its key out
// (revokeGrace).
func (w *worker) banned(ctx context.Context, h *runHandle) bool {
	e, err := h.kv.Get(ctx, bannedKey(w.token))
	if err != nil {
		return false
	}
	var b ban
	if w.o.Key.Open(e.Value(), &b) != nil {
		return false // not the coordinator's
	}
	if !w.skip(h.run.Stream) {
		return true // a slot, or the look for runs, saw it first
	}
	w.o.Log.Warn("ALARM: the coordinator banned this worker; leaving the run", "run", h.run.ID, "worker", w.o.Name, "reason", b.Reason)
	w.count(func(r *WorkerReport) { r.Banned = append(r.Banned, h.run.ID) })
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

// settle stores the vote and acknowledges the message.
func (w *worker) settle(ctx context.Context, h *runHandle, msg jetstream.Msg, meta *jetstream.MsgMetadata, v vote) {
	b := v.block()
	rev, dup, err := w.store(ctx, h, v)
	w.stored(h, rev)
	var conflict *ledger.ConflictError
	switch {
	case errors.As(err, &conflict):
		w.o.Log.Warn("ALARM: this worker gave two different results for one block", "error", err)
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
	if w.o.Log.Enabled(ctx, slog.LevelDebug) {
		var total uint64
		for _, u := range v.Units {
			total += u.Total
		}
		w.o.Log.Debug("block done", "units", b, "run", h.run.ID, "seconds", v.Seconds, "total", total)
	}
}

// store records a vote, retrying while the server is out of reach (a
// restarting coordinator with its embedded server): the count is done, and
// the message stays ours until the ack wait runs out. It gives up after two
// ack waits, when the block has surely gone to another worker.
func (w *worker) store(ctx context.Context, h *runHandle, v vote) (rev uint64, dup bool, err error) {
	deadline := time.Now().Add(max(2*h.ackWait, 10*time.Second))
	for attempt := 0; ; attempt++ {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		rev, dup, err := storeVote(rctx, h.kv, v, w.o.Key, w.o.Identity)
		cancel()
		var conflict *ledger.ConflictError
		if err == nil || errors.As(err, &conflict) || ctx.Err() != nil || time.Now().After(deadline) {
			return rev, dup, err
		}
		if attempt%20 == 0 { // the first failure, then every ten seconds or so
			level := slog.LevelWarn
			if storageError(err) {
				level = slog.LevelError // the server's store is full: the coordinator stops the run
			}
			w.o.Log.Log(ctx, level, "storing a result failed; retrying", "units", v.block(), "run", h.run.ID, "error", err)
		}
		select {
		case <-ctx.Done():
			return 0, false, ctx.Err()
		case <-time.After(storeRetry):
		}
	}
}

// fail reports a failed block in the bucket and hands it back.
func (w *worker) fail(ctx context.Context, h *runHandle, msg jetstream.Msg, meta *jetstream.MsgMetadata, b Block, cause error) {
	w.count(func(r *WorkerReport) { r.Failures++ })
	w.o.Log.Warn("a block failed", "units", b, "run", h.run.ID, "attempt", meta.NumDelivered, "error", cause)
	f := failure{First: b.First, Last: b.Last, Error: cause.Error(), Worker: w.o.Name, Delivered: meta.NumDelivered, StreamSeq: meta.Sequence.Stream}
	v, _ := json.Marshal(f)
	if _, err := h.kv.Put(ctx, failureKey(b, w.token), v); err != nil {
		w.o.Log.Warn("cannot record a block's failure", "units", b, "error", err)
	}
	_ = msg.NakWithDelay(failDelay)
}
