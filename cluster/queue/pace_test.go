package queue

// The timing of the coordinator's and the worker's loops, on
// testing/synctest's fake clock: each test runs the real loop with its
// server (queueIO, or the worker's look and requeue) in memory, so that
// the bubble's clock moves only when every goroutine waits on it, and the
// times the loop acts at are exact. The process tests run the same loops
// against nats-server on the real clock.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/testkit"
)

// memIO is a server in memory for the coordinator's loop: a consumer
// that is idle or not, the messages queued per block, and a record of
// what the loop published and stored, at what time of the fake clock.
type memIO struct {
	mu        sync.Mutex
	start     time.Time
	run       Run
	idle      bool            // the consumer has nothing pending or in flight
	queuedMsg map[int]int     // messages in the stream, by block
	seqs      map[uint64]int  // of those, the ones a test named by sequence: their blocks
	ackOnLook map[uint64]bool // of those, the ones acknowledged as the coordinator looks them up
	rev       uint64          // the bucket's last revision
	full      bool            // every write fails for lack of room
	silent    bool            // and every write gets no answer (a full disk)
	published []event         // one per publish call: the blocks' first units
	puts      []event         // one per key written
	removed   []event         // one per message deleted or block purged
}

// event is something the loop did, at a time since the start.
type event struct {
	at   time.Duration
	what string
}

func (m *memIO) record(to *[]event, what string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	*to = append(*to, event{time.Since(m.start), what})
}

func (m *memIO) events(of *[]event) []event {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(*of)
}

func (m *memIO) consumerIdle(context.Context) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.idle, nil
}

func (m *memIO) queued(context.Context) (map[int]int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[int]int{}
	for k, v := range m.queuedMsg {
		out[k] = v
	}
	return out, nil
}

func (m *memIO) publish(_ context.Context, blocks []Block, _ func(Block) string) error {
	var firsts []string
	m.mu.Lock()
	for _, b := range blocks {
		firsts = append(firsts, fmt.Sprint(b.First))
		if m.queuedMsg == nil {
			m.queuedMsg = map[int]int{}
		}
		m.queuedMsg[b.First/16]++ // the tests' blocks are of 16 units
	}
	m.mu.Unlock()
	m.record(&m.published, strings.Join(firsts, ","))
	return nil
}

func (m *memIO) queuedBlock(_ context.Context, b Block) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, _ := m.run.blockNumber(b.First)
	return m.queuedMsg[k], nil
}

func (m *memIO) lastSeq(context.Context, Block) (uint64, error) { return 1, nil }
func (m *memIO) deleteKey(context.Context, string) error        { return nil }

func (m *memIO) msgAt(ctx context.Context, seq uint64) (string, []byte, error) {
	subject, err := m.subjectOf(ctx, seq)
	if err != nil {
		return "", nil, err
	}
	_, b, _ := m.run.blockOf(subject)
	body, err := testKey.Seal(blockJob{Run: m.run.ID, N: m.run.N, First: b.First, Last: b.Last, Replicas: m.run.Replicas})
	return subject, body, err
}

func (m *memIO) subjectOf(_ context.Context, seq uint64) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.seqs[seq]
	if ok && m.ackOnLook[seq] {
		delete(m.seqs, seq)
		m.queuedMsg[k]--
		ok = false
	}
	if !ok {
		return "", jetstream.ErrMsgNotFound
	}
	return m.run.blockSubject(m.run.block(k)), nil
}

func (m *memIO) firstSeq(context.Context) (uint64, error) { return 0, nil }

func (m *memIO) deleteMsg(_ context.Context, seq uint64) error {
	m.mu.Lock()
	k, ok := m.seqs[seq]
	if ok {
		delete(m.seqs, seq)
		m.queuedMsg[k]--
	}
	m.mu.Unlock()
	if !ok {
		return jetstream.ErrMsgNotFound
	}
	m.record(&m.removed, fmt.Sprint("seq ", seq))
	return nil
}

func (m *memIO) purge(_ context.Context, b Block) error {
	m.mu.Lock()
	k := b.First / 16
	m.queuedMsg[k] = 0
	for seq, of := range m.seqs {
		if of == k {
			delete(m.seqs, seq)
		}
	}
	m.mu.Unlock()
	m.record(&m.removed, fmt.Sprint("block ", b.First))
	return nil
}

func (m *memIO) revision(context.Context) (uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rev, nil
}

// set changes the server's state under its lock.
func (m *memIO) set(f func(m *memIO)) {
	m.mu.Lock()
	f(m)
	m.mu.Unlock()
}

// errFull is what a server with no room answers (JetStream's error 10047).
var errFull = &jetstream.APIError{Code: 500, ErrorCode: 10047, Description: "storage resources exceeded"}

func (m *memIO) put(ctx context.Context, key string, _ []byte) error {
	m.mu.Lock()
	full, silent := m.full, m.silent
	m.mu.Unlock()
	switch {
	case full:
		return errFull
	case silent:
		<-ctx.Done()
		m.record(&m.puts, key+" (no answer)")
		return ctx.Err()
	}
	m.record(&m.puts, key)
	return nil
}

