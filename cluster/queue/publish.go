package queue

import (
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
// ever, never idle). Two things would make the messages in the stream
// differ from what the book counts on: a copy spent on a vote that does
// not count, whose acknowledgement is not in yet, would count as queued
// (c.spent: removed first); and a vote stored before its copy was
// acknowledged, but not yet in the book, would be missed, and its block
// get a copy too many (catchUp: the book takes in the bucket as it was
// once the stream was read). It runs at the start (first), at every
// check, and at once after a ban or a vote that does not count (dirty).
// stalled says the consumer had nothing pending or in flight at two
// checks in a row: a block still short of results then lost one, to a
// server crash between storing and acknowledging, or a message still in
// the stream used up its deliveries while no coordinator listened, and
// is set aside.
func (c *coordinator) reconcile(ctx context.Context, first, stalled bool) error {
	queued, err := c.io.queued(ctx)
	if err == nil {
		err = c.catchUp(ctx)
		if err != nil && first && ctx.Err() == nil {
			err = nil // at worst a copy too many, removed once its block is decided
		}
	}
	if err != nil {
		if first {
			return err
		}
		return nil // the next check tries again
	}
	c.dirty = false
	c.removeSpent(ctx, queued)
	c.queued = queued
	var todo []Block
	for k := range c.run.blocks() {
		b := c.run.block(k)
		switch {
		case c.failed[k].GaveUp:
			continue
		case c.book.ballots[k].verdict != nil:
			if queued[k] > 0 {
				if err := c.io.purge(ctx, b); err == nil {
					queued[k] = 0
				}
			}
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
	// Ids are unique per call, so the server drops only a publish retried
	// within it; across calls the queued counts keep copies from piling up.
	nonce := time.Now().UnixNano()
	copyOf := map[int]int{}
	err = c.io.publish(ctx, todo, func(b Block) string {
		copyOf[b.First]++
		return fmt.Sprintf("%s.%d.%d.%d", c.run.ID, b.First, nonce, copyOf[b.First])
	})
	if err != nil {
		return err
	}
	for _, b := range todo {
		k, _ := c.run.blockNumber(b.First)
		queued[k]++
	}
	if first {
		c.o.Log.Info("published the block messages", "messages", len(todo), "block_size", c.run.BlockSize,
			"units", c.run.Units, "replicas", c.run.Replicas, "run", c.run.ID, "stream", c.run.Stream)
	} else {
		c.o.Log.Info("published missing block messages again (results lost or discarded)", "messages", len(todo), "units", formatBlocks(todo))
	}
	return nil
}

// catchUpWait bounds how long reconcile waits for the bucket's watcher to
// bring the entries stored before the stream was read.
const catchUpWait = 5 * time.Second

// errLagging is catchUp's error when the watcher did not bring the bucket's
// entries within catchUpWait.
var errLagging = errors.New("the bucket's watcher lags behind the bucket")

// catchUp takes in the bucket's entries (and acts on them) until the book
// holds every one stored before the call: a worker stores its vote before
// it acknowledges the copy, so a copy gone from the stream as it was read
// just before has its vote in the book after this.
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
				return errors.New("bucket watcher stopped")
			}
			if e != nil {
				c.apply(e, true)
			}
		}
	}
	c.act(ctx)
	return nil
}

// removeSpent removes from the stream the copies that votes which do not
// count were counted from, where their acknowledgements are not in yet,
// so that queued does not count them. A copy is removed only if its
// message is one of its block: the sequence comes from the vote of a
// banned voter.
func (c *coordinator) removeSpent(ctx context.Context, queued map[int]int) {
	for _, s := range c.spent {
		if queued[s.k] == 0 {
			continue
		}
		subject, err := c.io.subjectOf(ctx, s.seq)
		if err != nil || subject != c.run.blockSubject(c.run.block(s.k)) {
			continue
		}
		if c.io.deleteMsg(ctx, s.seq) == nil {
			queued[s.k]--
		}
	}
	c.spent = nil
}

func blocksLen(bs []Block) int {
	n := 0
	for _, b := range bs {
		n += b.Len()
	}
	return n
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
