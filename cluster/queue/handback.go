package queue

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
)

// A worker gives back a copy it declined by acknowledging it and telling
// the coordinator, on its own hand-back subject, which block it was
// (worker.giveBack); the coordinator publishes fresh copies of the blocks
// handed back that still lack them. Workers may send such notices at
// will, and a forged one must cost little: at most handBackBatch blocks
// are looked at every handBackEvery, each with one read of its copies in
// the stream, and a block that lacks nothing gets none.
const (
	handBackEvery = 100 * time.Millisecond
	handBackBatch = 16
)

// noteHandBack records the block a hand-back notice names, and arranges
// for the next round (handBackRound).
func (c *coordinator) noteHandBack(m *nats.Msg, now time.Time) {
	first, err := strconv.Atoi(string(m.Data))
	k, ok := c.run.blockNumber(first)
	if err != nil || !ok {
		c.rate.log(c.o.Log, slog.LevelWarn, "hand-back "+tokenOf(m.Subject), "a hand-back notice names no block of the run; ignored", "subject", m.Subject)
		return
	}
	c.handedBack[k] = true
	if c.handBackDue == nil {
		c.handBackDue = time.After(max(0, c.lastHandBack.Add(handBackEvery).Sub(now)))
	}
}

// handBackRound publishes copies for up to handBackBatch blocks handed
// back, as many as each still lacks (the copies in the stream read now),
// and arranges for the next round while some are left.
func (c *coordinator) handBackRound(ctx context.Context, now time.Time) error {
	c.handBackDue, c.lastHandBack = nil, now
	c.removeUsed(ctx)
	var todo []Block
	n := 0
	for k := range c.handedBack {
		if n == handBackBatch {
			c.handBackDue = time.After(handBackEvery)
			break
		}
		n++
		delete(c.handedBack, k)
		if c.failed[k].GaveUp || c.book.deficit(k, c.checking[k]) == 0 {
			continue
		}
		b := c.run.block(k)
		queued, err := c.io.queuedBlock(ctx, b)
		if err != nil {
			continue // the next look at what the blocks lack publishes it
		}
		for range c.book.deficit(k, queued+c.checking[k]) {
			todo = append(todo, b)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	return c.publishCopies(ctx, todo)
}