// entry is a bucket entry as the coordinator's watcher delivers it.
type entry struct {
	key   string
	value []byte
	rev   uint64
}

func (e entry) Bucket() string                  { return "" }
func (e entry) Key() string                     { return e.key }
func (e entry) Value() []byte                   { return e.value }
func (e entry) Revision() uint64                { return e.rev }
func (e entry) Created() time.Time              { return time.Time{} }
func (e entry) Delta() uint64                   { return 0 }
func (e entry) Operation() jetstream.KeyValueOp { return jetstream.KeyValuePut }

// logged records the messages of log records at their time since start.
type logged struct {
	mu    sync.Mutex
	start time.Time
	recs  []event
}

func (l *logged) Enabled(context.Context, slog.Level) bool { return true }
func (l *logged) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logged) WithGroup(string) slog.Handler            { return l }
func (l *logged) Handle(_ context.Context, r slog.Record) error {
	what := r.Message
	r.Attrs(func(a slog.Attr) bool {
		what += " " + a.String()
		return true
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recs = append(l.recs, event{r.Time.Sub(l.start), what})
	return nil
}

// lines returns the records whose message starts with prefix, each with
// its attributes (key=value).
func (l *logged) lines(prefix string) []event {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []event
	for _, r := range l.recs {
		if strings.HasPrefix(r.what, prefix) {
			out = append(out, r)
		}
	}
	return out
}

// times returns when a message starting with prefix was logged.
func (l *logged) times(prefix string) []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []time.Duration
	for _, r := range l.recs {
		if strings.HasPrefix(r.what, prefix) {
			out = append(out, r.at)
		}
	}
	return out
}

// fakeRun runs the coordinator's loop for N = 8 in blocks of 16 units on
// mem, in the bubble of the calling synctest test, until stop is called;
// feed gives it bucket entries.
type fakeRun struct {
	c       *coordinator
	mem     *memIO
	log     *logged
	feed    chan<- jetstream.KeyValueEntry
	notices chan<- *nats.Msg // hand-back notices
	stop    func() error     // cancels the loop and returns its error
}

func startFakeRun(t *testing.T, o CoordinatorOptions, idle bool, queued map[int]int) *fakeRun {
	t.Helper()
	const n = 8
	now := time.Now()
	l := &logged{start: now}
	o.Key, o.BlockSize, o.Log = testKey, 16, slog.New(l)
	o, err := o.withDefaults(n)
	if err != nil {
		t.Fatal(err)
	}
	c := newCoordinator(o)
	c.run = runFor(n, o.BlockSize, max(1, o.Replicas))
	if queued == nil {
		queued = map[int]int{}
	}
	mem := &memIO{start: now, run: c.run, idle: idle, queuedMsg: queued, seqs: map[uint64]int{}, ackOnLook: map[uint64]bool{}}
	c.io = mem
	feed, notices := make(chan jetstream.KeyValueEntry), make(chan *nats.Msg)
	c.updates, c.adv, c.back = feed, make(chan *nats.Msg), notices
	ctx, cancel := context.WithCancel(context.Background())
	c.begin(ctx)
	c.loaded = true // nothing was stored before: every entry comes live
	done := make(chan error, 1)
	go func() { done <- c.loop(ctx) }()
	return &fakeRun{c: c, mem: mem, log: l, feed: feed, notices: notices, stop: func() error {
		cancel()
		err := <-done
		c.close()
		return err
	}}
}

// presenceOf is the presence record of worker label signing as id.
func presenceOf(t *testing.T, id Identity, label string) entry {
	t.Helper()
	v, err := testKey.Seal(presence{Worker: label, Voter: id.Public(), At: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return entry{key: presenceKey(id.token(label)), value: v}
}

// expect checks what the loop published (the blocks' first units) and
// removed from the stream, and when.
func (r *fakeRun) expect(t *testing.T, published, removed []event) {
	t.Helper()
	if got := r.mem.events(&r.mem.published); !slices.Equal(got, published) {
		t.Errorf("published %v, want %v", got, published)
	}
	if got := r.mem.events(&r.mem.removed); !slices.Equal(got, removed) {
		t.Errorf("removed %v, want %v", got, removed)
	}
}

// keepPresent feeds the presence records of workers (identities by
// label) as workers store them, every presenceEvery, a second after each
// check, until d after start; then is called after each round's records,
// with the round's time.
func (r *fakeRun) keepPresent(t *testing.T, start time.Time, d time.Duration, workers map[string]Identity, then func(s time.Duration)) {
	t.Helper()
	for s := time.Duration(0); s < d; s += presenceEvery {
		at(start, s+time.Second)
		for label, id := range workers {
			r.feed <- presenceOf(t, id, label)
		}
		then(s)
	}
}

// at sleeps on the fake clock until d after start.
func at(start time.Time, d time.Duration) { time.Sleep(time.Until(start.Add(d))) }

// TestCoordinatorSaysItWaits: with --replicas 2 and one credential at
// work, the coordinator says it waits at its first check once the workers
// have had waitGrace to start (10 s, checking every 5 s), and again every
// waitRepeat (30 s); from the check that sees a second credential at
// work it says nothing, and once that one's presence is older than
// activeWindow (15 s) it says so again at once.
func TestCoordinatorSaysItWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := newIdentity(t), newIdentity(t)
		start := time.Now()
		r := startFakeRun(t, CoordinatorOptions{Replicas: 2, Voters: []string{a.Public(), b.Public()}}, false, nil)
		// a stores its presence every presenceEvery, as a worker does, a
		// second after each check; b from 51 s to 61 s.
		for s := time.Duration(0); s <= 150*time.Second; s += presenceEvery {
			at(start, s+time.Second)
			r.feed <- presenceOf(t, a, "w-a")
			if s >= 50*time.Second && s <= 60*time.Second {
				r.feed <- presenceOf(t, b, "w-b")
			}
		}
		if err := r.stop(); !errors.Is(err, context.Canceled) {
			t.Fatalf("loop: %v", err)
		}
		// b is at work at the checks of 55 to 75 s (seen at 51, 56 and 61
		// s, within 15 s); from 80 s a works alone again.
		want := []time.Duration{10 * time.Second, 40 * time.Second, 80 * time.Second, 110 * time.Second, 140 * time.Second}
		if got := r.log.times("waiting:"); !slices.Equal(got, want) {
			t.Errorf("the coordinator said it waits at %v, want %v", got, want)
		}
	})
}

