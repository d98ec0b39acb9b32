package queue

// A copy of a block this worker may not count (it voted on the block
// already, and the run needs other workers' results, or another of its
// slots is counting it) goes back to the queue through the coordinator:
// the worker rests it, acknowledges it, and tells the coordinator, which
// publishes a fresh copy if the block still lacks one. The worker's slots
// ask for no block meanwhile, so that the copy reaches another worker.

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// decline hands a block copy this worker may not count to another worker:
// after declineWait (spread, in Work) it gives the copy back (handBack),
// and the coordinator publishes a fresh one, so that declines do not use
// up the message's deliveries. Until then the copy is held, and the slot
// goes on with other work. A worker that stops gives its held copies
// back at once.
func (w *worker) decline(ctx context.Context, h *runHandle, msg jetstream.Msg) {
	w.mu.Lock()
	times := w.declined[msg.Subject()]
	w.declined[msg.Subject()]++
	w.rep.Declined++
	w.mu.Unlock()
	delay := declineWait(times, h.ackWait)
	if w.spread != nil {
		delay = w.spread(delay)
	}
	w.held.Go(func() {
		select {
		case <-ctx.Done():
			w.requeue(h, msg)
		case <-time.After(delay):
			w.handBack(ctx, h, msg)
		}
	})
}

// handBack gives a declined copy back (requeue). When this worker's slots
// have run out of work, it does so while none of them asks for a block,
// and keeps them from asking for handOff after: the server gives a
// message to the request that has waited longest, and a slot that asked
// again at once would get the fresh copy before the worker that needs it
// (two workers that each held a copy the other needed, at the same pace,
// passed them round like that for a minute, each to itself).
func (w *worker) handBack(ctx context.Context, h *runHandle, msg jetstream.Msg) {
	_ = msg.InProgress() // the slots' fetches may take a while to end
	if !w.gate.beginHandBack() {
		w.requeue(h, msg)
		return
	}
	defer w.gate.endHandBack()
	w.requeue(h, msg)
	select {
	case <-ctx.Done():
	case <-time.After(handOff):
	}
}

// giveBack acknowledges a declined copy and, once the server has taken
// the acknowledgement, tells the run's coordinator on this worker's own
// hand-back subject (Run.backSubject), which publishes a fresh copy if the
// block still needs one. A worker publishes no block message: when it
// could, one admitted key flooded the queue with forged blocks, and
// stopped the run. A notice the coordinator misses (it is away) only
// waits for its next look at what the blocks lack.
func (w *worker) giveBack(h *runHandle, msg jetstream.Msg) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := msg.DoubleAck(ctx); err != nil {
		w.o.Log.Debug("a declined copy's acknowledgement was not confirmed; the server delivers it again after the ack wait", "subject", msg.Subject(), "error", err)
	}
	if _, b, err := h.run.blockOf(msg.Subject()); err == nil {
		_ = w.js.Conn().Publish(h.run.backSubject(w.token), []byte(strconv.Itoa(b.First)))
	}
}

// fetchGate keeps a worker's slots from asking for blocks while it hands
// back a declined copy (handBack), when they have run out of work: a
// hand-back waits for the fetches in flight to end, and no fetch starts
// until it is over. While fetches bring blocks, a copy queued again waits
// behind them, and a hand-back does not hold the slots up. Its waits are
// on channels, which testing/synctest's fake clock sees as blocked.
type fetchGate struct {
	mu       sync.Mutex
	inFlight int           // fetches under way
	handing  int           // hand-backs under way
	empty    bool          // the last fetch to end brought nothing
	changed  chan struct{} // closed, and replaced, when either count drops
}

// wait waits, with g.mu held, for a change; it returns with g.mu held.
func (g *fetchGate) wait() {
	if g.changed == nil {
		g.changed = make(chan struct{})
	}
	ch := g.changed
	g.mu.Unlock()
	<-ch
	g.mu.Lock()
}

// changedLocked wakes the waiters, with g.mu held.
func (g *fetchGate) changedLocked() {
	if g.changed != nil {
		close(g.changed)
		g.changed = nil
	}
}

func (g *fetchGate) beginFetch() {
	g.mu.Lock()
	for g.handing > 0 {
		g.wait()
	}
	g.inFlight++
	g.mu.Unlock()
}

// endFetch ends a fetch that brought a block or not (got).
func (g *fetchGate) endFetch(got bool) {
	g.mu.Lock()
	g.inFlight--
	g.empty = !got
	g.changedLocked()
	g.mu.Unlock()
}

// beginHandBack reports whether the slots have run out of work; then it
// waits for their fetches to end, and keeps new ones from starting until
// endHandBack.
func (g *fetchGate) beginHandBack() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.empty {
		return false
	}
	g.handing++
	for g.inFlight > 0 {
		g.wait()
	}
	return true
}

func (g *fetchGate) endHandBack() {
	g.mu.Lock()
	g.handing--
	g.changedLocked()
	g.mu.Unlock()
}
