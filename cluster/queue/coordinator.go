package queue

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/seal"
)

// CoordinatorOptions tune [Coordinate]. The zero value is usable.
type CoordinatorOptions struct {
	// AckWait is how long a worker may hold a block without reporting
	// progress before the server delivers it to another (default 1 min;
	// workers report progress at a third of it).
	AckWait time.Duration
	// MaxDeliver is the number of attempts after which a failing block is
	// reported instead of delivered again (default 5).
	MaxDeliver int
	// BlockSize is the number of units per message; 0 means about 0.1 s of
	// work a block. Replicas is the number of distinct voters (credentials,
	// see Voters) that must agree on each block (default 1). Both are fixed
	// when the run is created: resuming a run with other explicit values is
	// an error.
	BlockSize int
	Replicas  int
	// Key seals and opens every result: the pool's seal key, which every
	// worker holds (required).
	Key *seal.Key
	// Voters are the public user NKeys whose signed results count as
	// distinct voters (the keys an embedded server admits, or the users of
	// your server). Without them every worker votes with one shared
	// credential, and Replicas must be 1.
	Voters []string
	// UnitProbes is the number of random probes down each unit's search
	// tree by which the coordinator checks every result against its
	// unit's estimate ([count.UnitEstimate]): a result far outside it is
	// counted again by the coordinator before it counts, and a worker
	// whose result differs is banned. 0 means [count.UnitProbes] past the
	// published counts, where nothing else checks a unit's size, and none
	// within them (the table checks the total); negative means none. The
	// N counted by the join of half boards have no such estimate (all are
	// within the table). The checks run on VerifyWorkers cores.
	UnitProbes int
	// VerifyFraction is the share of blocks (0 to 1) that the coordinator
	// counts again itself, chosen at random after a worker's result
	// arrives; a worker whose result differs is banned and all its results
	// are counted again. VerifyWorkers is the number of cores it uses for
	// that (default 1).
	VerifyFraction float64
	VerifyWorkers  int
	// StreamReplicas is the number of copies of the run's stream and
	// bucket on a clustered NATS server (default 1).
	StreamReplicas int
	// StoreHealth, if set, reports a write error of the server's store,
	// such as a full disk ([EmbeddedServer.StoreError]): the coordinator
	// asks it when nothing was decided between two checks.
	StoreHealth func() error
	// Progress, if set, is called about every ProgressEvery (default 5 s)
	// and once at the end, from one goroutine.
	Progress      func(RunProgress)
	ProgressEvery time.Duration
	// Log receives one record per notable event: resuming, blocks
	// published, failures, alarms, bans. Nil discards them.
	Log *slog.Logger
}

// RunProgress reports the state of a run.
type RunProgress struct {
	Run      Run
	Done     int           // units with a decided result
	Resumed  int           // of those, decided from results found at the start
	Failed   []Block       // blocks the server gave up delivering
	Banned   []string      // labels of the workers whose results were found wrong
	Checking int           // blocks waiting for the coordinator's own count
	Workers  int           // distinct voters (credentials, or labels of the shared one) whose results count
	Nodes    count.Uint128 // search nodes of the results stored since the start
	Elapsed  time.Duration
}

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

// RunResult is a finished run: its count, and what backs it.
type RunResult struct {
	count.Result
	Backing Backing
}

// QuorumError refuses a run whose Replicas its voters can never meet.
type QuorumError struct {
	Replicas int
	Voters   int // keys of the voters list; 0 when every worker shares one credential
}

func (e *QuorumError) Error() string {
	if e.Voters == 0 {
		return fmt.Sprintf("--replicas %d needs every block counted by %d distinct credentials, and without NKeys all workers vote with one shared credential (loopback without credentials, or a token), however they are named: "+
			"give each worker its own NKey and list the public keys with --auth-nkeys (see docs/security.md), or run with --replicas 1 and --verify-fraction above 0", e.Replicas, e.Replicas)
	}
	return fmt.Sprintf("--replicas %d needs every block counted by %d distinct credentials, and --auth-nkeys lists %d: add keys, or run with fewer replicas", e.Replicas, e.Replicas, e.Voters)
}

