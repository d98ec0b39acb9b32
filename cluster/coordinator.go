package cluster

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
	// [DefaultBlockSize]. It is fixed when the run is created: resuming a
	// run with another explicit size is an error.
	BlockSize int
	// Replicas of the stream and bucket on a clustered NATS (default 1).
	Replicas int
	// Progress, if set, is called about every ProgressEvery (default 5 s)
	// and once at the end, from one goroutine.
	Progress      func(RunProgress)
	ProgressEvery time.Duration
	// Log, if set, receives one line per notable event: resuming, blocks
	// published, failures, alarms.
	Log func(string)
}

// RunProgress reports the state of a run.
type RunProgress struct {
	Run       Run
	BlockSize int
	Units     int
	Done      int           // units with a result
	Resumed   int           // of those, found in the bucket at the start
	Failed    []Block       // blocks the server gave up delivering
	Alarms    int           // units with two different results
	Workers   int           // distinct workers that stored results
	Nodes     count.Uint128 // search nodes of the units counted since the start (resumed ones excluded)
	Elapsed   time.Duration
}

// Coordinate runs the count of N on the work queue reached through nc: it
// creates (or finds) the run's stream, bucket and consumer, publishes the
// blocks of units that have neither a result nor a queued message, and
// tallies the results as workers store them. It returns the exact count
// once every unit has a result and no alarm was raised; an error when a
// unit has two different results, or when the only blocks left are ones
// the server gave up delivering (a later call retries those). If ctx ends
// first it returns ctx's error; the run's state stays on the server and a
// later call resumes it. Cost: O(units) memory, O(units/BlockSize)
// messages.
func Coordinate(ctx context.Context, nc *nats.Conn, n int, o CoordinatorOptions) (count.Result, error) {
	if n < 1 || n > count.MaxN {
		return count.Result{}, fmt.Errorf("N = %d is outside 1..%d", n, count.MaxN)
	}
	if o.AckWait <= 0 {
		o.AckWait = time.Minute
	}
	if o.MaxDeliver <= 0 {
		o.MaxDeliver = 5
	}
	if o.Replicas <= 0 {
		o.Replicas = 1
	}
	if o.BlockSize < 0 || o.BlockSize > MaxBlockSize {
		return count.Result{}, fmt.Errorf("block size %d is outside 1..%d", o.BlockSize, MaxBlockSize)
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 5 * time.Second
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			o.Log(fmt.Sprintf(format, args...))
		}
	}
	start := time.Now()
	run := RunFor(n)
	units := count.Units(n)
	js, err := jetstream.New(nc)
	if err != nil {
		return count.Result{}, err
	}
	stream, kv, cons, size, err := ensureRun(ctx, js, run, o)
	if err != nil {
		return count.Result{}, err
	}

	// Blocks the server gives up on are announced by an advisory.
	advisories := make(chan *nats.Msg, 64)
	sub, err := nc.ChanSubscribe("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES."+run.Stream+"."+Consumer, advisories)
	if err != nil {
		return count.Result{}, err
	}
	defer sub.Unsubscribe()

	watcher, err := kv.WatchAll(ctx)
	if err != nil {
		return count.Result{}, fmt.Errorf("watching bucket %s: %w", run.Bucket, err)
	}
	defer watcher.Stop()

	nblocks := run.blocks(size)
	c := &coordinator{n: n, run: run, size: size, units: units, got: make([]*BlockRecord, nblocks),
		failed: map[int]FailRecord{}, workers: map[string]bool{}, logf: logf, kv: kv}
	// The watcher first delivers every stored entry, then a nil marker.
	for loaded := false; !loaded; {
		select {
		case <-ctx.Done():
			return count.Result{}, ctx.Err()
		case e, ok := <-watcher.Updates():
			if !ok {
				return count.Result{}, errors.New("bucket watcher stopped")
			}
			if e == nil {
				loaded = true
				break
			}
			c.apply(e, false)
		}
	}
	c.resumed = c.done
	if c.done > 0 {
		logf("resuming run %s: %d of %d units already counted", run.ID, c.done, units)
	}

	// Retry the blocks the server gave up on in an earlier session.
	retry := map[int]uint64{} // block number → stream sequence of its failed message
	for k, f := range c.failed {
		if f.GaveUp && c.got[k] == nil {
			retry[k] = f.StreamSeq
		}
	}
	var retried []string
	for k, seq := range retry {
		b := run.block(k, size)
		if err := stream.DeleteMsg(ctx, seq); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			logf("%s: cannot remove its failed message %d: %v", b, seq, err)
		}
		_ = kv.Delete(ctx, failedKey(b))
		delete(c.failed, k)
		retried = append(retried, b.String())
	}
	if len(retry) > 0 {
		slices.Sort(retried)
		logf("retrying %d block(s) that failed in an earlier session: %s", len(retry), strings.Join(retried, "; "))
	}

	queued, err := queuedBlocks(ctx, stream, run, size)
	if err != nil {
		return count.Result{}, err
	}
	var todo []Block
	for k := range nblocks {
		if c.got[k] == nil && (!queued[k] || retry[k] != 0) {
			todo = append(todo, run.block(k, size))
		}
	}
	idFor := func(b Block) string {
		if seq := retry[b.First/size]; seq != 0 {
			return fmt.Sprintf("%s.%d.r%d", run.ID, b.First, seq)
		}
		return fmt.Sprintf("%s.%d", run.ID, b.First)
	}
	if err := publishBlocks(ctx, js, run, todo, idFor); err != nil {
		return count.Result{}, err
	}
	if len(todo) > 0 {
		logf("published %d block(s) of up to %d unit(s) (%d units in all) of run %s to stream %s", len(todo), size, units, run.ID, run.Stream)
	}

	report := func() {
		if o.Progress != nil {
			o.Progress(c.progress(start))
		}
	}
	tick := time.NewTicker(o.ProgressEvery)
	defer tick.Stop()
	check := time.NewTicker(min(max(o.AckWait, time.Second), 5*time.Second))
	defer check.Stop()
	stalls := 0
	for c.done < units {
		if failed := c.gaveUpBlocks(); len(failed) > 0 && c.done+blocksLen(failed) == units {
			report()
			return count.Result{}, fmt.Errorf("run %s: %d block(s) failed %d times and were set aside: %s; restart the coordinator to retry them",
				run.ID, len(failed), o.MaxDeliver, formatBlocks(failed))
		}
		select {
		case <-ctx.Done():
			report()
			return count.Result{}, fmt.Errorf("run %s interrupted with %d of %d units counted; run the coordinator again to resume: %w", run.ID, c.done, units, ctx.Err())
		case e, ok := <-watcher.Updates():
			if !ok {
				return count.Result{}, errors.New("bucket watcher stopped")
			}
			if e != nil {
				c.apply(e, true)
			}
		case m := <-advisories:
			c.advisory(ctx, stream, m)
		case <-tick.C:
			report()
		case <-check.C:
			// Everything acknowledged yet blocks missing: a result was lost
			// (a server crash between storing and acknowledging), or a
			// block used up its deliveries while no coordinator listened.
			// Act after two checks in a row.
			info, err := cons.Info(ctx)
			if err != nil || info.NumPending > 0 || info.NumAckPending > 0 {
				stalls = 0
				continue
			}
			if stalls++; stalls < 2 {
				continue
			}
			stalls = 0
			queued, err := queuedBlocks(ctx, stream, run, size)
			if err != nil {
				continue
			}
			var lost []Block
			for k := range nblocks {
				b := run.block(k, size)
				switch {
				case c.got[k] != nil, c.failed[k].GaveUp:
				case !queued[k]:
					lost = append(lost, b)
				default:
					// Queued, yet neither pending nor in flight: set it
					// aside like one the advisory announced.
					m, err := stream.GetLastMsgForSubject(ctx, run.blockSubject(b))
					if err == nil {
						c.giveUp(ctx, b, m.Sequence, uint64(o.MaxDeliver))
					}
				}
			}
			if len(lost) > 0 {
				logf("%d block(s) have no result and no message; publishing them again: %s", len(lost), formatBlocks(lost))
				nonce := time.Now().UnixNano()
				if err := publishBlocks(ctx, js, run, lost, func(b Block) string { return fmt.Sprintf("%s.%d.s%d", run.ID, b.First, nonce) }); err != nil {
					return count.Result{}, err
				}
			}
		}
	}
	report()
	if len(c.alarms) > 0 {
		return count.Result{}, fmt.Errorf("run %s: no total, because %d result(s) disagree: %w", run.ID, len(c.alarms), errors.Join(c.alarms...))
	}
	t, err := count.NewTally(n)
	if err != nil {
		return count.Result{}, err
	}
	for _, r := range c.got {
		for _, u := range r.Units {
			if err := t.Add(u); err != nil {
				return count.Result{}, err
			}
		}
	}
	r, err := t.Result()
	if err != nil {
		return count.Result{}, err
	}
	r.Workers, r.Elapsed = len(c.workers), time.Since(start)
	return r, nil
}

