package queue

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens/seal"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/count"
)

// apply takes one bucket entry into account; live says it arrived during
// the run (so failures are worth a log line).
func (c *coordinator) apply(e jetstream.KeyValueEntry, live bool) {
	c.applied = max(c.applied, e.Revision())
	key := e.Key()
	if e.Operation() != jetstream.KeyValuePut {
		if k, _, ok := c.keyBlock(key, "failed."); ok && strings.Count(key, ".") == 1 {
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
		c.applyAlarm(key, e.Value())
	case strings.HasPrefix(key, "banned."):
		var b ban
		if err := c.o.Key.Open(e.Value(), &b); err != nil || b.By == "" {
			c.rate.log(c.o.Log, slog.LevelWarn, "forged ban", "a ban in the bucket that the coordinator did not seal; ignored", "key", key, "error", err)
			return
		}
		c.book.ban(b.By, b.Worker, b.Reason)
	case strings.HasPrefix(key, "worker."):
		var p presence
		if err := c.o.Key.Open(e.Value(), &p); err != nil || key != presenceKey(Identity{pub: p.Voter}.token(p.Worker)) {
			return
		}
		c.seen[p.Voter+"\x00"+p.Worker] = seen{voter: cmp.Or(p.Voter, sharedVoter), label: p.Worker, at: time.Now()}
	}
}

// tokenOf is the last part of a bucket key: the token of the voter that
// wrote it.
func tokenOf(key string) string { return key[strings.LastIndexByte(key, '.')+1:] }

func (c *coordinator) applyVote(key string, value []byte, live bool) {
	k, b, ok := c.keyBlock(key, "vote.")
	if !ok {
		c.rate.log(c.o.Log, slog.LevelWarn, "no block "+tokenOf(key), "a result in the bucket under a key of no block; ignored", "key", key)
		return
	}
	v, err := openVote(value, c.o.Key, tokenOf(key))
	if err != nil {
		// Nobody can be blamed for a result no voter signed or sealed,
		// but its worker is told why it does not count.
		c.refuse(key, refusalReason(err, c.o.Key), live)
		c.dirty = c.dirty || live // its copy went on it
		return
	}
	if err := v.check(c.run.N, b); err != nil {
		c.book.ban(v.by(), v.Worker, fmt.Sprintf("it stored an impossible result for %s: %v", b, err))
		return
	}
	if live {
		for _, u := range v.Units {
			c.nodes, _ = c.nodes.Add(count.U128(u.Nodes))
		}
		if v.Delivered > 1 && c.run.Replicas == 1 {
			c.o.Log.Info("counted on a later delivery (an earlier worker died, failed or lost its connection)", "units", b, "worker", v.Worker, "delivery", v.Delivered)
		}
	}
	delete(c.failed, k)
	if live {
		c.use(key, k, v)
	}
	if !c.book.counts(v.by()) {
		// A copy of the block went on a vote that does not count (a
		// banned worker's, stored before it learnt of its ban, or one of
		// a key that is no voter's): its block may lack a copy now.
		c.dirty = true
		if c.book.voterOf(v.by()) == "" {
			c.refuse(key, fmt.Sprintf("its NKey %s is not among the run's voters: list its public key in the coordinator's --auth-nkeys, or give the worker a key listed there", voterName(v.Voter)), live)
		}
		return
	}
	if c.checker != nil {
		c.checking[k]++
		c.checker.add(estimateCheck{k: k, v: v})
		return
	}
	c.book.add(k, v)
}

// usedCopy is the block message (stream sequence seq) of block k that a
// vote was counted from.
type usedCopy struct {
	k   int
	seq uint64
}

// use records that vote v for block k, stored under key, was counted from
// the message it names: a worker stores its vote before it acknowledges
// the message, so the next reconcile removes that message if it is still
// there, lest it count both the vote and the copy. Each key names one
// message at most: a banned voter that stores its vote again and again
// must not remove every new copy of a block.
func (c *coordinator) use(key string, k int, v vote) {
	if v.Seq == 0 || c.usedKeys[key] {
		return
	}
	c.usedKeys[key] = true
	c.used = append(c.used, usedCopy{k, v.Seq})
}

// applyAlarm bans the voter that raised an alarm about itself: two
// different results for one block, both its own.
func (c *coordinator) applyAlarm(key string, value []byte) {
	var a alarm
	_, b, ok := c.keyBlock(key, "alarm.")
	parts := strings.Split(key, ".") // alarm.<first>.<token>.<nonce>
	if !ok || len(parts) != 4 || json.Unmarshal(value, &a) != nil {
		// A key of three parts panicked the coordinator here.
		c.rate.log(c.o.Log, slog.LevelWarn, "malformed alarm", "a malformed alarm in the bucket; ignored", "key", key)
		return
	}
	token := parts[2]
	first, err1 := openVote(a.First, c.o.Key, token)
	second, err2 := openVote(a.Second, c.o.Key, token)
	if err := cmp.Or(err1, err2); err != nil || first.block() != b || second.block() != b || sameUnits(first.Units, second.Units) {
		c.rate.log(c.o.Log, slog.LevelWarn, "alarm "+token, "an alarm in the bucket that its voter did not raise; ignored", "key", key, "error", err)
		return
	}
	c.book.ban(first.by(), first.Worker, fmt.Sprintf("it gave two different results for %s", b))
}

// applyFailure takes in a failure record: a worker's report of a block
// that failed in its hands (failed.<first>.<token>), which is only logged
// (at most once a minute per worker: a worker can write as many as it
// likes), or the coordinator's own sealed record of a block the server
// gave up delivering (failed.<first>), which no worker may write: a
// forged one set blocks aside and ended the run.
func (c *coordinator) applyFailure(key string, value []byte, live bool) {
	var f failure
	k, b, ok := c.keyBlock(key, "failed.")
	if !ok || c.book.ballots[k].verdict != nil {
		return
	}
	if strings.Count(key, ".") == 2 {
		if json.Unmarshal(value, &f) != nil || c.failed[k].GaveUp {
			return
		}
		f.GaveUp = false // the coordinator's word alone
		c.failed[k] = f  // what a set-aside block says of its last failure
		if live {
			c.rate.log(c.o.Log, slog.LevelWarn, "failure "+tokenOf(key), "a block failed in a worker's hands", "units", b, "attempt", f.Delivered, "worker", f.Worker, "key", key, "error", f.Error)
		}
		return
	}
	if err := c.o.Key.Open(value, &f); err != nil || !f.GaveUp || f.First != b.First {
		c.rate.log(c.o.Log, slog.LevelWarn, "forged failure", "a failure record in the bucket that the coordinator did not seal; ignored", "key", key, "error", err)
		return
	}
	c.failed[k] = f
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
	subject, body, err := c.io.msgAt(ctx, adv.StreamSeq)
	if err != nil {
		c.rate.log(c.o.Log, slog.LevelWarn, "unreadable", "a block message failed, and cannot be read", "seq", adv.StreamSeq, "deliveries", adv.Deliveries, "error", err)
		return
	}
	k, b, err := c.run.openJob(subject, body, c.o.Key)
	if err != nil {
		// Not this coordinator's: its failure says nothing of the block.
		c.rate.log(c.o.Log, slog.LevelWarn, "forged", "a block message that the coordinator did not seal ran out of deliveries; removed", "seq", adv.StreamSeq, "subject", subject, "error", err)
		_ = c.io.deleteMsg(ctx, adv.StreamSeq)
		return
	}
	if c.book.ballots[k].verdict != nil {
		// A copy nobody needed any more (declined by every worker that
		// already voted on the block): drop it.
		_ = c.io.deleteMsg(ctx, adv.StreamSeq)
		return
	}
	c.giveUp(ctx, k, b, adv.StreamSeq, adv.Deliveries)
}

// giveUp records that the server stopped delivering block b (its message
// has stream sequence seq), and has the coordinator count it: the record
// says so in progress reports, and a coordinator that stops before its
// count is done offers the block to workers again at its next start.
func (c *coordinator) giveUp(ctx context.Context, k int, b Block, seq, deliveries uint64) {
	f := c.failed[k]
	f.First, f.Last, f.GaveUp, f.StreamSeq = b.First, b.Last, true, seq
	f.Delivered = max(f.Delivered, deliveries)
	if f.Error == "" {
		f.Error = "no worker finished it: each holder was killed, lost its connection or kept it past the ack wait (or another worker's acknowledgements spent its deliveries, see docs/security.md)"
	}
	v, err := c.o.Key.Seal(f)
	if err == nil {
		err = c.io.put(ctx, failedKey(b), v)
	}
	if err != nil {
		c.o.Log.Warn("cannot record a block's failure", "units", b, "error", err)
	}
	// The watcher will bring the same record; keep it now.
	c.failed[k] = f
	// Whatever kept the workers from it (a block that kills them, or a
	// worker that makes every copy run out), the run does not stop: the
	// coordinator counts it, and an error of its own count ends the run.
	// Once a minute: a worker's key can make every block run out.
	c.rate.log(c.o.Log, slog.LevelWarn, "ran out", "a block ran out of deliveries; the coordinator counts it itself", "units", b, "attempts", f.Delivered, "error", f.Error)
	c.book.askRecount(k)
	c.act(ctx)
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

// refuseEvery is how often, at most, the coordinator writes a refusal
// for one token: a worker that goes on storing refused results, or a new
// worker of the same token, is told again.
const refuseEvery = 10 * time.Second

// refuse records that the result under key does not count, and why:
// the log says so once per token (a worker that stored thousands of them
// is one line), and, for a result stored live, the next act tells its
// worker (refusedKey of the key's token), at most every refuseEvery. A
// result stored before the coordinator started may be that of a worker
// mended since: it is not told.
func (c *coordinator) refuse(key, reason string, live bool) {
	token := tokenOf(key)
	last, told := c.refusedAt[token]
	if !told {
		c.o.Log.Warn("a worker's results are refused, and do not count (said once per worker; the worker is told why, and leaves the run)", "key", key, "reason", reason)
		c.refusedAt[token] = time.Time{}
	}
	if now := time.Now(); live && now.Sub(last) >= refuseEvery {
		c.refusedAt[token] = now
		c.refusals = append(c.refusals, refusedToken{token, reason})
	}
}

// refusedToken is a refusal to write.
type refusedToken struct{ token, reason string }

// refusalReason says why a result that openVote refused does not count,
// for its worker.
func refusalReason(err error, key *seal.Key) string {
	var ke *seal.KeyError
	if errors.As(err, &ke) {
		return fmt.Sprintf("its results are sealed under key %s, and the run's coordinator opens them with key %s: give the worker a copy of the coordinator's seal key (--key-file)", ke.Sealed, key.ID())
	}
	return "its result is refused: " + err.Error()
}
