package queue

import (
	"cmp"
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/count"
)

// open creates or finds the run's stream, bucket and consumer and starts
// listening to the bucket and to the server's advisories.
func (c *coordinator) open(ctx context.Context, n int) error {
	if err := c.ensureRun(ctx, n); err != nil {
		return err
	}
	c.io = &jsIO{run: c.run, key: c.o.Key, js: c.js, stream: c.stream, cons: c.cons, kv: c.kv}
	c.adv = make(chan *nats.Msg, 64)
	var err error
	c.advSub, err = c.nc.ChanSubscribe("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES."+c.run.Stream+"."+consumer, c.adv)
	if err != nil {
		return err
	}
	c.back = make(chan *nats.Msg, 256)
	if c.backSub, err = c.nc.ChanSubscribe(c.run.backSubject("*"), c.back); err != nil {
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
	c.revokeDue(time.Now().Add(revokeGrace)) // every key banned, by the end
	if c.recounter != nil {
		c.recounter.stop()
	}
	if c.checker != nil {
		c.checker.stop()
	}
	if c.watcher != nil {
		_ = c.watcher.Stop()
	}
	for _, sub := range []*nats.Subscription{c.advSub, c.backSub} {
		if sub != nil {
			_ = sub.Unsubscribe()
		}
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
		Metadata:    run.metadata(o.Key),
	}); storageError(err) {
		return c.storeFull(err)
	} else if err != nil {
		return fmt.Errorf("creating stream %s: %w", run.Stream, err)
	}
	if c.kv, err = c.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: run.Bucket, Description: run.Fingerprint, Storage: jetstream.FileStorage, Replicas: o.StreamReplicas, History: 1,
	}); storageError(err) {
		return c.storeFull(err)
	} else if err != nil {
		return fmt.Errorf("creating bucket %s: %w", run.Bucket, err)
	}
	if c.cons, err = c.js.CreateOrUpdateConsumer(ctx, run.Stream, jetstream.ConsumerConfig{
		Durable:       consumer,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       o.AckWait,
		MaxDeliver:    o.MaxDeliver,
		FilterSubject: run.Subject + ".*",
	}); storageError(err) {
		return c.storeFull(err)
	} else if err != nil {
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
				return cmp.Or(ctx.Err(), errWatcherStopped)
			}
			if e == nil {
				c.act(ctx)
				c.loaded = true
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