// ensureRun creates the stream, bucket and consumer of run, or finds them
// (updating the consumer's ack wait and attempts to o's), and returns the
// run's block size: o.BlockSize (or the default) for a new run, the stored
// one for an existing run. o must have its defaults filled in.
func ensureRun(ctx context.Context, js jetstream.JetStream, run Run, o CoordinatorOptions) (jetstream.Stream, jetstream.KeyValue, jetstream.Consumer, int, error) {
	size := o.BlockSize
	if size == 0 {
		size = DefaultBlockSize(run.N)
	}
	existing, err := js.Stream(ctx, run.Stream)
	switch {
	case err == nil:
		stored, err := strconv.Atoi(existing.CachedInfo().Config.Metadata[metaBlock])
		if err != nil || stored < 1 || stored > MaxBlockSize {
			return nil, nil, nil, 0, fmt.Errorf("stream %s has no valid block size in its metadata; delete it (nats stream rm %s) to start the run again", run.Stream, run.Stream)
		}
		if o.BlockSize != 0 && o.BlockSize != stored {
			return nil, nil, nil, 0, fmt.Errorf("run %s was started with blocks of %d units, not %d; resume it without a block size or with %d", run.ID, stored, o.BlockSize, stored)
		}
		size = stored
	case !errors.Is(err, jetstream.ErrStreamNotFound):
		return nil, nil, nil, 0, fmt.Errorf("reading stream %s: %w", run.Stream, err)
	}
	stream, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        run.Stream,
		Description: run.Fingerprint,
		Subjects:    []string{run.Subject + ".*"},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Replicas:    o.Replicas,
		Duplicates:  10 * time.Minute,
		Metadata: map[string]string{metaN: strconv.Itoa(run.N), metaFingerprint: run.Fingerprint,
			metaBucket: run.Bucket, metaBlock: strconv.Itoa(size)},
	})
	if err != nil {
		return nil, nil, nil, 0, fmt.Errorf("creating stream %s: %w", run.Stream, err)
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: run.Bucket, Description: run.Fingerprint, Storage: jetstream.FileStorage, Replicas: o.Replicas, History: 1,
	})
	if err != nil {
		return nil, nil, nil, 0, fmt.Errorf("creating bucket %s: %w", run.Bucket, err)
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, run.Stream, jetstream.ConsumerConfig{
		Durable:       Consumer,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       o.AckWait,
		MaxDeliver:    o.MaxDeliver,
		FilterSubject: run.Subject + ".*",
	})
	if err != nil {
		return nil, nil, nil, 0, fmt.Errorf("creating consumer %s: %w", Consumer, err)
	}
	return stream, kv, cons, size, nil
}