// signedVoteOf is the entry of id's vote (labelled label) for block k of
// run, counted from the block message with stream sequence seq.
func signedVoteOf(t *testing.T, run Run, all []count.UnitResult, k int, id Identity, label string, seq uint64) entry {
	t.Helper()
	b := run.block(k)
	v, err := signVote(vote{N: run.N, First: b.First, Last: b.Last, Units: all[b.First : b.Last+1], Worker: label, Delivered: 1, Seq: seq}, testKey, id)
	if err != nil {
		t.Fatal(err)
	}
	return entry{key: voteKey(b, id.token(label)), value: v}
}

// banOf is the entry of the coordinator's ban of id.
func banOf(t *testing.T, id Identity, label string) entry {
	t.Helper()
	v, err := testKey.Seal(ban{By: id.Public(), Worker: label, Reason: "a test"})
	if err != nil {
		t.Fatal(err)
	}
	return entry{key: bannedKey(id.Public()), value: v}
}

// TestCoordinatorRepublishes: the coordinator publishes the copies a
// block lacks at once after a ban, and at once after a vote that does not
// count, whose copy it first removes from the stream, since its
// acknowledgement may not be in yet (for block 1 it never comes: the
// coordinator used to look again a second later, find the copy still
// queued, and publish nothing; for block 2 it comes in as the coordinator
// looks the copy up);
// when the consumer has had nothing pending or in flight at two checks in
// a row, it sets aside the blocks whose messages are still there, which
// used up their deliveries (checks every second with an ack wait of 1 s),
// and counts them itself: the run ends with every block decided (it used
// to end with an error, and a restart to retry them).
func TestCoordinatorRepublishes(t *testing.T) {
	all := testkit.AllUnits(t, 8, count.Units, count.CountUnit)
	r := newIdentity(t)
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		// Every block queued but block 0, which r counted; the consumer
		// busy. r is one of two voters: the other can still count once r
		// is banned.
		run := startFakeRun(t, CoordinatorOptions{AckWait: time.Second, Voters: []string{r.Public(), newIdentity(t).Public()}}, false, map[int]int{1: 1, 2: 1, 3: 1, 4: 1})
		run.mem.set(func(m *memIO) { m.seqs[101], m.seqs[102], m.ackOnLook[102] = 1, 2, true }) // blocks 1 and 2's messages
		run.feed <- signedVoteOf(t, run.c.run, all, 0, r, "r", 100)
		at(start, 3500*time.Millisecond)
		run.feed <- banOf(t, r, "r")
		// r's vote for block 1, counted from message 101 and stored
		// before r learnt of its ban.
		at(start, 5200*time.Millisecond)
		run.feed <- signedVoteOf(t, run.c.run, all, 1, r, "r", 101)
		at(start, 5400*time.Millisecond)
		run.feed <- signedVoteOf(t, run.c.run, all, 2, r, "r", 102)
		// Now the consumer goes idle: the second idle check sets aside
		// every block whose message is still in the stream.
		at(start, 6500*time.Millisecond)
		run.mem.set(func(m *memIO) { m.idle = true })
		at(start, 9500*time.Millisecond)
		if err := run.stop(); err != nil {
			t.Fatalf("loop: %v, want the blocks set aside counted by the coordinator", err)
		}
		// Once a minute at most: one line for the five.
		if said := run.log.times("a block ran out of deliveries; the coordinator counts it itself"); !slices.Equal(said, []time.Duration{8 * time.Second}) {
			t.Errorf("said %v that a block ran out of deliveries, want once at 8s", said)
		}
		// Block 0 at the ban (its copy had gone on r's vote); blocks 1 and
		// 2 at r's votes that no longer count, once their copies are gone.
		// Once the coordinator has counted the blocks set aside, their
		// messages go.
		removed := []event{{5200 * time.Millisecond, "seq 101"}}
		for _, b := range []string{"0", "16", "32", "48", "64"} {
			removed = append(removed, event{8 * time.Second, "block " + b})
		}
		run.expect(t, []event{{3500 * time.Millisecond, "0"}, {5200 * time.Millisecond, "16"}, {5400 * time.Millisecond, "32"}}, removed)
		want := []event{{3500 * time.Millisecond, bannedKey(r.Public())}, {8 * time.Second, "failed.0"}, {8 * time.Second, "failed.16"},
			{8 * time.Second, "failed.32"}, {8 * time.Second, "failed.48"}, {8 * time.Second, "failed.64"}}
		got := slices.DeleteFunc(run.mem.events(&run.mem.puts), func(e event) bool { return e.what == "probe.coordinator" })
		slices.SortStableFunc(got, func(a, b event) int { return int(a.at - b.at) })
		if !slices.Equal(got, want) {
			t.Errorf("stored %v, want %v", got, want)
		}
	})
}

