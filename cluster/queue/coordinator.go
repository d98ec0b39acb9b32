package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
)

// Coordinate runs the count of N on the work queue reached through nc: it
// creates (or finds) the run's stream, bucket and consumer, publishes the
// blocks that lack results, decides each block from the workers' results
// (quorum, spot checks, bans: see the package doc), and returns the exact count once
// every block is decided; the count is checked as [count.Tally.Result]
// describes. It returns an error when the only blocks left are ones the
// server gave up delivering (a later call retries those). If ctx ends first
// it returns ctx's error; the run's state stays on the server and a later
// call resumes it. A run its voters cannot decide is refused at once (a
// [*QuorumError]), and so is a run past the published counts whose
// options can back no total (an [*UnbackedError]). Past the published counts, a total is returned only
// within the random-probe estimate's spread ([count.CheckSpread]) and
// backed by a check independent of the workers ([Backing.Independent];
// else an [*UnbackedError]). Cost: O(units) memory, O(units/BlockSize)
// messages, and VerifyFraction of the count on this machine.
func Coordinate(ctx context.Context, nc *nats.Conn, n int, o CoordinatorOptions) (RunResult, error) {
	o, err := o.withDefaults(n)
	if err != nil {
		return RunResult{}, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return RunResult{}, err
	}
	c := newCoordinator(o)
	c.js, c.nc = js, nc
	if err := c.open(ctx, n); err != nil {
		return RunResult{}, err
	}
	defer c.close()
	if err := c.load(ctx); err != nil {
		return RunResult{}, err
	}
	c.retryGaveUp(ctx)
	if err := c.reconcile(ctx, true, false); err != nil {
		return RunResult{}, err
	}
	if err := c.loop(ctx); err != nil {
		return RunResult{}, err
	}
	c.report()
	r, err := c.book.result()
	if err != nil {
		return RunResult{}, fmt.Errorf("run %s: %w", c.run.ID, err)
	}
	r.Workers, r.Elapsed = len(c.book.voters), time.Since(c.start)
	out := RunResult{Result: r, Backing: c.book.backing()}
	check := func(r count.Result) error { return count.CheckSpread(ctx, r) }
	if err := backed(r, out.Backing, check); err != nil {
		return RunResult{}, fmt.Errorf("run %s: %w", c.run.ID, err)
	}
	return out, nil
}

// coordinator is the state of one Coordinate call. Blocks are numbered
// k = First/BlockSize.
type coordinator struct {
	o     CoordinatorOptions
	js    jetstream.JetStream
	nc    *nats.Conn
	start time.Time

	run     Run
	stream  jetstream.Stream
	kv      jetstream.KeyValue
	cons    jetstream.Consumer
	watcher jetstream.KeyWatcher
	advSub  *nats.Subscription
	backSub *nats.Subscription

	// What the loop reads and writes: the server (jsIO), the bucket's
	// entries as they are stored, the server's advisories of blocks it
	// stopped delivering, and the workers' notices of copies handed back.
	io      queueIO
	updates <-chan jetstream.KeyValueEntry
	adv     chan *nats.Msg
	back    chan *nats.Msg

	handedBack   map[int]bool     // blocks handed back, not yet looked at
	handBackDue  <-chan time.Time // the next hand-back round; nil: none due
	lastHandBack time.Time        // the last round

	book      *book
	pace      pacer
	resumed   int
	nodes     count.Uint128 // of the results that arrived live
	failed    map[int]failure
	recounter *recounter
	checker   *checker        // the estimate checks of votes; nil without UnitProbes
	checking  map[int]int     // votes under an estimate check, by block
	dirty     bool            // a ban, or a vote that does not count, since the last reconcile
	applied   uint64          // the highest bucket revision taken in
	queued    map[int]int     // block messages in the stream at the last reconcile, by block
	used      []usedCopy      // copies that votes taken in were counted from, maybe still in the stream
	usedKeys  map[string]bool // the votes' keys

	seen map[string]seen // workers at work, by voter and label (presence records)

	loaded    bool                 // the bucket as found at the start is taken in
	revokeAt  map[string]time.Time // when to shut each banned key out of the server
	refusedAt map[string]time.Time // when each token was last told its results are refused
	refusals  []refusedToken       // refusals to write
	rate      rateLog              // what peers can make the coordinator say at will
}

// seen is a worker that stored a presence record.
type seen struct {
	voter, label string
	at           time.Time // when the record arrived here
}