// coordinator is the tally of one Coordinate call. Blocks are numbered
// k = First/size.
type coordinator struct {
	n       int
	run     Run
	size    int
	units   int
	got     []*BlockRecord
	done    int // units in got
	resumed int
	nodes   count.Uint128 // of the results that arrived live
	failed  map[int]FailRecord
	alarms  []error
	alarmed map[string]bool
	workers map[string]bool
	logf    func(string, ...any)
	kv      jetstream.KeyValue
}

// keyBlock reads the block from a bucket key with the given prefix.
func (c *coordinator) keyBlock(key, prefix string) (int, Block, bool) {
	s, ok := strings.CutPrefix(key, prefix)
	if !ok {
		return 0, Block{}, false
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = s[:i] // alarm.<first>.<nonce>
	}
	first, err := strconv.Atoi(s)
	if err != nil || first < 0 || first >= c.units || first%c.size != 0 {
		return 0, Block{}, false
	}
	k := first / c.size
	return k, c.run.block(k, c.size), true
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
	case strings.HasPrefix(key, "block."):
		var rec BlockRecord
		k, b, ok := c.keyBlock(key, "block.")
		if !ok || json.Unmarshal(e.Value(), &rec) != nil || rec.check(c.n, b) != nil {
			c.alarms = append(c.alarms, fmt.Errorf("bucket key %s holds a malformed result", key))
			return
		}
		if prev := c.got[k]; prev != nil {
			// Only a write that bypassed the create-only rule gets here.
			if !sameCounts(*prev, rec) {
				c.alarm(AlarmRecord{First: *prev, Second: rec})
			}
			return
		}
		c.got[k] = &rec
		c.done += b.Len()
		if live {
			for _, u := range rec.Units {
				c.nodes, _ = c.nodes.Add(count.U128(u.Nodes))
			}
		}
		c.workers[rec.Worker] = true
		delete(c.failed, k)
		if live && rec.Delivered > 1 {
			c.logf("%s counted by %s on delivery %d (an earlier worker died, failed or lost its connection)", b, rec.Worker, rec.Delivered)
		}
	case strings.HasPrefix(key, "failed."):
		var f FailRecord
		k, b, ok := c.keyBlock(key, "failed.")
		if !ok || json.Unmarshal(e.Value(), &f) != nil || c.got[k] != nil {
			return
		}
		known := c.failed[k].GaveUp
		c.failed[k] = f
		if live && !(known && f.GaveUp) {
			verb := "failed"
			if f.GaveUp {
				verb = "failed for the last time (set aside until the coordinator restarts)"
			}
			c.logf("%s %s on attempt %d (worker %s): %s", b, verb, f.Delivered, f.Worker, f.Error)
		}
	case strings.HasPrefix(key, "alarm."):
		var a AlarmRecord
		if err := json.Unmarshal(e.Value(), &a); err != nil {
			c.alarms = append(c.alarms, fmt.Errorf("bucket key %s holds a malformed alarm", key))
			return
		}
		c.alarm(a)
	}
}