// TestCoordinatorNoStallWhileBusy is the stall of a run under load
// (TestProcessRogueWorkers/quorum on a busy CI machine: 698 of 730 units,
// two honest workers at work, for a minute): the liar r is banned while
// it counts block 1, and its vote for it comes in before its
// acknowledgement, which never comes here; meanwhile a copy of block 0,
// decided by a and b, goes round between them, declined by each, so the
// consumer is never idle. The coordinator removes block 0's copy at the
// ban, r's copy at r's vote, and publishes block 1 then, and says nothing
// about waiting for voters. Before, it published block 1 only if a second
// look found r's copy acknowledged, and otherwise only once the consumer
// was idle at two checks in a row: never.
func TestCoordinatorNoStallWhileBusy(t *testing.T) {
	all := testkit.AllUnits(t, 8, count.Units, count.CountUnit)
	a, b, r := newIdentity(t), newIdentity(t), newIdentity(t)
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		run := startFakeRun(t, CoordinatorOptions{Replicas: 2, Voters: []string{a.Public(), b.Public(), r.Public()}}, false,
			map[int]int{0: 1, 1: 1, 2: 2, 3: 2, 4: 2})
		run.mem.set(func(m *memIO) { m.seqs[201] = 1 }) // the copy of block 1 that r counts
		for _, e := range []entry{signedVoteOf(t, run.c.run, all, 0, a, "a", 100), signedVoteOf(t, run.c.run, all, 0, b, "b", 101),
			signedVoteOf(t, run.c.run, all, 1, a, "a", 200)} {
			run.feed <- e
		}
		at(start, 2*time.Second)
		run.feed <- banOf(t, r, "r")
		at(start, 3*time.Second)
		run.feed <- signedVoteOf(t, run.c.run, all, 1, r, "r", 201)
		run.keepPresent(t, start, 90*time.Second, map[string]Identity{"a": a, "b": b}, func(s time.Duration) {
			if s == 20*time.Second {
				// A copy of block 2 is lost, whatever the cause: the
				// check of 25 s publishes it again.
				run.mem.set(func(m *memIO) { m.queuedMsg[2] = 1 })
			}
		})
		if err := run.stop(); !errors.Is(err, context.Canceled) {
			t.Fatalf("loop: %v", err)
		}
		run.expect(t, []event{{3 * time.Second, "16"}, {25 * time.Second, "32"}}, []event{{2 * time.Second, "block 0"}, {3 * time.Second, "seq 201"}})
		if got := run.log.lines("waiting:"); len(got) > 0 {
			t.Errorf("the coordinator said it waits for voters: %v", got)
		}
	})
}

// TestCoordinatorCountsNoCopyTwice: a worker stores its vote, then
// acknowledges the copy it counted; in between, the coordinator removes
// that copy from the stream, lest it count both the vote and the copy and
// publish nothing when the block lacks one. Here a counted block 1 (its
// acknowledgement never comes), and r, banned at 2 s, stored its vote for
// it at 3 s, counted from the other copy: the block lacks a copy. It used
// to count a's copy as queued, and to wait.
func TestCoordinatorCountsNoCopyTwice(t *testing.T) {
	all := testkit.AllUnits(t, 8, count.Units, count.CountUnit)
	a, b, r := newIdentity(t), newIdentity(t), newIdentity(t)
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		run := startFakeRun(t, CoordinatorOptions{Replicas: 2, Voters: []string{a.Public(), b.Public(), r.Public()}}, false,
			map[int]int{0: 2, 1: 2, 2: 2, 3: 2, 4: 2})
		run.mem.set(func(m *memIO) { m.seqs[301], m.seqs[302] = 1, 1 })
		at(start, time.Second)
		run.feed <- signedVoteOf(t, run.c.run, all, 1, a, "a", 302)
		at(start, 2*time.Second)
		run.feed <- banOf(t, r, "r")
		at(start, 3*time.Second)
		run.feed <- signedVoteOf(t, run.c.run, all, 1, r, "r", 301)
		at(start, 12*time.Second)
		if err := run.stop(); !errors.Is(err, context.Canceled) {
			t.Fatalf("loop: %v", err)
		}
		run.expect(t, []event{{3 * time.Second, "16"}}, []event{{2 * time.Second, "seq 302"}, {3 * time.Second, "seq 301"}})
	})
}

