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
	// AckWait is how long a worker may hold a unit without reporting
	// progress before the server delivers it to another (default 1 min;
	// workers report progress at a third of it).
	AckWait time.Duration
	// MaxDeliver is the number of attempts after which a failing unit is
	// reported instead of delivered again (default 5).
	MaxDeliver int
	// Replicas of the stream and bucket on a clustered NATS (default 1).
	Replicas int
	// Progress, if set, is called about every ProgressEvery (default 5 s)
	// and once at the end, from one goroutine.
	Progress      func(RunProgress)
	ProgressEvery time.Duration
	// Log, if set, receives one line per notable event: resuming, units
	// published, failures, alarms.
	Log func(string)
}

// RunProgress reports the state of a run.
type RunProgress struct {
	Run     Run
	Units   int
	Done    int   // units with a result
	Resumed int   // of those, found in the bucket at the start
	Failed  []int // units the server gave up delivering
	Alarms  int   // units with two different results
	Workers int   // distinct workers that stored results
	Nodes   count.Uint128
	Elapsed time.Duration
}

// Coordinate runs the count of N on the work queue reached through nc: it
// creates (or finds) the run's stream, bucket and consumer, publishes the
// units that have neither a result nor a queued message, and tallies the
// results as workers store them. It returns the exact count once every unit
// has a result and no alarm was raised; an error when a unit has two
// different results, or when the only units left are ones the server gave
// up delivering (a later call retries those). If ctx ends first it returns
// ctx's error; the run's state stays on the server and a later call resumes
// it. Cost: O(units) messages and memory.
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
	stream, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        run.Stream,
		Description: run.Fingerprint,
		Subjects:    []string{run.Subject + ".*"},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Replicas:    o.Replicas,
		Duplicates:  10 * time.Minute,
		Metadata:    map[string]string{metaN: strconv.Itoa(n), metaFingerprint: run.Fingerprint, metaBucket: run.Bucket},
	})
	if err != nil {
		return count.Result{}, fmt.Errorf("creating stream %s: %w", run.Stream, err)
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: run.Bucket, Description: run.Fingerprint, Storage: jetstream.FileStorage, Replicas: o.Replicas, History: 1,
	})
	if err != nil {
		return count.Result{}, fmt.Errorf("creating bucket %s: %w", run.Bucket, err)
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, run.Stream, jetstream.ConsumerConfig{
		Durable:       Consumer,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       o.AckWait,
		MaxDeliver:    o.MaxDeliver,
		FilterSubject: run.Subject + ".*",
	})
	if err != nil {
		return count.Result{}, fmt.Errorf("creating consumer %s: %w", Consumer, err)
	}

	// Units the server gives up on are announced by an advisory.
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

	c := &coordinator{n: n, run: run, units: units, got: make([]*UnitRecord, units), failed: map[int]FailRecord{},
		workers: map[string]bool{}, logf: logf, kv: kv}
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

	// Retry the units the server gave up on in an earlier session.
	retry := map[int]uint64{}
	for u, f := range c.failed {
		if f.GaveUp && c.got[u] == nil {
			retry[u] = f.StreamSeq
		}
	}
	for u, seq := range retry {
		if err := stream.DeleteMsg(ctx, seq); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			logf("unit %d: cannot remove its failed message %d: %v", u, seq, err)
		}
		_ = kv.Delete(ctx, failedKey(u))
		delete(c.failed, u)
	}
	if len(retry) > 0 {
		logf("retrying %d unit(s) that failed in an earlier session: %s", len(retry), FormatUnits(slices.Sorted(mapKeys(retry))))
	}

	queued, err := queuedUnits(ctx, stream, run)
	if err != nil {
		return count.Result{}, err
	}
	var todo []int
	for i := range units {
		if c.got[i] == nil && (!queued[i] || retry[i] != 0) {
			todo = append(todo, i)
		}
	}
	idFor := func(i int) string {
		if seq := retry[i]; seq != 0 {
			return fmt.Sprintf("%s.%d.r%d", run.ID, i, seq)
		}
		return fmt.Sprintf("%s.%d", run.ID, i)
	}
	if err := publishUnits(ctx, js, run, todo, idFor); err != nil {
		return count.Result{}, err
	}
	if len(todo) > 0 {
		logf("published %d unit(s) of run %s to stream %s", len(todo), run.ID, run.Stream)
	}

	report := func() {
		if o.Progress != nil {
			o.Progress(c.progress(start))
		}
	}
	tick := time.NewTicker(o.ProgressEvery)
	defer tick.Stop()
	check := time.NewTicker(5 * time.Second)
	defer check.Stop()
	stalls := 0
	for c.done < units {
		if len(c.failed) > 0 && c.done+c.gaveUp() == units {
			report()
			return count.Result{}, fmt.Errorf("run %s: %d unit(s) failed %d times and were set aside: %s; restart the coordinator to retry them",
				run.ID, c.gaveUp(), o.MaxDeliver, FormatUnits(c.gaveUpUnits()))
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
			// Everything acknowledged yet units missing: a result was lost
			// (a server crash between storing and acknowledging). Publish
			// those units again under fresh ids, after two checks in a row.
			info, err := cons.Info(ctx)
			if err != nil || info.NumPending > 0 || info.NumAckPending > 0 {
				stalls = 0
				continue
			}
			if stalls++; stalls < 2 {
				continue
			}
			stalls = 0
			queued, err := queuedUnits(ctx, stream, run)
			if err != nil {
				continue
			}
			var lost []int
			for i := range units {
				if c.got[i] == nil && !queued[i] {
					lost = append(lost, i)
				}
			}
			if len(lost) > 0 {
				logf("%d unit(s) have no result and no message; publishing them again: %s", len(lost), FormatUnits(lost))
				nonce := time.Now().UnixNano()
				if err := publishUnits(ctx, js, run, lost, func(i int) string { return fmt.Sprintf("%s.%d.s%d", run.ID, i, nonce) }); err != nil {
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
		if err := t.Add(r.UnitResult); err != nil {
			return count.Result{}, err
		}
	}
	r, err := t.Result()
	if err != nil {
		return count.Result{}, err
	}
	r.Workers, r.Elapsed = len(c.workers), time.Since(start)
	return r, nil
}

// coordinator is the tally of one Coordinate call.
type coordinator struct {
	n       int
	run     Run
	units   int
	got     []*UnitRecord
	done    int
	resumed int
	nodes   count.Uint128
	failed  map[int]FailRecord
	alarms  []error
	alarmed map[string]bool
	workers map[string]bool
	logf    func(string, ...any)
	kv      jetstream.KeyValue
}

// apply takes one bucket entry into account; live says it arrived during
// the run (so failures are worth a log line).
func (c *coordinator) apply(e jetstream.KeyValueEntry, live bool) {
	if e.Operation() != jetstream.KeyValuePut {
		if u, ok := keyUnit(e.Key(), "failed."); ok {
			delete(c.failed, u)
		}
		return
	}
	key := e.Key()
	switch {
	case strings.HasPrefix(key, "unit."):
		var rec UnitRecord
		u, ok := keyUnit(key, "unit.")
		if err := json.Unmarshal(e.Value(), &rec); err != nil || !ok || rec.Index != u || rec.N != c.n {
			c.alarms = append(c.alarms, fmt.Errorf("bucket key %s holds a malformed result", key))
			return
		}
		if prev := c.got[u]; prev != nil {
			// Only a write that bypassed the create-only rule gets here.
			if !sameCounts(prev.UnitResult, rec.UnitResult) {
				c.alarm(AlarmRecord{Unit: u, First: *prev, Second: rec})
			}
			return
		}
		c.got[u] = &rec
		c.done++
		c.nodes, _ = c.nodes.Add(count.U128(rec.Nodes))
		c.workers[rec.Worker] = true
		delete(c.failed, u)
	case strings.HasPrefix(key, "failed."):
		var f FailRecord
		u, ok := keyUnit(key, "failed.")
		if json.Unmarshal(e.Value(), &f) != nil || !ok || c.got[u] != nil {
			return
		}
		c.failed[u] = f
		if live {
			verb := "failed"
			if f.GaveUp {
				verb = "failed for the last time (set aside until the coordinator restarts)"
			}
			c.logf("unit %d %s on attempt %d (worker %s): %s", u, verb, f.Delivered, f.Worker, f.Error)
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
	err := a.err(c.n)
	if c.alarmed == nil {
		c.alarmed = map[string]bool{}
	}
	if c.alarmed[err.Error()] {
		return
	}
	c.alarmed[err.Error()] = true
	c.alarms = append(c.alarms, err)
	c.logf("ALARM: %v", err)
}

// advisory records a unit the server stopped delivering.
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
		c.logf("a unit message (stream sequence %d) failed %d times, and cannot be read: %v", adv.StreamSeq, adv.Deliveries, err)
		return
	}
	u, err := c.run.unitOf(msg.Subject)
	if err != nil {
		c.logf("message %d on %s failed %d times: %v", adv.StreamSeq, msg.Subject, adv.Deliveries, err)
		return
	}
	if c.got[u] != nil {
		return
	}
	f := c.failed[u]
	f.Unit, f.GaveUp, f.StreamSeq, f.Delivered = u, true, adv.StreamSeq, adv.Deliveries
	if f.Error == "" {
		f.Error = "no worker finished it (killed, or lost its connection, each time)"
	}
	v, _ := json.Marshal(f)
	if _, err := c.kv.Put(ctx, failedKey(u), v); err != nil {
		c.logf("unit %d: cannot record its failure: %v", u, err)
		c.failed[u] = f
	}
}

func (c *coordinator) gaveUpUnits() []int {
	var out []int
	for u, f := range c.failed {
		if f.GaveUp && c.got[u] == nil {
			out = append(out, u)
		}
	}
	slices.Sort(out)
	return out
}

func (c *coordinator) gaveUp() int { return len(c.gaveUpUnits()) }

func (c *coordinator) progress(start time.Time) RunProgress {
	return RunProgress{Run: c.run, Units: c.units, Done: c.done, Resumed: c.resumed, Failed: c.gaveUpUnits(),
		Alarms: len(c.alarms), Workers: len(c.workers), Nodes: c.nodes, Elapsed: time.Since(start)}
}

func keyUnit(key, prefix string) (int, bool) {
	s, ok := strings.CutPrefix(key, prefix)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(s)
	return i, err == nil && i >= 0
}

func mapKeys[V any](m map[int]V) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// queuedUnits returns the units that have a message in the stream (queued
// or being worked on). Cost: one request per page of subjects.
func queuedUnits(ctx context.Context, stream jetstream.Stream, run Run) (map[int]bool, error) {
	info, err := stream.Info(ctx, jetstream.WithSubjectFilter(run.Subject+".*"))
	if err != nil {
		return nil, fmt.Errorf("reading stream %s: %w", run.Stream, err)
	}
	out := make(map[int]bool, len(info.State.Subjects))
	for subj, msgs := range info.State.Subjects {
		if u, err := run.unitOf(subj); err == nil && msgs > 0 {
			out[u] = true
		}
	}
	return out, nil
}

// publishUnits publishes unit messages asynchronously with the given
// message ids, so the server drops a retried publish; failed publishes are
// retried once synchronously.
func publishUnits(ctx context.Context, js jetstream.JetStream, run Run, units []int, id func(int) string) error {
	futures := make([]jetstream.PubAckFuture, len(units))
	for k, i := range units {
		body, _ := json.Marshal(unitJob{Run: run.ID, N: run.N, Unit: i})
		f, err := js.PublishAsync(run.unitSubject(i), body, jetstream.WithMsgID(id(i)))
		if err != nil {
			return fmt.Errorf("publishing unit %d: %w", i, err)
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
		i := units[k]
		body, _ := json.Marshal(unitJob{Run: run.ID, N: run.N, Unit: i})
		if _, err := js.Publish(ctx, run.unitSubject(i), body, jetstream.WithMsgID(id(i))); err != nil {
			return fmt.Errorf("publishing unit %d: %w", i, err)
		}
	}
	return nil
}