func (c *coordinator) alarm(a AlarmRecord) {
	if c.alarmed == nil {
		c.alarmed = map[string]bool{}
	}
	for _, err := range a.conflicts() {
		if c.alarmed[err.Error()] {
			continue
		}
		c.alarmed[err.Error()] = true
		c.alarms = append(c.alarms, err)
		c.logf("ALARM: %v", err)
	}
}

// advisory records a block the server stopped delivering.
func (c *coordinator) advisory(ctx context.Context, stream jetstream.Stream, m *nats.Msg) {
	var adv struct {
		StreamSeq  uint64 `json:"stream_seq"`
		Deliveries uint64 `json:"deliveries"`
	}
	if json.Unmarshal(m.Data, &adv) != nil || adv.StreamSeq == 0 {
		return
	}
	msg, err := stream.GetMsg(ctx, adv.StreamSeq)
	if err != nil {
		c.logf("a block message (stream sequence %d) failed %d times, and cannot be read: %v", adv.StreamSeq, adv.Deliveries, err)
		return
	}
	b, err := c.run.blockOf(msg.Subject, c.size)
	if err != nil {
		c.logf("message %d on %s failed %d times: %v", adv.StreamSeq, msg.Subject, adv.Deliveries, err)
		return
	}
	c.giveUp(ctx, b, adv.StreamSeq, adv.Deliveries)
}