// TestCoordinatorCatchesUp: a worker stores its vote, then acknowledges
// its copy; when the coordinator reads the stream after the
// acknowledgement and before the vote has reached it (here at the ban
// that a recount brings), it first waits for the bucket's entries up to
// the revision the bucket had then, and publishes no copy too many (it
// used to publish one, which nobody needed, and which the workers that
// had counted its block passed round for ever).
func TestCoordinatorCatchesUp(t *testing.T) {
	all := testkit.AllUnits(t, 8, count.Units, count.CountUnit)
	wrong := slices.Clone(all)
	for k := range wrong {
		if wrong[k].Total != 0 { // as a liar of the fault hooks does: no check of one result sees it
			wrong[k].Total += 8
		}
	}
	a, b, r := newIdentity(t), newIdentity(t), newIdentity(t)
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		run := startFakeRun(t, CoordinatorOptions{Replicas: 2, Voters: []string{a.Public(), b.Public(), r.Public()}}, false,
			map[int]int{0: 2, 1: 0, 2: 2, 3: 2, 4: 2})
		lie := signedVoteOf(t, run.c.run, wrong, 1, r, "r", 100)
		lie.rev = 5
		run.feed <- lie
		// a counts a copy of block 0, stores its vote (revision 7) and
		// acknowledges the copy, at 4.5 s; b's vote for block 1 (revision
		// 6) comes in, disagrees with r's, and the recount bans r; a's
		// vote reaches the coordinator at 4.7 s, after it read the stream.
		at(start, 4500*time.Millisecond)
		run.mem.set(func(m *memIO) { m.queuedMsg[0], m.rev = 1, 7 })
		honest := signedVoteOf(t, run.c.run, all, 1, b, "b", 101)
		honest.rev = 6
		run.feed <- honest
		at(start, 4700*time.Millisecond)
		late := signedVoteOf(t, run.c.run, all, 0, a, "a", 102)
		late.rev = 7
		run.feed <- late
		at(start, 12*time.Second)
		if err := run.stop(); !errors.Is(err, context.Canceled) {
			t.Fatalf("loop: %v", err)
		}
		if got := run.log.lines("ALARM: a worker is banned"); len(got) != 1 || got[0].at != 4500*time.Millisecond {
			t.Errorf("bans %v, want r's at 4.5 s", got)
		}
		if got := run.mem.events(&run.mem.published); len(got) > 0 {
			t.Errorf("published %v, want nothing", got)
		}
	})
}

// TestCoordinatorSaysWhatItWaitsFor: once no block was decided for 30 s
// (quietFor), the coordinator says what the run waits for, at its check
// (every 5 s), and again every 30 s while that lasts; a decision starts
// the count again.
func TestCoordinatorSaysWhatItWaitsFor(t *testing.T) {
	all := testkit.AllUnits(t, 8, count.Units, count.CountUnit)
	a, b := newIdentity(t), newIdentity(t)
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		run := startFakeRun(t, CoordinatorOptions{Replicas: 2, Voters: []string{a.Public(), b.Public()}}, false,
			map[int]int{0: 1, 1: 2, 2: 2, 3: 2, 4: 2})
		run.feed <- signedVoteOf(t, run.c.run, all, 0, a, "a", 100)
		run.keepPresent(t, start, 125*time.Second, map[string]Identity{"a": a, "b": b}, func(s time.Duration) {
			if s == 65*time.Second {
				run.feed <- signedVoteOf(t, run.c.run, all, 0, b, "b", 101)
			}
		})
		if err := run.stop(); !errors.Is(err, context.Canceled) {
			t.Fatalf("loop: %v", err)
		}
		got := run.log.lines("no block decided")
		var when []time.Duration
		for _, e := range got {
			when = append(when, e.at)
		}
		// Quiet from the start; the decision of 66 s is seen at the check
		// of 70 s.
		if want := []time.Duration{30 * time.Second, 60 * time.Second, 100 * time.Second}; !slices.Equal(when, want) {
			t.Errorf("said what it waits for at %v, want %v", when, want)
		}
		if len(got) > 0 {
			for _, part := range []string{"for=30s", "blocks_left=5", "units_left=78", "first=units 0-15: 1 of 2 results (a), 1 copy queued or being counted; units 16-31: 0 of 2 results, 2 copies queued or being counted; units 32-47: 0 of 2 results",
				"workers_at_work=", "a (" + voterName(a.Public()) + ")"} {
				if !strings.Contains(got[0].what, part) {
					t.Errorf("the first note lacks %q: %s", part, got[0].what)
				}
			}
		}
	})
}

