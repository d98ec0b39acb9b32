package cluster

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/count"
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
	// BlockSize is the number of units per message; 0 means
	// [defaultBlockSize]. Replicas is the number of different workers that
	// must agree on each block (default 1). Both are fixed when the run is
	// created: resuming a run with other explicit values is an error.
	BlockSize int
	Replicas  int
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
	Banned   []string      // workers whose results were found wrong
	Checking int           // blocks waiting for the coordinator's own count
	Workers  int           // distinct workers whose results count
	Nodes    count.Uint128 // search nodes of the results stored since the start
	Elapsed  time.Duration
}

// Coordinate runs the count of N on the work queue reached through nc: it
// creates (or finds) the run's stream, bucket and consumer, publishes the
// blocks that lack results, decides each block from the workers' results
// (see [book]: quorum, spot checks, bans), and returns the exact count once
// every block is decided; the count is checked as [count.Tally.Result]
// describes. It returns an error when the only blocks left are ones the
// server gave up delivering (a later call retries those). If ctx ends first
// it returns ctx's error; the run's state stays on the server and a later
// call resumes it. Cost: O(units) memory, O(units/BlockSize) messages, and
// VerifyFraction of the count on this machine.
func Coordinate(ctx context.Context, nc *nats.Conn, n int, o CoordinatorOptions) (count.Result, error) {
	o, err := o.withDefaults(n)
	if err != nil {
		return count.Result{}, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return count.Result{}, err
	}
	c := &coordinator{o: o, js: js, nc: nc, start: time.Now(), failed: map[int]failure{}}
	if err := c.open(ctx, n); err != nil {
		return count.Result{}, err
	}
	defer c.close()
	if err := c.load(ctx); err != nil {
		return count.Result{}, err
	}
	c.retryGaveUp(ctx)
	if err := c.reconcile(ctx, true); err != nil {
		return count.Result{}, err
	}
	if err := c.loop(ctx); err != nil {
		return count.Result{}, err
	}
	c.report()
	r, err := c.book.result()
	if err != nil {
		return count.Result{}, fmt.Errorf("run %s: %w", c.run.ID, err)
	}
	r.Workers, r.Elapsed = len(c.book.voters), time.Since(c.start)
	return r, nil
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
	adv     chan *nats.Msg
	advSub  *nats.Subscription

	book      *book
	resumed   int
	nodes     count.Uint128 // of the results that arrived live
	failed    map[int]failure
	recounter *recounter
	stalls    int
	dirty     bool // a ban since the last reconcile
}

func (c *coordinator) log(msg string, args ...any) { c.o.Log.Info(msg, args...) }

// open creates or finds the run's stream, bucket and consumer and starts
// listening to the bucket and to the server's advisories.
func (c *coordinator) open(ctx context.Context, n int) error {
	if err := c.ensureRun(ctx, n); err != nil {
		return err
	}
	var seed [16]byte
	_, _ = crand.Read(seed[:]) // workers must not guess which blocks are checked
	c.book = newBook(c.run, c.o.VerifyFraction, [2]uint64{binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:])})
	c.adv = make(chan *nats.Msg, 64)
	var err error
	c.advSub, err = c.nc.ChanSubscribe("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES."+c.run.Stream+"."+consumer, c.adv)
	if err != nil {
		return err
	}
	if c.watcher, err = c.kv.WatchAll(ctx); err != nil {
		return fmt.Errorf("watching bucket %s: %w", c.run.Bucket, err)
	}
	c.recounter = startRecounter(ctx, c.run, c.o.VerifyWorkers)
	return nil
}

