package queue

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nqueens/nqueens/cluster/ledger"
)

// reconcile brings the stream in line with what the blocks need: it
// publishes, for each undecided block, the results it still lacks beyond
// the messages queued or being worked on and the votes under an estimate
// check, and removes the messages of decided blocks (nobody needs them,
// and the workers that counted such a block would pass them round for
// ever, never idle). The stream and the book are read so that they agree
// (queuedNow). It runs at the start (first), at the checks, and at once
// after a ban or a vote that does not count (dirty).
// stalled says the consumer had nothing pending or in flight at two
// checks in a row: a block still short of results then lost one, to a
// server crash between storing and acknowledging, or a message still in
// the stream used up its deliveries while no coordinator listened, and
// is set aside.
func (c *coordinator) reconcile(ctx context.Context, first, stalled bool) error {
	queued, err := c.queuedNow(ctx, first)
	if err != nil {
		if first {
			return err
		}
		return nil // the next check tries again
	}
	c.dirty = false
	c.queued = queued
	var todo []Block
	for k := range c.run.blocks() {
		b := c.run.block(k)
		switch {
		case c.book.ballots[k].verdict != nil:
			// Also a block that ran out of deliveries: its last message
			// stays in the stream until then.
			if queued[k] > 0 {
				if err := c.io.purge(ctx, b); err == nil {
					queued[k] = 0
				}
			}
			continue
		case c.failed[k].GaveUp:
			continue
		case stalled && queued[k] > 0 && c.book.deficit(k, c.checking[k]) > 0:
			if seq, err := c.io.lastSeq(ctx, b); err == nil {
				c.giveUp(ctx, k, b, seq, uint64(c.o.MaxDeliver))
			}
			continue
		}
		for range c.book.deficit(k, queued[k]+c.checking[k]) {
			todo = append(todo, b)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	if err := c.publishCopies(ctx, todo); err != nil {
		return err
	}
	if first {
		c.o.Log.Info("published the block messages", "messages", len(todo), "block_size", c.run.BlockSize,
			"units", c.run.Units, "replicas", c.run.Replicas, "run", c.run.ID, "stream", c.run.Stream)
	} else {
		c.o.Log.Info("published missing block messages again (results lost or discarded)", "messages", len(todo), "units", formatBlocks(todo))
	}
	return nil
}

// publishCopies publishes a message for each entry of todo (a block may
// come more than once), and counts them in c.queued.
func (c *coordinator) publishCopies(ctx context.Context, todo []Block) error {
	// Ids are unique per call, so the server drops only a publish retried
	// within it; across calls the queued counts keep copies from piling up.
	nonce := time.Now().UnixNano()
	copyOf := map[int]int{}
	err := c.io.publish(ctx, todo, func(b Block) string {
		copyOf[b.First]++
		return fmt.Sprintf("%s.%d.%d.%d", c.run.ID, b.First, nonce, copyOf[b.First])
	})
	if storageError(err) {
		return c.storeFull(err) // it used to end the run with the server's raw answer
	}
	if err != nil {
		return err
	}
	if c.queued == nil {
		c.queued = map[int]int{}
	}
	for _, b := range todo {
		k, _ := c.run.blockNumber(b.First)
		c.queued[k]++
	}
	return nil
}

// queuedNow returns the block messages in the stream, by block, read so
// that the book can be compared with them: no copy counts twice, as a
// message and as the vote it went on, and none is missed but for a
// moment. A worker stores its vote, then acknowledges the message it
// counted. So the book first takes in the bucket as it is (catchUp: a
// message acknowledged has its vote there), then the messages that the
// votes in the book were counted from are removed where they are still
// there (removeUsed: their acknowledgements not in yet; a banned worker's
// vote spends a copy that way), and only then is the stream read. A vote
// stored after the bucket was read, whose message was acknowledged before
// the stream was, counts as neither: a copy too many at worst, removed
// once its block is decided. first: a watcher that lags is no error
// (likewise).
func (c *coordinator) queuedNow(ctx context.Context, first bool) (map[int]int, error) {
	if err := c.catchUp(ctx); err != nil && !(first && ctx.Err() == nil) {
		return nil, err
	}
	c.removeUsed(ctx)
	return c.io.queued(ctx)
}

// catchUpWait bounds how long reconcile waits for the bucket's watcher to
// bring the entries stored before it looked.
const catchUpWait = 5 * time.Second

// errLagging is catchUp's error when the watcher did not bring the bucket's
// entries within catchUpWait.
var errLagging = errors.New("the bucket's watcher lags behind the bucket")

// catchUp takes in the bucket's entries (and acts on them) until the book
// holds every one stored before the call.
func (c *coordinator) catchUp(ctx context.Context) error {
	rev, err := c.io.revision(ctx)
	if err != nil || c.applied >= rev {
		return err
	}
	t := time.NewTimer(catchUpWait)
	defer t.Stop()
	for c.applied < rev {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return errLagging
		case e, ok := <-c.updates:
			if !ok {
				return cmp.Or(ctx.Err(), errWatcherStopped)
			}
			if e != nil {
				c.apply(e, true)
			}
		}
	}
	c.act(ctx)
	return nil
}

// removeUsed removes from the stream the messages that the votes taken
// in since the last time were counted from, where they are still there
// (their acknowledgements not in yet). A message is removed only if it is
// one of its vote's block: the sequence comes from the voter. Messages
// older than the stream's oldest are gone already.
func (c *coordinator) removeUsed(ctx context.Context) {
	if len(c.used) == 0 {
		return
	}
	oldest, err := c.io.firstSeq(ctx)
	if err != nil {
		oldest = 0
	}
	for _, u := range c.used {
		if u.seq < oldest {
			continue
		}
		subject, _, err := c.io.msgAt(ctx, u.seq)
		if err == nil && subject == c.run.blockSubject(c.run.block(u.k)) {
			_ = c.io.deleteMsg(ctx, u.seq)
		}
	}
	c.used = nil
}

// formatBlocks lists the units of blocks compactly, as ledger.FormatUnits does.
func formatBlocks(bs []Block) string {
	var units []int
	for _, b := range bs {
		for u := b.First; u <= b.Last; u++ {
			units = append(units, u)
		}
	}
	slices.Sort(units)
	return ledger.FormatUnits(slices.Compact(units))
}