// withDefaults fills in and checks o.
func (o CoordinatorOptions) withDefaults(n int) (CoordinatorOptions, error) {
	if err := board.CheckSize(n, "a run", count.MaxN); err != nil {
		return o, err
	}
	if o.AckWait <= 0 {
		o.AckWait = time.Minute
	}
	if o.MaxDeliver <= 0 {
		o.MaxDeliver = 5
	}
	if o.StreamReplicas <= 0 {
		o.StreamReplicas = 1
	}
	if o.VerifyWorkers <= 0 {
		o.VerifyWorkers = 1
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 5 * time.Second
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	switch {
	case o.BlockSize < 0 || o.BlockSize > MaxBlockSize:
		return o, fmt.Errorf("block size %d is outside 1..%d", o.BlockSize, MaxBlockSize)
	case o.Replicas < 0 || o.Replicas > MaxReplicas:
		return o, fmt.Errorf("replicas %d is outside 1..%d", o.Replicas, MaxReplicas)
	case !(o.VerifyFraction >= 0 && o.VerifyFraction <= 1):
		return o, fmt.Errorf("verify fraction %g is outside 0..1", o.VerifyFraction)
	case o.Key == nil:
		return o, errors.New("a run needs the pool's seal key")
	}
	_, _, known := count.Known(n)
	join := n >= count.JoinFrom && n <= count.JoinTo
	switch {
	case o.UnitProbes > 0 && join:
		return o, fmt.Errorf("unit probes: the board of %d rows is counted by the join of half boards, whose units have no probe estimate to check results against", n)
	case o.UnitProbes == 0 && !known && !join:
		o.UnitProbes = count.UnitProbes
	case o.UnitProbes < 0:
		o.UnitProbes = 0
	}
	return o, nil
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

	// What the loop reads and writes: the server (jsIO), the bucket's
	// entries as they are stored, and the server's advisories of blocks
	// it stopped delivering.
	io      queueIO
	updates <-chan jetstream.KeyValueEntry
	adv     chan *nats.Msg

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
	return &coordinator{o: o, start: now, pace: pacer{start: now, decidedAt: now}, failed: map[int]failure{}, checking: map[int]int{}, usedKeys: map[string]bool{}, seen: map[string]seen{}}
}

// open creates or finds the run's stream, bucket and consumer and starts
// listening to the bucket and to the server's advisories.
func (c *coordinator) open(ctx context.Context, n int) error {
	if err := c.ensureRun(ctx, n); err != nil {
		return err
	}
	c.io = &jsIO{run: c.run, js: c.js, stream: c.stream, cons: c.cons, kv: c.kv}
	c.adv = make(chan *nats.Msg, 64)
	var err error
	c.advSub, err = c.nc.ChanSubscribe("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES."+c.run.Stream+"."+consumer, c.adv)
	if err != nil {
		return err
	}
	if c.watcher, err = c.kv.WatchAll(ctx); err != nil {
		return fmt.Errorf("watching bucket %s: %w", c.run.Bucket, err)
	}
	c.updates = c.watcher.Updates()
	c.begin(ctx)
	return nil
}

// begin starts the book and the coordinator's own counting of c.run.
func (c *coordinator) begin(ctx context.Context) {
	var seed [24]byte
	_, _ = crand.Read(seed[:]) // workers must not guess which blocks are checked, nor how
	c.book = newBook(c.run, c.o.VerifyFraction, [2]uint64{binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:16])}, c.o.Voters)
	c.recounter = startRecounter(ctx, c.run, c.o.VerifyWorkers)
	if c.o.UnitProbes > 0 {
		c.checker = startChecker(ctx, c.run, c.o.UnitProbes, c.o.VerifyWorkers, binary.LittleEndian.Uint64(seed[16:]))
	}
}

func (c *coordinator) close() {
	if c.recounter != nil {
		c.recounter.stop()
	}
	if c.checker != nil {
		c.checker.stop()
	}
	if c.watcher != nil {
		_ = c.watcher.Stop()
	}
	if c.advSub != nil {
		_ = c.advSub.Unsubscribe()
	}
}