// TestCoordinatorProbesTheStore: each check that finds nothing decided
// since the last one probes the store; one after a decision does not; a
// store that refuses the probe for lack of room ends the run there.
func TestCoordinatorProbesTheStore(t *testing.T) {
	all := testkit.AllUnits(t, 8, count.Units, count.CountUnit)
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		run := startFakeRun(t, CoordinatorOptions{}, false, map[int]int{0: 1, 1: 1, 2: 1, 3: 1, 4: 1})
		at(start, 12*time.Second)
		b := run.c.run.block(0)
		v, _ := signVote(vote{N: 8, First: b.First, Last: b.Last, Units: all[b.First : b.Last+1], Worker: "w", Delivered: 1}, testKey, SharedIdentity())
		run.feed <- entry{key: voteKey(b, SharedIdentity().token("w")), value: v}
		at(start, 21*time.Second)
		run.mem.mu.Lock()
		run.mem.full = true
		run.mem.mu.Unlock()
		at(start, 26*time.Second)
		err := run.stop()
		var full *StoreFullError
		if !errors.As(err, &full) || full.Done != b.Len() {
			t.Fatalf("loop: %v, want a StoreFullError with %d units done", err, b.Len())
		}
		// Checks every 5 s: probes at 5 and 10 s, none at 15 s (the vote
		// of 12 s), at 20 s, and the refused one at 25 s ended the loop.
		want := []event{{5 * time.Second, "probe.coordinator"}, {10 * time.Second, "probe.coordinator"}, {20 * time.Second, "probe.coordinator"}}
		if got := run.mem.events(&run.mem.puts); !slices.Equal(got, want) {
			t.Errorf("probes %v, want %v", got, want)
		}
	})
}

// TestCoordinatorProbesASilentStore: a server whose disk is full answers
// reads and no write at all; the coordinator's probe gives up waiting
// after probeTimeout, and a probe with no answer silentStoreAfter after
// the first of a row of them ends the run (a slow server, which answers
// one of them, does not: TestCoordinatorSlowStoreGoesOn).
func TestCoordinatorProbesASilentStore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		run := startFakeRun(t, CoordinatorOptions{}, false, map[int]int{0: 1, 1: 1, 2: 1, 3: 1, 4: 1})
		at(start, 7*time.Second)
		run.mem.mu.Lock()
		run.mem.silent = true
		run.mem.mu.Unlock()
		at(start, 4*time.Minute)
		err := run.stop()
		var full *StoreFullError
		if !errors.As(err, &full) || !strings.Contains(err.Error(), "it answers reads and no writes, as JetStream does when the disk of its store is full") ||
			!strings.Contains(err.Error(), "no answer to a write at 25 probes in a row over 2m0s") {
			t.Fatalf("loop: %v, want a StoreFullError", err)
		}
		// Probes at 5 s, at 10 s (no answer by 15 s), at the next tick,
		// 15 s (no answer by 20 s), and so on every 5 s until the probe
		// sent at 130 s, 2 minutes after the first silent one: the end.
		want := []event{{5 * time.Second, "probe.coordinator"}}
		for s := 15; s <= 135; s += 5 {
			want = append(want, event{time.Duration(s) * time.Second, "probe.coordinator (no answer)"})
		}
		if got := run.mem.events(&run.mem.puts); !slices.Equal(got, want) {
			t.Errorf("probes %v, want %v", got, want)
		}
	})
}

// TestCoordinatorSlowStoreGoesOn: a server that answers no write for 50 s
// (flooded, or on an overloaded machine), then answers again, does not
// end the run: two silent probes 10 s apart ended it as a full disk.
func TestCoordinatorSlowStoreGoesOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		run := startFakeRun(t, CoordinatorOptions{}, false, map[int]int{0: 1, 1: 1, 2: 1, 3: 1, 4: 1})
		at(start, 7*time.Second)
		run.mem.mu.Lock()
		run.mem.silent = true
		run.mem.mu.Unlock()
		at(start, time.Minute)
		run.mem.mu.Lock()
		run.mem.silent = false
		run.mem.mu.Unlock()
		at(start, 4*time.Minute)
		var full *StoreFullError
		if err := run.stop(); errors.As(err, &full) {
			t.Fatalf("loop: %v, want the run still going when stopped", err)
		}
	})
}

// fakeMsg is a block message a worker declines.
type fakeMsg struct {
	jetstream.Msg
	subject string
}

func (m fakeMsg) Subject() string   { return m.subject }
func (m fakeMsg) InProgress() error { return nil }

// TestDeclinedCopiesBackOff: a copy the worker declines again and again
// rests 50 ms, then twice as long each time, up to a third of the ack
// wait (within which the server does not deliver a held copy again) or
// 2 s, whichever is less; copies of another block start again at 50 ms.
func TestDeclinedCopiesBackOff(t *testing.T) {
	for _, tc := range []struct {
		ackWait time.Duration
		rests   []time.Duration // of the first 12 declines, in ms
	}{
		{time.Minute, []time.Duration{50, 100, 200, 400, 800, 1600, 2000, 2000, 2000, 2000, 2000, 2000}},
		{3 * time.Second, []time.Duration{50, 100, 200, 400, 800, 1000, 1000, 1000, 1000, 1000, 1000, 1000}},
		{90 * time.Millisecond, []time.Duration{50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50}},
	} {
		t.Run(tc.ackWait.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				requeued := make(chan time.Time, 1)
				w := &worker{declined: map[string]int{}, requeue: func(*runHandle, jetstream.Msg) { requeued <- time.Now() }}
				h := &runHandle{ackWait: tc.ackWait}
				var got []time.Duration
				for range tc.rests {
					t0 := time.Now()
					w.decline(context.Background(), h, fakeMsg{subject: "nqueens.x.block.0"})
					got = append(got, (<-requeued).Sub(t0)/time.Millisecond)
					w.held.Wait() // the hand-off
				}
				if !slices.Equal(got, tc.rests) {
					t.Errorf("rests %v ms, want %v", got, tc.rests)
				}
				t0 := time.Now()
				w.decline(context.Background(), h, fakeMsg{subject: "nqueens.x.block.16"})
				if d := (<-requeued).Sub(t0); d != declineFirst {
					t.Errorf("another block's copy rests %s, want %s", d, declineFirst)
				}
				w.held.Wait()
				if rep := w.rep.Declined; rep != len(tc.rests)+1 {
					t.Errorf("%d declines reported, want %d", rep, len(tc.rests)+1)
				}
			})
		})
	}
}

