package queue

import (
	"context"
	"fmt"
	"github.com/nqueens/nqueens/seal"

	"github.com/nats-io/nats.go/jetstream"
)

// queueIO is every call the coordinator's loop makes to the server once a
// run is open: reading the consumer and the stream, publishing block
// messages, writing and deleting bucket keys. jsIO makes them on NATS
// JetStream. The loop's timing decisions (pace.go) never wait on it, so
// that its tests run the loop on a queueIO in memory, on testing/synctest's
// fake clock, which cannot wait on network traffic.
type queueIO interface {
	// consumerIdle reports whether the workers' consumer has no message
	// pending or in flight.
	consumerIdle(ctx context.Context) (bool, error)
	// queued returns how many messages each block has in the stream,
	// queued or being worked on, by block number.
	queued(ctx context.Context) (map[int]int, error)
	// queuedBlock returns how many messages block b has in the stream,
	// queued or being worked on.
	queuedBlock(ctx context.Context, b Block) (int, error)
	// publish publishes a message for each block, with the message ids
	// that id gives (the server drops a publish retried with one).
	publish(ctx context.Context, blocks []Block, id func(Block) string) error
	// lastSeq returns the stream sequence of the last message of block b.
	lastSeq(ctx context.Context, b Block) (uint64, error)
	// msgAt returns the subject and body of the message with stream
	// sequence seq.
	msgAt(ctx context.Context, seq uint64) (subject string, body []byte, err error)
	// firstSeq returns the stream sequence of the stream's oldest
	// message: every message below it is gone.
	firstSeq(ctx context.Context) (uint64, error)
	// deleteMsg removes the message with stream sequence seq.
	deleteMsg(ctx context.Context, seq uint64) error
	// purge removes every message of block b, queued or being worked on.
	purge(ctx context.Context, b Block) error
	// revision returns the bucket's last revision: every entry stored
	// before the call has one no higher.
	revision(ctx context.Context) (uint64, error)
	// put and deleteKey write and delete a key of the run's bucket.
	put(ctx context.Context, key string, value []byte) error
	deleteKey(ctx context.Context, key string) error
}

// jsIO is queueIO on NATS JetStream: the run's stream, its workers'
// consumer and its bucket.
type jsIO struct {
	run    Run
	key    *seal.Key // seals the block messages
	js     jetstream.JetStream
	stream jetstream.Stream
	cons   jetstream.Consumer
	kv     jetstream.KeyValue
}

func (q *jsIO) consumerIdle(ctx context.Context) (bool, error) {
	info, err := q.cons.Info(ctx)
	if err != nil {
		return false, err
	}
	return info.NumPending == 0 && info.NumAckPending == 0, nil
}

// queued costs one request per page of subjects.
func (q *jsIO) queued(ctx context.Context) (map[int]int, error) {
	info, err := q.stream.Info(ctx, jetstream.WithSubjectFilter(q.run.Subject+".*"))
	if err != nil {
		return nil, fmt.Errorf("reading stream %s: %w", q.run.Stream, err)
	}
	out := make(map[int]int, len(info.State.Subjects))
	for subj, msgs := range info.State.Subjects {
		if k, _, err := q.run.blockOf(subj); err == nil {
			out[k] = int(msgs)
		}
	}
	return out, nil
}

// queuedBlock costs one request.
func (q *jsIO) queuedBlock(ctx context.Context, b Block) (int, error) {
	subject := q.run.blockSubject(b)
	info, err := q.stream.Info(ctx, jetstream.WithSubjectFilter(subject))
	if err != nil {
		return 0, fmt.Errorf("reading stream %s: %w", q.run.Stream, err)
	}
	return int(info.State.Subjects[subject]), nil
}

// publish publishes asynchronously, and retries a failed publish once
// synchronously.
func (q *jsIO) publish(ctx context.Context, blocks []Block, id func(Block) string) error {
	run := q.run
	ids := make([]string, len(blocks))
	body := func(b Block) []byte {
		v, _ := q.key.Seal(blockJob{Run: run.ID, N: run.N, First: b.First, Last: b.Last, Replicas: run.Replicas})
		return v
	}
	futures := make([]jetstream.PubAckFuture, len(blocks))
	for k, b := range blocks {
		ids[k] = id(b)
		f, err := q.js.PublishAsync(run.blockSubject(b), body(b), jetstream.WithMsgID(ids[k]))
		if err != nil {
			return fmt.Errorf("publishing %s: %w", b, err)
		}
		futures[k] = f
	}
	select {
	case <-q.js.PublishAsyncComplete():
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
		if _, err := q.js.Publish(ctx, run.blockSubject(b), body(b), jetstream.WithMsgID(ids[k])); err != nil {
			return fmt.Errorf("publishing %s: %w", b, err)
		}
	}
	return nil
}

func (q *jsIO) lastSeq(ctx context.Context, b Block) (uint64, error) {
	m, err := q.stream.GetLastMsgForSubject(ctx, q.run.blockSubject(b))
	if err != nil {
		return 0, err
	}
	return m.Sequence, nil
}

func (q *jsIO) msgAt(ctx context.Context, seq uint64) (string, []byte, error) {
	m, err := q.stream.GetMsg(ctx, seq)
	if err != nil {
		return "", nil, err
	}
	return m.Subject, m.Data, nil
}

func (q *jsIO) firstSeq(ctx context.Context) (uint64, error) {
	info, err := q.stream.Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.State.FirstSeq, nil
}

func (q *jsIO) deleteMsg(ctx context.Context, seq uint64) error { return q.stream.DeleteMsg(ctx, seq) }

func (q *jsIO) purge(ctx context.Context, b Block) error {
	return q.stream.Purge(ctx, jetstream.WithPurgeSubject(q.run.blockSubject(b)))
}

// revision is the last sequence of the bucket's stream.
func (q *jsIO) revision(ctx context.Context) (uint64, error) {
	st, err := q.kv.Status(ctx)
	if err != nil {
		return 0, err
	}
	bs, ok := st.(*jetstream.KeyValueBucketStatus)
	if !ok {
		return 0, fmt.Errorf("bucket %s: no stream state", q.run.Bucket)
	}
	return bs.StreamInfo().State.LastSeq, nil
}

func (q *jsIO) put(ctx context.Context, key string, value []byte) error {
	_, err := q.kv.Put(ctx, key, value)
	return err
}

func (q *jsIO) deleteKey(ctx context.Context, key string) error { return q.kv.Delete(ctx, key) }