// ensureRun creates the stream, bucket and consumer of the run of N, or
// finds them (updating the consumer's ack wait and attempts), and sets
// c.run: block size and replicas from the options for a new run, the
// stored ones for an existing run.
func (c *coordinator) ensureRun(ctx context.Context, n int) error {
	o := c.o
	size, replicas := o.BlockSize, o.Replicas
	if size == 0 {
		size = defaultBlockSize(n)
	}
	if replicas == 0 {
		replicas = 1
	}
	run := runFor(n, size, replicas)
	existing, err := c.js.Stream(ctx, run.Stream)
	switch {
	case err == nil:
		stored, err := runFromMetadata(run.Stream, existing.CachedInfo().Config.Metadata)
		if err != nil {
			return err
		}
		if o.BlockSize != 0 && o.BlockSize != stored.BlockSize {
			return fmt.Errorf("run %s was started with blocks of %d units, not %d; resume it without a block size or with %d", run.ID, stored.BlockSize, o.BlockSize, stored.BlockSize)
		}
		if o.Replicas != 0 && o.Replicas != stored.Replicas {
			return fmt.Errorf("run %s was started with %d replica(s), not %d; resume it without --replicas, or with --replicas %d", run.ID, stored.Replicas, o.Replicas, stored.Replicas)
		}
		run = stored
	case !errors.Is(err, jetstream.ErrStreamNotFound):
		return fmt.Errorf("reading stream %s: %w", run.Stream, err)
	}
	// Refused before anything is created: a run its voters cannot decide
	// would be refused again at every start.
	if run.Replicas > max(1, len(o.Voters)) {
		return &QuorumError{Replicas: run.Replicas, Voters: len(o.Voters)}
	}
	// Past the table, options that can never back a total are refused
	// before any work: the run would end in an [*UnbackedError].
	if _, _, known := count.Known(n); !known && o.VerifyFraction == 0 && run.Replicas < 2 {
		return &UnbackedError{N: n, Backing: Backing{Replicas: run.Replicas}, AtStart: true}
	}
	c.run = run
	if c.stream, err = c.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        run.Stream,
		Description: run.Fingerprint,
		Subjects:    []string{run.Subject + ".*"},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Replicas:    o.StreamReplicas,
		Duplicates:  10 * time.Minute,
		Metadata:    run.metadata(),
	}); err != nil {
		return fmt.Errorf("creating stream %s: %w", run.Stream, err)
	}
	if c.kv, err = c.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: run.Bucket, Description: run.Fingerprint, Storage: jetstream.FileStorage, Replicas: o.StreamReplicas, History: 1,
	}); err != nil {
		return fmt.Errorf("creating bucket %s: %w", run.Bucket, err)
	}
	if c.cons, err = c.js.CreateOrUpdateConsumer(ctx, run.Stream, jetstream.ConsumerConfig{
		Durable:       consumer,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       o.AckWait,
		MaxDeliver:    o.MaxDeliver,
		FilterSubject: run.Subject + ".*",
	}); err != nil {
		return fmt.Errorf("creating consumer %s: %w", consumer, err)
	}
	return nil
}

// load reads every stored entry of the bucket: the watcher first delivers
// them all, then a nil marker.
func (c *coordinator) load(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-c.updates:
			if !ok {
				return errors.New("bucket watcher stopped")
			}
			if e == nil {
				c.act(ctx)
				c.resumed = c.book.decided
				if c.resumed > 0 {
					c.o.Log.Info("resuming a run", "run", c.run.ID, "counted", c.resumed, "units", c.run.Units)
				}
				return nil
			}
			c.apply(e, false)
		}
	}
}

// retryGaveUp removes the messages of blocks the server gave up on in an
// earlier session, so that reconcile publishes them again.
func (c *coordinator) retryGaveUp(ctx context.Context) {
	var retried []Block
	for k, f := range c.failed {
		if !f.GaveUp {
			continue
		}
		b := c.run.block(k)
		if err := c.io.deleteMsg(ctx, f.StreamSeq); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			c.o.Log.Warn("cannot remove a failed block's message", "units", b, "seq", f.StreamSeq, "error", err)
		}
		_ = c.io.deleteKey(ctx, failedKey(b))
		delete(c.failed, k)
		retried = append(retried, b)
	}
	if len(retried) > 0 {
		c.o.Log.Info("retrying blocks that failed in an earlier session", "blocks", len(retried), "units", formatBlocks(retried))
	}
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
		if failed := c.gaveUpBlocks(); len(failed) > 0 && c.book.decided+blocksLen(failed) == c.run.Units && c.recounter.idle() && c.checkersIdle() {
			c.report()
			return fmt.Errorf("run %s: %d block(s) failed %d times and were set aside: units %s; restart the coordinator to retry them",
				c.run.ID, len(failed), c.o.MaxDeliver, formatBlocks(failed))
		}
		select {
		case <-ctx.Done():
			c.report()
			return fmt.Errorf("run %s interrupted with %d of %d units counted: %w", c.run.ID, c.book.decided, c.run.Units, ctx.Err())
		case e, ok := <-c.updates:
			if !ok {
				return errors.New("bucket watcher stopped")
			}
			if e != nil {
				c.apply(e, true)
			}
		case m := <-c.adv:
			c.advisory(ctx, m)
		case r := <-c.recounter.results:
			if r.err != nil {
				return fmt.Errorf("run %s: counting %s again: %w", c.run.ID, c.run.block(r.k), r.err)
			}
			c.book.recounted(r.k, r.units)
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
	return nil
}

func (c *coordinator) checkersIdle() bool { return c.checker == nil || c.checker.idle() }

// probeTimeout bounds the probe's write: a server with a full disk gives
// no answer to a write.
const probeTimeout = 5 * time.Second

