package queue

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/nqueens/nqueens/seal"
	"log/slog"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/count"
)

// Run is one count on the work queue: N, how its units are cut into
// blocks, how many workers must agree on each block, and the names of its
// JetStream objects. Every name derives from the fingerprint, so runs of
// different N or engine versions never mix, and a restarted coordinator
// finds its run again. BlockSize and Replicas are fixed when the run is
// created and kept in the stream's metadata.
type Run struct {
	N           int
	Fingerprint string
	ID          string // n<N>-<hash>
	Stream      string // work queue of block messages
	Subject     string // prefix; the block starting at unit i is published on Subject+"."+i
	Bucket      string // key-value bucket of results
	BlockSize   int    // units per block
	Replicas    int    // results of different workers each block needs (1: no quorum)
	Units       int    // units of N
}

// consumer is the durable pull consumer all workers share.
const consumer = "workers"

// Stream metadata keys by which workers recognise runs.
const (
	metaN           = "nqueens_n"
	metaFingerprint = "nqueens_fingerprint"
	metaBucket      = "nqueens_bucket"
	metaBlock       = "nqueens_block_size"
	metaReplicas    = "nqueens_replicas"
	metaSealKey     = "nqueens_seal_key" // the ID of the key that seals the blocks and opens the results
)

// runFor returns the run of N for this engine with the given block size
// and replicas. Cost O(units) (the fingerprint).
func runFor(n, blockSize, replicas int) Run {
	fp := count.Fingerprint(n)
	h := sha256.Sum256([]byte(fp))
	id := fmt.Sprintf("n%d-%s", n, hex.EncodeToString(h[:5]))
	return Run{N: n, Fingerprint: fp, ID: id, Stream: "NQUEENS-" + id,
		Subject: "nqueens." + id + ".block", Bucket: "nqueens-" + id,
		BlockSize: blockSize, Replicas: replicas, Units: count.Units(n)}
}

// metadata is what the run's stream carries for workers and restarts,
// with the coordinator's seal key.
func (r Run) metadata(key *seal.Key) map[string]string {
	return map[string]string{metaN: strconv.Itoa(r.N), metaFingerprint: r.Fingerprint,
		metaBucket: r.Bucket, metaBlock: strconv.Itoa(r.BlockSize), metaReplicas: strconv.Itoa(r.Replicas), metaSealKey: key.ID()}
}

// runFromMetadata rebuilds a run from its stream's metadata, refusing one
// of another engine or with settings out of range.
func runFromMetadata(stream string, md map[string]string) (Run, error) {
	n, err := strconv.Atoi(md[metaN])
	if err != nil || n < 1 || n > count.MaxN {
		return Run{}, fmt.Errorf("stream %s names no board size", stream)
	}
	size, err1 := strconv.Atoi(md[metaBlock])
	replicas, err2 := strconv.Atoi(md[metaReplicas])
	if err1 != nil || size < 1 || size > MaxBlockSize || err2 != nil || replicas < 1 || replicas > MaxReplicas {
		return Run{}, fmt.Errorf("stream %s has no valid block size and replicas in its metadata; delete it (nats stream rm %s) to start the run again", stream, stream)
	}
	r := runFor(n, size, replicas)
	if md[metaFingerprint] != r.Fingerprint || r.Stream != stream {
		return Run{}, fmt.Errorf("stream %s holds a run of another engine (%s; this one is %s)", stream, md[metaFingerprint], r.Fingerprint)
	}
	return r, nil
}

// Block is the range of consecutive units First..Last that one message of
// the work queue carries. A run cuts its units into blocks of one size, so
// every unit belongs to exactly one block for the whole life of the run.
type Block struct{ First, Last int }

func (b Block) String() string {
	if b.First == b.Last {
		return "unit " + strconv.Itoa(b.First)
	}
	return fmt.Sprintf("units %d-%d", b.First, b.Last)
}

// LogValue is b's units in a log record: "7", or "2432-2495".
func (b Block) LogValue() slog.Value {
	if b.First == b.Last {
		return slog.IntValue(b.First)
	}
	return slog.StringValue(fmt.Sprintf("%d-%d", b.First, b.Last))
}

// Len returns the number of units in b.
func (b Block) Len() int { return b.Last - b.First + 1 }

// MaxBlockSize bounds the units per message; MaxReplicas the results each
// block may need.
const (
	MaxBlockSize = 4096
	MaxReplicas  = 5
)

// Block sizing: a block should take about blockSeconds on one core, so
// that messaging (about a millisecond per message) stays out of the way,
// but no more than maxAutoBlock units. The time of a unit is the engine's
// guide, count.UnitSeconds.
const (
	blockSeconds = 0.1
	maxAutoBlock = 64
)

// defaultBlockSize returns the units per message for N: about 0.1 s of work
// on one core, at most 64 units, and 1 from N = 21 on, where one unit
// already takes a tenth of a second or so. Cost O(1) after the unit table
// of N.
func defaultBlockSize(n int) int {
	perUnit := count.UnitSeconds(n)
	if perUnit == 0 {
		return 1
	}
	return int(min(maxAutoBlock, max(1, blockSeconds/perUnit)))
}

// blocks returns the number of blocks of the run.
func (r Run) blocks() int { return (r.Units + r.BlockSize - 1) / r.BlockSize }

// block returns block k (0-based).
func (r Run) block(k int) Block {
	first := k * r.BlockSize
	return Block{first, min(first+r.BlockSize, r.Units) - 1}
}

// blockNumber returns k for the block that starts at unit first.
func (r Run) blockNumber(first int) (int, bool) {
	if first < 0 || first >= r.Units || first%r.BlockSize != 0 {
		return 0, false
	}
	return first / r.BlockSize, true
}

func (r Run) blockSubject(b Block) string { return r.Subject + "." + strconv.Itoa(b.First) }

// backSubject is where the worker of token tells the coordinator that it
// gave a copy of a block back (a core NATS subject, beside the stream's):
// the only subject of a run a worker may publish on.
func (r Run) backSubject(token string) string { return "nqueens." + r.ID + ".back." + token }

// blockOf reads the block from a message subject.
func (r Run) blockOf(subject string) (int, Block, error) {
	s, ok := strings.CutPrefix(subject, r.Subject+".")
	if !ok {
		return 0, Block{}, fmt.Errorf("subject %q is not a block of run %s", subject, r.ID)
	}
	first, err := strconv.Atoi(s)
	k, ok := r.blockNumber(first)
	if err != nil || !ok {
		return 0, Block{}, fmt.Errorf("subject %q names no block of N = %d (block size %d)", subject, r.N, r.BlockSize)
	}
	return k, r.block(k), nil
}

// openJob reads the block of a block message: its subject names a block
// of r, and its body is that block's job, sealed under key by the
// coordinator (workers may publish no block message, and a stranger
// without the key cannot seal one).
func (r Run) openJob(subject string, body []byte, key *seal.Key) (int, Block, error) {
	k, b, err := r.blockOf(subject)
	if err != nil {
		return 0, Block{}, err
	}
	var job blockJob
	if err := key.Open(body, &job); err != nil {
		return 0, Block{}, fmt.Errorf("the body of %s is refused: %w", subject, err)
	}
	if job.Run != r.ID || job.N != r.N || job.First != b.First || job.Last != b.Last || job.Replicas != r.Replicas {
		return 0, Block{}, fmt.Errorf("the body of %s names another block (run %s, N = %d, units %d-%d)", subject, clip(job.Run), job.N, job.First, job.Last)
	}
	return k, b, nil
}