func (c *coordinator) close() {
	if c.recounter != nil {
		c.recounter.stop()
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
			return fmt.Errorf("run %s was started with %d replica(s), not %d; resume it without --replicas or with %d", run.ID, stored.Replicas, o.Replicas, stored.Replicas)
		}
		run = stored
	case !errors.Is(err, jetstream.ErrStreamNotFound):
		return fmt.Errorf("reading stream %s: %w", run.Stream, err)
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
		case e, ok := <-c.watcher.Updates():
			if !ok {
				return errors.New("bucket watcher stopped")
			}
			if e == nil {
				c.act(ctx)
				c.resumed = c.book.decided
				if c.resumed > 0 {
					c.log(fmt.Sprintf("resuming run %s: %d of %d units already counted", c.run.ID, c.resumed, c.run.Units))
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
	var retried []string
	for k, f := range c.failed {
		if !f.GaveUp {
			continue
		}
		b := c.run.block(k)
		if err := c.stream.DeleteMsg(ctx, f.StreamSeq); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			c.log(fmt.Sprintf("%s: cannot remove its failed message %d: %v", b, f.StreamSeq, err))
		}
		_ = c.kv.Delete(ctx, failedKey(b))
		delete(c.failed, k)
		retried = append(retried, b.String())
	}
	if len(retried) > 0 {
		slices.Sort(retried)
		c.log(fmt.Sprintf("retrying %d block(s) that failed in an earlier session: %s", len(retried), strings.Join(retried, "; ")))
	}
}

// loop runs until every block is decided.
func (c *coordinator) loop(ctx context.Context) error {
	tick := time.NewTicker(c.o.ProgressEvery)
	defer tick.Stop()
	check := time.NewTicker(min(max(c.o.AckWait, time.Second), 5*time.Second))
	defer check.Stop()
	for !c.book.done() {
		if failed := c.gaveUpBlocks(); len(failed) > 0 && c.book.decided+blocksLen(failed) == c.run.Units && c.recounter.idle() {
			c.report()
			return fmt.Errorf("run %s: %d block(s) failed %d times and were set aside: %s; restart the coordinator to retry them",
				c.run.ID, len(failed), c.o.MaxDeliver, formatBlocks(failed))
		}
		select {
		case <-ctx.Done():
			c.report()
			return fmt.Errorf("run %s interrupted with %d of %d units counted; run the coordinator again to resume: %w", c.run.ID, c.book.decided, c.run.Units, ctx.Err())
		case e, ok := <-c.watcher.Updates():
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
		case <-tick.C:
			c.report()
			continue
		case <-check.C:
			if err := c.reconcile(ctx, false); err != nil {
				return err
			}
			continue
		}
		c.act(ctx)
	}
	return nil
}

// act carries out what the book asked for: recounts, bans, log lines.
func (c *coordinator) act(ctx context.Context) {
	recounts, bans, notes := c.book.drain()
	for _, s := range notes {
		c.log(s)
	}
	for _, k := range recounts {
		c.recounter.add(k)
	}
	for _, b := range bans {
		b.At = time.Now().UTC()
		v, _ := json.Marshal(b)
		if _, err := c.kv.Put(ctx, bannedKey(b.Worker), v); err != nil {
			c.log(fmt.Sprintf("cannot record the ban of worker %s: %v", b.Worker, err))
		}
		c.dirty = true
	}
}

// reconcile publishes the block messages that are missing: for each
// undecided block, the results it still needs beyond the messages queued.
// At the start and after a ban it runs at once; otherwise only when the
// consumer has had nothing pending or in flight at two checks in a row: then
// a block without enough results lost one (a server crash between storing
// and acknowledging), and a message still in the stream used up its
// deliveries while no coordinator listened, and is set aside.
func (c *coordinator) reconcile(ctx context.Context, first bool) error {
	stalled := false
	if !first {
		info, err := c.cons.Info(ctx)
		if err == nil && info.NumPending == 0 && info.NumAckPending == 0 {
			c.stalls++
		} else {
			c.stalls = 0
		}
		stalled = c.stalls >= 2
		if !stalled && !c.dirty {
			return nil
		}
	}
	if stalled {
		c.stalls = 0
	}
	queued, err := c.queued(ctx)
	if err != nil {
		if first {
			return err
		}
		return nil
	}
	c.dirty = false
	var todo []Block
	for k := range c.run.blocks() {
		if c.failed[k].GaveUp {
			continue
		}
		b := c.run.block(k)
		if stalled && queued[k] > 0 && c.book.deficit(k, 0) > 0 {
			if m, err := c.stream.GetLastMsgForSubject(ctx, c.run.blockSubject(b)); err == nil {
				c.giveUp(ctx, k, b, m.Sequence, uint64(c.o.MaxDeliver))
			}
			continue
		}
		for range c.book.deficit(k, queued[k]) {
			todo = append(todo, b)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	// Ids are unique per call, so the server drops only a publish retried
	// within it; across calls the queued counts keep copies from piling up.
	nonce := time.Now().UnixNano()
	copyOf := map[int]int{}
	err = c.publish(ctx, todo, func(b Block) string {
		copyOf[b.First]++
		return fmt.Sprintf("%s.%d.%d.%d", c.run.ID, b.First, nonce, copyOf[b.First])
	})
	if err != nil {
		return err
	}
	if first {
		c.log(fmt.Sprintf("published %d block message(s) of up to %d unit(s) (%d units in all, %d result(s) each) of run %s to stream %s",
			len(todo), c.run.BlockSize, c.run.Units, c.run.Replicas, c.run.ID, c.run.Stream))
	} else {
		c.log(fmt.Sprintf("%d block message(s) were missing (results lost or discarded); published them again: %s", len(todo), formatBlocks(todo)))
	}
	return nil
}

// apply takes one bucket entry into account; live says it arrived during
// the run (so failures are worth a log line).
func (c *coordinator) apply(e jetstream.KeyValueEntry, live bool) {
	key := e.Key()
	if e.Operation() != jetstream.KeyValuePut {
		if k, _, ok := c.keyBlock(key, "failed."); ok {
			delete(c.failed, k)
		}
		return
	}
	switch {
	case strings.HasPrefix(key, "vote."):
		c.applyVote(key, e.Value(), live)
	case strings.HasPrefix(key, "failed."):
		c.applyFailure(key, e.Value(), live)
	case strings.HasPrefix(key, "alarm."):
		var a alarm
		if err := json.Unmarshal(e.Value(), &a); err != nil || a.First.Worker == "" {
			c.log(fmt.Sprintf("bucket key %s holds a malformed alarm", key))
			return
		}
		c.book.banWorker(a.First.Worker, fmt.Sprintf("it gave two different results for %s", a.First.block()))
	case strings.HasPrefix(key, "banned."):
		var b ban
		if json.Unmarshal(e.Value(), &b) == nil && b.Worker != "" {
			c.book.banWorker(b.Worker, b.Reason)
		}
	}
}

func (c *coordinator) applyVote(key string, value []byte, live bool) {
	var v vote
	k, b, ok := c.keyBlock(key, "vote.")
	if !ok || json.Unmarshal(value, &v) != nil {
		c.log(fmt.Sprintf("bucket key %s holds a malformed result; ignored", key))
		return
	}
	if err := v.check(c.run.N, b); err != nil || key != voteKey(b, v.Worker) {
		if err == nil {
			err = errors.New("its key does not name its worker")
		}
		c.book.banWorker(v.Worker, fmt.Sprintf("it stored an impossible result for %s: %v", b, err))
		return
	}
	if live {
		for _, u := range v.Units {
			c.nodes, _ = c.nodes.Add(count.U128(u.Nodes))
		}
		if v.Delivered > 1 && c.run.Replicas == 1 {
			c.log(fmt.Sprintf("%s counted by %s on delivery %d (an earlier worker died, failed or lost its connection)", b, v.Worker, v.Delivered))
		}
	}
	delete(c.failed, k)
	c.book.add(k, v)
}

func (c *coordinator) applyFailure(key string, value []byte, live bool) {
	var f failure
	k, b, ok := c.keyBlock(key, "failed.")
	if !ok || json.Unmarshal(value, &f) != nil || c.book.ballots[k].verdict != nil {
		return
	}
	known := c.failed[k].GaveUp
	c.failed[k] = f
	if live && !(known && f.GaveUp) {
		verb := "failed"
		if f.GaveUp {
			verb = "failed for the last time (set aside until the coordinator restarts)"
		}
		c.log(fmt.Sprintf("%s %s on attempt %d (worker %s): %s", b, verb, f.Delivered, f.Worker, f.Error))
	}
}

// keyBlock reads the block from a bucket key with the given prefix
// ("vote.<first>.<worker>", "failed.<first>", "alarm.<first>.<nonce>").
func (c *coordinator) keyBlock(key, prefix string) (int, Block, bool) {
	s, ok := strings.CutPrefix(key, prefix)
	if !ok {
		return 0, Block{}, false
	}
	s, _, _ = strings.Cut(s, ".")
	first, err := strconv.Atoi(s)
	if err != nil {
		return 0, Block{}, false
	}
	k, ok := c.run.blockNumber(first)
	return k, c.run.block(k), ok
}

// advisory records a block the server stopped delivering.
func (c *coordinator) advisory(ctx context.Context, m *nats.Msg) {
	var adv struct {
		StreamSeq  uint64 `json:"stream_seq"`
		Deliveries uint64 `json:"deliveries"`
	}
	if json.Unmarshal(m.Data, &adv) != nil || adv.StreamSeq == 0 {
		return
	}
	msg, err := c.stream.GetMsg(ctx, adv.StreamSeq)
	if err != nil {
		c.log(fmt.Sprintf("a block message (stream sequence %d) failed %d times, and cannot be read: %v", adv.StreamSeq, adv.Deliveries, err))
		return
	}
	k, b, err := c.run.blockOf(msg.Subject)
	if err != nil {
		c.log(fmt.Sprintf("message %d on %s failed %d times: %v", adv.StreamSeq, msg.Subject, adv.Deliveries, err))
		return
	}
	if c.book.ballots[k].verdict != nil {
		// A copy nobody needed any more (declined by every worker that
		// already voted on the block): drop it.
		_ = c.stream.DeleteMsg(ctx, adv.StreamSeq)
		return
	}
	c.giveUp(ctx, k, b, adv.StreamSeq, adv.Deliveries)
}

// giveUp records that the server stopped delivering block b (its message
// has stream sequence seq), so that the run reports it and the next
// coordinator start retries it.
func (c *coordinator) giveUp(ctx context.Context, k int, b Block, seq, deliveries uint64) {
	f := c.failed[k]
	f.First, f.Last, f.GaveUp, f.StreamSeq = b.First, b.Last, true, seq
	f.Delivered = max(f.Delivered, deliveries)
	if f.Error == "" {
		f.Error = "no worker finished it (killed, or lost its connection, each time)"
	}
	v, _ := json.Marshal(f)
	if _, err := c.kv.Put(ctx, failedKey(b), v); err != nil {
		c.log(fmt.Sprintf("%s: cannot record its failure: %v", b, err))
	}
	// The watcher will bring the same record; keep it now so that the
	// run's end is seen without waiting for it.
	c.failed[k] = f
	c.log(fmt.Sprintf("%s set aside after %d attempt(s): %s; retried when the coordinator restarts", b, f.Delivered, f.Error))
}

func (c *coordinator) gaveUpBlocks() []Block {
	var out []Block
	for k, f := range c.failed {
		if f.GaveUp && c.book.ballots[k].verdict == nil {
			out = append(out, c.run.block(k))
		}
	}
	slices.SortFunc(out, func(a, b Block) int { return a.First - b.First })
	return out
}

func (c *coordinator) report() {
	if c.o.Progress == nil {
		return
	}
	var banned []string
	for w := range c.book.banned {
		banned = append(banned, w)
	}
	slices.Sort(banned)
	c.o.Progress(RunProgress{Run: c.run, Done: c.book.decided, Resumed: c.resumed, Failed: c.gaveUpBlocks(),
		Banned: banned, Checking: c.recounter.pending(), Workers: len(c.book.voters), Nodes: c.nodes, Elapsed: time.Since(c.start)})
}

func blocksLen(bs []Block) int {
	n := 0
	for _, b := range bs {
		n += b.Len()
	}
	return n
}

// formatBlocks lists the units of blocks compactly, as [formatUnits] does.
func formatBlocks(bs []Block) string {
	var units []int
	for _, b := range bs {
		for u := b.First; u <= b.Last; u++ {
			units = append(units, u)
		}
	}
	return "units " + formatUnits(slices.Compact(units))
}

// queued returns how many messages each block has in the stream, queued or
// being worked on. Cost: one request per page of subjects.
func (c *coordinator) queued(ctx context.Context) (map[int]int, error) {
	info, err := c.stream.Info(ctx, jetstream.WithSubjectFilter(c.run.Subject+".*"))
	if err != nil {
		return nil, fmt.Errorf("reading stream %s: %w", c.run.Stream, err)
	}
	out := make(map[int]int, len(info.State.Subjects))
	for subj, msgs := range info.State.Subjects {
		if k, _, err := c.run.blockOf(subj); err == nil {
			out[k] = int(msgs)
		}
	}
	return out, nil
}

// publish publishes block messages asynchronously with the given message
// ids, so the server drops a retried publish; failed publishes are retried
// once synchronously.
func (c *coordinator) publish(ctx context.Context, blocks []Block, id func(Block) string) error {
	run := c.run
	ids := make([]string, len(blocks))
	body := func(b Block) []byte {
		v, _ := json.Marshal(blockJob{Run: run.ID, N: run.N, First: b.First, Last: b.Last, Replicas: run.Replicas})
		return v
	}
	futures := make([]jetstream.PubAckFuture, len(blocks))
	for k, b := range blocks {
		ids[k] = id(b)
		f, err := c.js.PublishAsync(run.blockSubject(b), body(b), jetstream.WithMsgID(ids[k]))
		if err != nil {
			return fmt.Errorf("publishing %s: %w", b, err)
		}
		futures[k] = f
	}
	select {
	case <-c.js.PublishAsyncComplete():
	case <-ctx.Done():
		return ctx.Err()
	}
	for k, f := range futures {
		select {
		case <-f.Ok():
			continue
		default:
		}
		b := blocks[k]
		if _, err := c.js.Publish(ctx, run.blockSubject(b), body(b), jetstream.WithMsgID(ids[k])); err != nil {
			return fmt.Errorf("publishing %s: %w", b, err)
		}
	}
	return nil
}