// newCoordinator returns a coordinator with options o (defaults filled
// in), before its run is opened.
func newCoordinator(o CoordinatorOptions) *coordinator {
	now := time.Now()
	return &coordinator{o: o, start: now, pace: pacer{start: now, decidedAt: now}, failed: map[int]failure{}, checking: map[int]int{}, usedKeys: map[string]bool{}, seen: map[string]seen{}, refusedAt: map[string]time.Time{}, revokeAt: map[string]time.Time{}, handedBack: map[int]bool{}}
}

// loop runs until every block is decided: it takes in the bucket's
// entries, the server's advisories and its own counts as they come, and
// reports progress and checks the run (check) on its timers. A decided
// run's copies left in the stream are removed, so that workers find the
// queue empty.
func (c *coordinator) loop(ctx context.Context) error {
	tick := time.NewTicker(c.o.ProgressEvery)
	defer tick.Stop()
	check := time.NewTicker(checkEvery(c.o.AckWait))
	defer check.Stop()
	var checked <-chan estimateCheck // nil without estimate checks: never ready
	if c.checker != nil {
		checked = c.checker.results
	}
	for !c.book.done() {
		select {
		case <-ctx.Done():
			return c.interrupted(ctx)
		case e, ok := <-c.updates:
			if !ok {
				if ctx.Err() != nil {
					return c.interrupted(ctx)
				}
				return errWatcherStopped
			}
			if e != nil {
				c.apply(e, true)
			}
		case m := <-c.adv:
			c.advisory(ctx, m)
		case m := <-c.back:
			c.noteHandBack(m, time.Now())
			continue
		case <-c.handBackDue:
			if err := c.handBackRound(ctx, time.Now()); err != nil {
				return err
			}
			continue
		case r := <-c.recounter.results:
			if r.err != nil {
				return fmt.Errorf("run %s: counting %s again: %w", c.run.ID, c.run.block(r.k), r.err)
			}
			c.book.recounted(r.k, r.units)
			if r.plain >= 0 {
				c.book.plain++
			}
		case r := <-checked:
			c.estimated(r)
		case <-tick.C:
			c.report()
			continue
		case <-check.C:
			if err := c.check(ctx, time.Now()); err != nil {
				c.report()
				return err
			}
			continue
		}
		c.act(ctx)
		if c.dirty {
			// A ban's blocks, and a block whose copy went on a vote that
			// does not count, need results again: publish them now, while
			// workers are still there (one with --exit-when-idle leaves a
			// queue that stays empty). A failure leaves it to a check.
			if err := c.reconcile(ctx, false, false); err != nil {
				return err
			}
		}
	}
	_ = c.reconcile(ctx, false, false) // removes the copies nobody needs any more
	return nil
}

// interrupted reports the state of a run whose ctx ended, and says so.
func (c *coordinator) interrupted(ctx context.Context) error {
	c.report()
	return i18n.Stopped(i18n.NewError("count.run.stopped", i18n.Args{"Run": c.run.ID, "Done": strconv.Itoa(c.book.decided), "Units": strconv.Itoa(c.run.Units)}), ctx.Err())
}

// errWatcherStopped is the loop's error when the bucket's watcher ends
// while its ctx has not: the watcher ends with the ctx it was started
// with too, and that is an interruption, not this (the loop took one
// for the other half the time).
var errWatcherStopped = errors.New("bucket watcher stopped")

// check is the coordinator's periodic check, paced by c.pace: it brings
// the stream in line with what the blocks lack (reconcile), whatever the
// consumer is doing (it used to look only when the consumer was idle, and
// a copy of a decided block that workers passed round kept it busy for
// ever, while another block lacked its copy); it probes the store when
// nothing was decided since the last check, and says when the run waits
// for voters, or has decided nothing for a while, and what it waits for.
func (c *coordinator) check(ctx context.Context, now time.Time) error {
	idle, err := c.io.consumerIdle(ctx)
	if stalled := c.pace.stalled(err == nil && idle); c.pace.look(now, stalled) {
		if err := c.reconcile(ctx, false, stalled); err != nil {
			return err
		}
		c.pace.looked(now, time.Now())
	}
	if c.pace.probe(c.book.decided) {
		if err := c.probe(ctx, err == nil); err != nil {
			return err
		}
	}
	c.checkVoters(now)
	c.checkQuiet(now)
	c.revokeDue(now)
	return nil
}

// storeFull is the error that ends a run whose server can store no more
// (err: its answer).
func (c *coordinator) storeFull(err error) error {
	done := 0
	if c.book != nil {
		done = c.book.decided
	}
	return &StoreFullError{Run: c.run.ID, Done: done, Units: c.run.Units, Err: err}
}

