package queue

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/nqueens/nqueens/cluster/ledger"
)

// reconcile publishes the block messages that are missing: for each
// undecided block, the results it still needs beyond the messages queued
// and the votes under an estimate check. It runs at the start (first) and
// when the coordinator's check says so (pacer.publish): after a ban, and
// when the consumer stalled, then also setting aside the blocks whose
// messages are still in the stream but used up their deliveries.
func (c *coordinator) reconcile(ctx context.Context, first, stalled bool) error {
	queued, err := c.io.queued(ctx)
	if err != nil {
		if first {
			return err
		}
		return nil // the next check tries again
	}
	c.dirty = false
	var todo []Block
	for k := range c.run.blocks() {
		if c.failed[k].GaveUp {
			continue
		}
		b := c.run.block(k)
		if stalled && queued[k] > 0 && c.book.deficit(k, c.checking[k]) > 0 {
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
	if first {
		c.o.Log.Info("published the block messages", "messages", len(todo), "block_size", c.run.BlockSize,
			"units", c.run.Units, "replicas", c.run.Replicas, "run", c.run.ID, "stream", c.run.Stream)
	} else {
		c.o.Log.Info("published missing block messages again (results lost or discarded)", "messages", len(todo), "units", formatBlocks(todo))
	}
	return nil
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