// probe finds a server that can store no more (a full disk, JetStream's
// limits), which stalls a run without a word: it asks StoreHealth, then
// writes a small record; a refusal for lack of room ends the run with a
// [*StoreFullError], and so does a write that gets no answer at two
// probes in a row while the server answers reads (answered: the check's
// read of the consumer) — JetStream answers nothing to a write that its
// disk refused.
func (c *coordinator) probe(ctx context.Context, answered bool) error {
	full := func(err error) error {
		return &StoreFullError{Run: c.run.ID, Done: c.book.decided, Units: c.run.Units, Err: err}
	}
	if c.o.StoreHealth != nil {
		if err := c.o.StoreHealth(); err != nil {
			return full(err)
		}
	}
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	err := c.io.put(pctx, "probe.coordinator", []byte(time.Now().UTC().Format(time.RFC3339)))
	timedOut := errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil
	switch {
	case storageError(err):
		return full(err)
	case c.pace.unanswered(timedOut && answered):
		return full(fmt.Errorf("it answers reads, and no write at %d probes in a row (%v)", unansweredProbes, err))
	}
	return nil
}

// checkVoters says, and says again while it lasts, when fewer distinct
// voters are at work than a block needs: the run waits for a worker with
// another credential, and names the ones it has.
func (c *coordinator) checkVoters(now time.Time) {
	if c.run.Replicas < 2 || c.book.done() || c.book.starving {
		return
	}
	atWork := c.atWork(now)
	if !c.pace.sayWait(now, len(atWork) < c.run.Replicas) {
		return
	}
	c.o.Log.Warn("waiting: the run's --replicas needs every block counted by that many distinct credentials, and fewer are at work; start a worker with another NKey of --auth-nkeys",
		"replicas", c.run.Replicas, "credentials_at_work", len(atWork), "workers", describeWorkers(atWork))
}

// atWork returns the eligible voters with a worker at work (a presence
// record seen within activeWindow), and the labels of those workers.
func (c *coordinator) atWork(now time.Time) map[string][]string {
	atWork := map[string][]string{} // voter → labels
	for _, s := range c.seen {
		if now.Sub(s.at) < activeWindow && c.book.eligible[s.voter] {
			atWork[s.voter] = append(atWork[s.voter], s.label)
		}
	}
	return atWork
}

// describeWorkers lists voters at work with their workers' labels.
func describeWorkers(atWork map[string][]string) string {
	var workers []string
	for v, labels := range atWork {
		slices.Sort(labels)
		workers = append(workers, fmt.Sprintf("%s (%s)", strings.Join(labels, ", "), voterName(v)))
	}
	slices.Sort(workers)
	return strings.Join(workers, "; ")
}

// quietBlocks is how many of the blocks left checkQuiet describes.
const quietBlocks = 3

// checkQuiet says, once the run has decided no block for quietFor, and
// again every waitRepeat while that lasts, what it waits for: the blocks
// left, the first of them with their results and copies, and the workers
// at work. Long blocks or busy workers are good reasons to wait, but a
// run never waits without a word.
func (c *coordinator) checkQuiet(now time.Time) {
	say, since := c.pace.sayQuiet(now, c.book.decided)
	if !say || c.book.done() {
		return
	}
	var left, units int
	var first []string
	for k := range c.book.ballots {
		if c.book.ballots[k].verdict != nil {
			continue
		}
		left++
		units += c.run.block(k).Len()
		if len(first) < quietBlocks {
			first = append(first, c.waitsFor(k))
		}
	}
	c.o.Log.Warn("no block decided for a while; the run waits for these blocks", "for", since.Round(time.Second),
		"blocks_left", left, "units_left", units, "first", strings.Join(first, "; "), "workers_at_work", describeWorkers(c.atWork(now)))
}

// waitsFor says what undecided block k waits for: the coordinator's own
// count, or results beyond those it has, from the copies in the stream.
func (c *coordinator) waitsFor(k int) string {
	bl := &c.book.ballots[k]
	b := c.run.block(k)
	switch {
	case c.failed[k].GaveUp:
		return fmt.Sprintf("%s: set aside after %d attempts, until the coordinator restarts", b, c.failed[k].Delivered)
	case bl.recount:
		return fmt.Sprintf("%s: being counted again by the coordinator", b)
	}
	var labels []string
	for _, v := range bl.votes {
		labels = append(labels, v.Worker)
	}
	slices.Sort(labels)
	s := fmt.Sprintf("%s: %d of %d results", b, len(bl.votes), c.run.Replicas)
	if len(labels) > 0 {
		s += " (" + strings.Join(labels, ", ") + ")"
	}
	if n := c.checking[k]; n > 0 {
		s += fmt.Sprintf(", %d under an estimate check", n)
	}
	if n := c.queued[k]; n == 1 {
		s += ", 1 copy queued or being counted"
	} else {
		s += fmt.Sprintf(", %d copies queued or being counted", n)
	}
	return s
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
	for _, b := range bans {
		b.At = time.Now().UTC()
		v, err := c.o.Key.Seal(b)
		if err == nil {
			err = c.io.put(ctx, bannedKey(b.token()), v)
		}
		if err != nil {
			c.o.Log.Warn("cannot record a ban", "worker", b.Worker, "error", err)
		}
		c.dirty = true
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