// probeTimeout bounds the probe's write: a server with a full disk gives
// no answer to a write.
const probeTimeout = 5 * time.Second

// probe finds a server that can store no more (a full disk, JetStream's
// limits), which stalls a run without a word: it asks StoreHealth, then
// writes a small record; a refusal for lack of room ends the run with a
// [*StoreFullError], and so does a write that gets no answer at every
// probe for silentStoreAfter while the server answers reads (answered:
// the check's read of the consumer) — JetStream answers nothing to a
// write that its disk refused.
func (c *coordinator) probe(ctx context.Context, answered bool) error {
	full := c.storeFull
	if c.o.StoreHealth != nil {
		if err := c.o.StoreHealth(); err != nil {
			return full(err)
		}
	}
	sent := time.Now()
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	err := c.io.put(pctx, "probe.coordinator", []byte(time.Now().UTC().Format(time.RFC3339)))
	timedOut := errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil
	switch {
	case storageError(err):
		return full(err)
	case c.pace.unanswered(timedOut && answered, sent):
		return full(fmt.Errorf("%w at %d probes in a row over %s (%v)", errSilentStore, c.pace.silent, sent.Sub(c.pace.silentAt).Round(time.Second), err))
	}
	return nil
}

// act carries out what the book asked for: recounts, bans, log lines.
func (c *coordinator) act(ctx context.Context) {
	recounts, bans, notes := c.book.drain()
	for _, n := range notes {
		c.o.Log.Log(ctx, n.level, n.msg, n.args...)
	}
	for _, k := range recounts {
		c.recounter.add(k)
	}
	for _, r := range c.refusals {
		v, _ := json.Marshal(refusal{Reason: r.reason, At: time.Now().UTC()})
		if err := c.io.put(ctx, refusedKey(r.token), v); err != nil {
			c.o.Log.Warn("cannot tell a worker that its results are refused", "token", r.token, "error", err)
		}
	}
	c.refusals = nil
	for _, b := range bans {
		b.At = time.Now().UTC()
		v, err := c.o.Key.Seal(b)
		if err == nil {
			err = c.io.put(ctx, bannedKey(b.token()), v)
		}
		if err != nil {
			c.o.Log.Warn("cannot record a ban", "worker", b.Worker, "error", err)
		}
		c.scheduleRevoke(b.By, time.Now())
		c.dirty = true
	}
}

// scheduleRevoke arranges for a banned voter's key to be shut out of the
// server, when the coordinator may (Revoke) and by is a key, not a label
// of the shared credential: revokeGrace after a ban made now, so that its
// worker learns of the ban (a faulty machine's owner reads "banned", not
// "credentials refused"), at once for the bans found at the start, and by
// the end of the run at the latest.
func (c *coordinator) scheduleRevoke(by string, now time.Time) {
	if c.o.Revoke == nil || !nkeys.IsValidPublicUserKey(by) {
		return
	}
	if !c.loaded {
		c.revoke(by)
		return
	}
	if _, due := c.revokeAt[by]; !due {
		c.revokeAt[by] = now.Add(revokeGrace)
	}
}

// revokeDue shuts out the keys whose time has come by now.
func (c *coordinator) revokeDue(now time.Time) {
	for by, at := range c.revokeAt {
		if !now.Before(at) {
			delete(c.revokeAt, by)
			c.revoke(by)
		}
	}
}

// revoke shuts a banned voter's key out of the server.
func (c *coordinator) revoke(by string) {
	switch revoked, err := c.o.Revoke(by); {
	case err != nil:
		c.o.Log.Warn("cannot shut a banned key out of the server", "voter", voterName(by), "error", err)
	case revoked:
		c.o.Log.Info("the banned key can no longer connect to the server", "voter", voterName(by))
	}
}

func (c *coordinator) report() {
	if c.o.Progress == nil {
		return
	}
	var banned []string
	for by := range c.book.banned {
		if label, ok := strings.CutPrefix(by, labelPrefix); ok {
			banned = append(banned, label)
		} else {
			banned = append(banned, fmt.Sprintf("%s (%s)", c.book.labels[by], voterName(by)))
		}
	}
	slices.Sort(banned)
	c.o.Progress(RunProgress{Run: c.run, Done: c.book.decided, Resumed: c.resumed, Failed: c.gaveUpBlocks(),
		Banned: banned, Checking: c.recounter.pending(), Workers: len(c.book.voters), Nodes: c.nodes, Elapsed: time.Since(c.start)})
}
