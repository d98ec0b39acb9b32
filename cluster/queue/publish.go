package queue

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/cluster/ledger"
)

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
		c.o.Log.Info("published the block messages", "messages", len(todo), "block_size", c.run.BlockSize,
			"units", c.run.Units, "replicas", c.run.Replicas, "run", c.run.ID, "stream", c.run.Stream)
	} else {
		c.o.Log.Info("published missing block messages again (results lost or discarded)", "messages", len(todo), "units", formatBlocks(todo))
	}
	return nil
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
	return ledger.FormatUnits(slices.Compact(units))
}
