package queue

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
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
	// about 0.1 s of work a block. Replicas is the number of different workers that
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
// (quorum, spot checks, bans: see the package doc), and returns the exact count once
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
		if err := c.stream.DeleteMsg(ctx, f.StreamSeq); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			c.o.Log.Warn("cannot remove a failed block's message", "units", b, "seq", f.StreamSeq, "error", err)
		}
		_ = c.kv.Delete(ctx, failedKey(b))
		delete(c.failed, k)
		retried = append(retried, b)
	}
	if len(retried) > 0 {
		c.o.Log.Info("retrying blocks that failed in an earlier session", "blocks", len(retried), "units", formatBlocks(retried))
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
			return fmt.Errorf("run %s: %d block(s) failed %d times and were set aside: units %s; restart the coordinator to retry them",
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
	for _, n := range notes {
		c.o.Log.Log(ctx, n.level, n.msg, n.args...)
	}
	for _, k := range recounts {
		c.recounter.add(k)
	}
	for _, b := range bans {
		b.At = time.Now().UTC()
		v, _ := json.Marshal(b)
		if _, err := c.kv.Put(ctx, bannedKey(b.Worker), v); err != nil {
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
	for w := range c.book.banned {
		banned = append(banned, w)
	}
	slices.Sort(banned)
	c.o.Progress(RunProgress{Run: c.run, Done: c.book.decided, Resumed: c.resumed, Failed: c.gaveUpBlocks(),
		Banned: banned, Checking: c.recounter.pending(), Workers: len(c.book.voters), Nodes: c.nodes, Elapsed: time.Since(c.start)})
}