// giveUp records that the server stopped delivering block b (its message
// has stream sequence seq), so that the run reports it and the next
// coordinator start retries it.
func (c *coordinator) giveUp(ctx context.Context, b Block, seq, deliveries uint64) {
	k := b.First / c.size
	if c.got[k] != nil {
		return
	}
	f := c.failed[k]
	f.First, f.Last, f.GaveUp, f.StreamSeq = b.First, b.Last, true, seq
	f.Delivered = max(f.Delivered, deliveries)
	if f.Error == "" {
		f.Error = "no worker finished it (killed, or lost its connection, each time)"
	}
	v, _ := json.Marshal(f)
	if _, err := c.kv.Put(ctx, failedKey(b), v); err != nil {
		c.logf("%s: cannot record its failure: %v", b, err)
	}
	// The watcher will bring the same record; keep it now so that the
	// run's end is seen without waiting for it.
	c.failed[k] = f
	c.logf("%s set aside after %d attempt(s): %s; retried when the coordinator restarts", b, f.Delivered, f.Error)
}

func (c *coordinator) gaveUpBlocks() []Block {
	var out []Block
	for k, f := range c.failed {
		if f.GaveUp && c.got[k] == nil {
			out = append(out, c.run.block(k, c.size))
		}
	}
	slices.SortFunc(out, func(a, b Block) int { return a.First - b.First })
	return out
}

func (c *coordinator) progress(start time.Time) RunProgress {
	alarms := len(c.alarms)
	return RunProgress{Run: c.run, BlockSize: c.size, Units: c.units, Done: c.done, Resumed: c.resumed,
		Failed: c.gaveUpBlocks(), Alarms: alarms, Workers: len(c.workers), Nodes: c.nodes, Elapsed: time.Since(start)}
}

func blocksLen(bs []Block) int {
	n := 0
	for _, b := range bs {
		n += b.Len()
	}
	return n
}

// formatBlocks lists the units of blocks compactly, as [FormatUnits] does.
func formatBlocks(bs []Block) string {
	var units []int
	for _, b := range bs {
		for u := b.First; u <= b.Last; u++ {
			units = append(units, u)
		}
	}
	return "units " + FormatUnits(units)
}

// queuedBlocks returns the blocks (by number) that have a message in the
// stream, queued or being worked on. Cost: one request per page of
// subjects.
func queuedBlocks(ctx context.Context, stream jetstream.Stream, run Run, size int) (map[int]bool, error) {
	info, err := stream.Info(ctx, jetstream.WithSubjectFilter(run.Subject+".*"))
	if err != nil {
		return nil, fmt.Errorf("reading stream %s: %w", run.Stream, err)
	}
	out := make(map[int]bool, len(info.State.Subjects))
	for subj, msgs := range info.State.Subjects {
		if b, err := run.blockOf(subj, size); err == nil && msgs > 0 {
			out[b.First/size] = true
		}
	}
	return out, nil
}

// publishBlocks publishes block messages asynchronously with the given
// message ids, so the server drops a retried publish; failed publishes are
// retried once synchronously.
func publishBlocks(ctx context.Context, js jetstream.JetStream, run Run, blocks []Block, id func(Block) string) error {
	body := func(b Block) []byte {
		v, _ := json.Marshal(blockJob{Run: run.ID, N: run.N, First: b.First, Last: b.Last})
		return v
	}
	futures := make([]jetstream.PubAckFuture, len(blocks))
	for k, b := range blocks {
		f, err := js.PublishAsync(run.blockSubject(b), body(b), jetstream.WithMsgID(id(b)))
		if err != nil {
			return fmt.Errorf("publishing %s: %w", b, err)
		}
		futures[k] = f
	}
	select {
	case <-js.PublishAsyncComplete():
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
		if _, err := js.Publish(ctx, run.blockSubject(b), body(b), jetstream.WithMsgID(id(b))); err != nil {
			return fmt.Errorf("publishing %s: %w", b, err)
		}
	}
	return nil
}