// fakeConsumer is a run's consumer with no message for anyone: each
// fetch waits its fetchWait, and is recorded.
type fakeConsumer struct {
	jetstream.Consumer
	start   time.Time
	mu      sync.Mutex
	fetches []event // "start-end", in ms since start
}

func (c *fakeConsumer) Fetch(int, ...jetstream.FetchOpt) (jetstream.MessageBatch, error) {
	begin := time.Since(c.start)
	msgs := make(chan jetstream.Msg)
	go func() {
		time.Sleep(fetchWait)
		c.mu.Lock()
		c.fetches = append(c.fetches, event{begin, fmt.Sprint(begin.Milliseconds(), "-", time.Since(c.start).Milliseconds())})
		c.mu.Unlock()
		close(msgs)
	}()
	return emptyBatch{msgs}, nil
}

type emptyBatch struct{ msgs chan jetstream.Msg }

func (b emptyBatch) Messages() <-chan jetstream.Msg { return b.msgs }
func (b emptyBatch) Error() error                   { return nil }

// TestHandBack: a worker whose slot has run out of work queues a declined
// copy again only once the slot's fetch has ended, and the slot asks for
// no block for handOff (500 ms) after, so that the copy goes to another
// worker's waiting request, not back to it (the slot fetches for 1 s, and
// rests 250 ms after a fetch that brought nothing). Before, the copy was
// queued at the end of its rest, into the slot's own waiting request.
func TestHandBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		cons := &fakeConsumer{start: start}
		requeued := make(chan time.Duration, 1)
		w := &worker{declined: map[string]int{}, idle: &idleClock{}, requeue: func(*runHandle, jetstream.Msg) { requeued <- time.Since(start) },
			runs: map[string]*runHandle{"s": {cons: cons, active: true, ackWait: time.Minute}}}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { w.slot(ctx); close(done) }()
		at(start, 1300*time.Millisecond)                                   // the first fetch brought nothing
		w.decline(ctx, w.runs["s"], fakeMsg{subject: "nqueens.x.block.0"}) // rests 50 ms
		if got := <-requeued; got != 2250*time.Millisecond {
			t.Errorf("queued again at %s, want 2.25s (the end of the slot's fetch)", got)
		}
		at(start, 4*time.Second)
		cancel()
		<-done
		w.held.Wait()
		cons.mu.Lock()
		defer cons.mu.Unlock()
		var got []string
		for _, f := range cons.fetches {
			got = append(got, f.what)
		}
		if want := []string{"0-1000", "1250-2250", "2750-3750"}; !slices.Equal(got[:min(3, len(got))], want) {
			t.Errorf("fetches %v ms, want %v first", got, want)
		}
	})
}

// TestIdleExitOnTheFakeClock: a worker with IdleExit 3 s leaves at the
// first look more than 3 s after it last had work, once the queue said it
// has none (looks every 250 ms while idle, every 2 s while busy: the last
// busy look of "work until 10 s" is at 8.25 s); never while the server
// cannot be reached, unless its last word was an empty queue.
func TestIdleExitOnTheFakeClock(t *testing.T) {
	const exit = 3 * time.Second
	type answer struct {
		until  time.Duration // this answer holds until then; 0: from then on
		active int
		known  bool
	}
	for _, tc := range []struct {
		name    string
		answers []answer // the server's answers over time; the last holds on
		leaves  time.Duration
	}{
		{"the queue is empty", []answer{{0, 0, true}}, 3250 * time.Millisecond},
		{"the server is unreachable", []answer{{0, 0, false}}, 0},
		{"unreachable after saying it is empty", []answer{{time.Second, 0, true}, {0, 0, false}}, 3250 * time.Millisecond},
		{"work until 10 s", []answer{{10 * time.Second, 1, true}, {0, 0, true}}, 8250*time.Millisecond + 3250*time.Millisecond},
		{"unreachable for a minute, then empty", []answer{{time.Minute, 0, false}, {0, 0, true}}, time.Minute + 3*time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				w := &worker{idle: &idleClock{exit: exit, lastWork: start}}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				defer cancel()
				err := w.watch(ctx, 0, func(context.Context) (int, bool, error) {
					now := time.Since(start)
					for _, a := range tc.answers {
						if a.until == 0 || now < a.until {
							return a.active, a.known, nil
						}
					}
					return 0, false, nil
				})
				left := time.Since(start)
				switch {
				case tc.leaves == 0 && err != nil:
					t.Errorf("the worker left at %s (%v), want it to stay until the end", left, err)
				case tc.leaves != 0 && (err != errIdle || left != tc.leaves):
					t.Errorf("watch = %v at %s, want errIdle at %s", err, left, tc.leaves)
				}
			})
		})
	}
}

// TestLoopInterrupted: a loop whose ctx has ended when the bucket's
// watcher, which ends with the same ctx, has closed too says the run was
// interrupted (context.Canceled), every time. It took one for the other
// about half the time, and said "bucket watcher stopped".
func TestLoopInterrupted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o, err := CoordinatorOptions{Key: testKey, BlockSize: 16}.withDefaults(8)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		for i := range 24 {
			c := newCoordinator(o)
			c.run = runFor(8, 16, 1)
			c.io = &memIO{run: c.run, queuedMsg: map[int]int{}}
			updates := make(chan jetstream.KeyValueEntry)
			close(updates)
			c.updates, c.adv = updates, make(chan *nats.Msg)
			c.begin(ctx)
			err := c.loop(ctx)
			c.close()
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted with 0 of") {
				t.Fatalf("try %d: loop = %v, want it interrupted", i, err)
			}
		}
	})
}

// TestCoordinatorShrugsOffForgedRecords feeds the coordinator, a hundred
// times each, what a worker's key can write in the bucket or send it
// (anyone's, on a server without credentials): alarms under a key of three
// parts (which panicked the coordinator), alarms and results that no
// voter signed, results under keys of no block, failure reports that say
// the server gave up, the coordinator's record of a block set aside that
// it did not seal, and hand-back notices of no block. The loop goes on,
// sets no block aside, publishes no copy, and says one line per kind (a
// line per record flooded the log).
func TestCoordinatorShrugsOffForgedRecords(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		queued := map[int]int{0: 1, 1: 1, 2: 1, 3: 1, 4: 1}
		run := startFakeRun(t, CoordinatorOptions{}, false, queued)
		for i := range 100 {
			tok := fmt.Sprint("s", i%7)
			for _, e := range []entry{
				{key: "alarm.0", value: []byte("{}")},
				{key: fmt.Sprintf("alarm.0.%s.%d", tok, i), value: []byte(`{"first":{},"second":{}}`)},
				{key: "vote.16." + tok, value: []byte(`{"vote":{"n":8}}`)},
				{key: "vote.7." + tok, value: []byte("{}")},
				{key: "failed.0." + tok, value: []byte(`{"first":0,"last":15,"gave_up":true,"error":"forged"}`)},
				{key: "failed.16", value: []byte(`{"first":16,"last":31,"gave_up":true}`)},
			} {
				run.feed <- e
			}
			run.notices <- &nats.Msg{Subject: run.c.run.backSubject(tok), Data: []byte("7")}
		}
		time.Sleep(time.Second)
		if err := run.stop(); !errors.Is(err, context.Canceled) {
			t.Fatalf("loop: %v", err)
		}
		if aside := run.c.gaveUpBlocks(); len(aside) != 0 {
			t.Errorf("blocks set aside: %v", aside)
		}
		run.expect(t, nil, nil)
		for _, msg := range []string{"a malformed alarm in the bucket", "an alarm in the bucket that its voter did not raise", "a worker's results are refused",
			"a result in the bucket under a key of no block", "a block failed in a worker's hands", "a failure record in the bucket that the coordinator did not seal",
			"a hand-back notice names no block"} {
			// One line per kind and worker: the tokens s0 to s6 are seven
			// workers, where a line names one.
			lines := run.log.lines(msg)
			if n := len(lines); n == 0 || n > 7 {
				t.Errorf("%d lines of %q, want one per worker at most", n, msg)
			}
		}
	})
}

// TestCoordinatorRevokesAfterGrace: a key banned during the run is shut
// out of the server at the first check revokeGrace (15 s) after the ban,
// so that its worker reads its ban first (checks every 5 s: a ban at
// 3.5 s, shut out at 20 s), and once; a label of the shared credential
// has no key to shut out.
func TestCoordinatorRevokesAfterGrace(t *testing.T) {
	r := newIdentity(t)
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var mu sync.Mutex
		var revoked []event
		o := CoordinatorOptions{Voters: []string{r.Public(), newIdentity(t).Public()}, Revoke: func(voter string) (bool, error) {
			mu.Lock()
			defer mu.Unlock()
			revoked = append(revoked, event{time.Since(start), voter})
			return true, nil
		}}
		run := startFakeRun(t, o, false, map[int]int{0: 1, 1: 1, 2: 1, 3: 1, 4: 1})
		at(start, 3500*time.Millisecond)
		run.feed <- banOf(t, r, "r")
		at(start, 45*time.Second)
		if err := run.stop(); !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if want := []event{{20 * time.Second, r.Public()}}; !slices.Equal(revoked, want) {
			t.Errorf("revoked %v, want %v", revoked, want)
		}
	})
}
