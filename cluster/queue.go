package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/count"
)

// Run names the JetStream objects of one count. Every name derives from the
// fingerprint, so runs of different N or engine versions never mix, and a
// restarted coordinator finds its run again.
type Run struct {
	N           int
	Fingerprint string
	ID          string // n<N>-<hash>
	Stream      string // work queue of block messages
	Subject     string // prefix; the block starting at unit i is published on Subject+"."+i
	Bucket      string // key-value bucket of results
}

// Consumer is the durable pull consumer all workers share.
const Consumer = "workers"

// Stream metadata keys by which workers recognise runs.
const (
	metaN           = "nqueens_n"
	metaFingerprint = "nqueens_fingerprint"
	metaBucket      = "nqueens_bucket"
	metaBlock       = "nqueens_block_size"
)

// RunFor returns the run of N for this engine. Cost O(units) (the
// fingerprint).
func RunFor(n int) Run {
	fp := count.Fingerprint(n)
	h := sha256.Sum256([]byte(fp))
	id := fmt.Sprintf("n%d-%s", n, hex.EncodeToString(h[:5]))
	return Run{N: n, Fingerprint: fp, ID: id, Stream: "NQUEENS-" + id,
		Subject: "nqueens." + id + ".block", Bucket: "nqueens-" + id}
}

// Block is the range of consecutive units First..Last that one message of
// the work queue carries. A run cuts its units into blocks of one size,
// fixed when the run is created and kept in the stream's metadata, so every
// unit belongs to exactly one block for the whole life of the run.
type Block struct{ First, Last int }

func (b Block) String() string {
	if b.First == b.Last {
		return "unit " + strconv.Itoa(b.First)
	}
	return fmt.Sprintf("units %d-%d", b.First, b.Last)
}

// Len returns the number of units in b.
func (b Block) Len() int { return b.Last - b.First + 1 }

// MaxBlockSize bounds the units per message.
const MaxBlockSize = 4096

// DefaultBlockSize returns the units per message for N: enough that a
// block takes about 0.1 s on one core, so that messaging (about a
// millisecond per message) stays out of the way on small N, and 1 from
// N = 20 on, where one unit already takes a tenth of a second or so. The
// time of a unit comes from the engine's growth: about 0.9 s for all of
// N = 16 on one core (engine version 2; version 3 is a sixth faster, which
// leaves blocks a little short of 0.1 s), ×6.5 per step of N. Cost O(1)
// after the unit table of N.
func DefaultBlockSize(n int) int {
	units := count.Units(n)
	if units == 0 {
		return 1
	}
	perUnit := 0.9 * math.Pow(6.5, float64(n-16)) / float64(units)
	return int(min(64, max(1, 0.1/perUnit)))
}

// blocks returns the number of blocks of size b for N.
func (r Run) blocks(size int) int { return (count.Units(r.N) + size - 1) / size }

// block returns block k (0-based) of size b.
func (r Run) block(k, size int) Block {
	first := k * size
	return Block{first, min(first+size, count.Units(r.N)) - 1}
}

func (r Run) blockSubject(b Block) string { return r.Subject + "." + strconv.Itoa(b.First) }

// blockOf reads the block from a message subject.
func (r Run) blockOf(subject string, size int) (Block, error) {
	s, ok := strings.CutPrefix(subject, r.Subject+".")
	if !ok {
		return Block{}, fmt.Errorf("subject %q is not a block of run %s", subject, r.ID)
	}
	first, err := strconv.Atoi(s)
	if err != nil || size < 1 || first < 0 || first >= count.Units(r.N) || first%size != 0 {
		return Block{}, fmt.Errorf("subject %q names no block of N = %d (block size %d)", subject, r.N, size)
	}
	return r.block(first/size, size), nil
}

// Keys of the result bucket. A block's keys carry its first unit.
func resultKey(b Block) string { return "block." + strconv.Itoa(b.First) }
func failedKey(b Block) string { return "failed." + strconv.Itoa(b.First) }
func alarmKey(b Block, seq uint64) string {
	return "alarm." + strconv.Itoa(b.First) + "." + strconv.FormatUint(seq, 10)
}

// BlockRecord is the value stored for a finished block: the result of each
// of its units, in order.
type BlockRecord struct {
	N         int                `json:"n"`
	First     int                `json:"first"`
	Last      int                `json:"last"`
	Units     []count.UnitResult `json:"units"`
	Seconds   float64            `json:"seconds"`
	Worker    string             `json:"worker"`
	Delivered uint64             `json:"delivered"` // delivery attempt that produced it (1 = first)
	At        time.Time          `json:"at"`
}

// Block returns the range of the record.
func (r BlockRecord) Block() Block { return Block{r.First, r.Last} }

// check reports whether r holds exactly the units of block b of N.
func (r BlockRecord) check(n int, b Block) error {
	if r.N != n || r.First != b.First || r.Last != b.Last || len(r.Units) != b.Len() {
		return fmt.Errorf("record of N = %d, units %d-%d (%d results) does not match %s of N = %d", r.N, r.First, r.Last, len(r.Units), b, n)
	}
	for k, u := range r.Units {
		if u.Index != b.First+k {
			return fmt.Errorf("record of %s holds unit %d in place %d", b, u.Index, k)
		}
	}
	return nil
}

// FailRecord is the value stored for a block that failed.
type FailRecord struct {
	First     int    `json:"first"`
	Last      int    `json:"last"`
	Error     string `json:"error"`
	Worker    string `json:"worker,omitempty"`
	Delivered uint64 `json:"delivered"`
	StreamSeq uint64 `json:"stream_seq"`
	// GaveUp is set when the server stopped delivering the block after the
	// consumer's MaxDeliver attempts; the next coordinator start retries it.
	GaveUp bool `json:"gave_up"`
}

// AlarmRecord is stored when a block gets a second, different result.
type AlarmRecord struct {
	First  BlockRecord `json:"first"`
	Second BlockRecord `json:"second"`
}

// conflicts returns one *ConflictError per unit whose results differ.
func (a AlarmRecord) conflicts() []error {
	var out []error
	for k := range min(len(a.First.Units), len(a.Second.Units)) {
		x, y := a.First.Units[k], a.Second.Units[k]
		if x != y {
			out = append(out, &ConflictError{N: a.First.N, Unit: x.Index, First: x, Second: y,
				FirstAt: Source{Path: "worker " + a.First.Worker}, SecAt: Source{Path: "worker " + a.Second.Worker}})
		}
	}
	if len(out) == 0 && (a.First.First != a.Second.First || len(a.First.Units) != len(a.Second.Units)) {
		out = append(out, fmt.Errorf("block records of units %d-%d (worker %s) and %d-%d (worker %s) disagree in shape",
			a.First.First, a.First.Last, a.First.Worker, a.Second.First, a.Second.Last, a.Second.Worker))
	}
	return out
}

// sameCounts compares what two records contribute; timing and origin may
// differ.
func sameCounts(a, b BlockRecord) bool {
	if a.First != b.First || len(a.Units) != len(b.Units) {
		return false
	}
	for k := range a.Units {
		if a.Units[k] != b.Units[k] {
			return false
		}
	}
	return true
}

// RecordResult stores a block's result in the bucket with a create-only
// write: the first result wins. When one is already there, an equal result
// is a harmless duplicate (dup is true); a different one is stored as an
// alarm and returned as one *ConflictError per differing unit (joined).
// Cost: one or three round trips.
func RecordResult(ctx context.Context, kv jetstream.KeyValue, rec BlockRecord) (dup bool, err error) {
	val, err := json.Marshal(rec)
	if err != nil {
		return false, err
	}
	b := rec.Block()
	key := resultKey(b)
	_, err = kv.Create(ctx, key, val)
	if err == nil {
		return false, nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return false, fmt.Errorf("storing %s: %w", b, err)
	}
	e, err := kv.Get(ctx, key)
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", b, err)
	}
	var first BlockRecord
	if err := json.Unmarshal(e.Value(), &first); err != nil {
		return false, fmt.Errorf("%s: stored result is malformed: %v", b, err)
	}
	if sameCounts(first, rec) {
		return true, nil
	}
	alarm := AlarmRecord{First: first, Second: rec}
	av, _ := json.Marshal(alarm)
	if _, err := kv.Put(ctx, alarmKey(b, uint64(time.Now().UnixNano())), av); err != nil {
		return false, fmt.Errorf("%s has two different results, and the alarm could not be stored: %v", b, err)
	}
	return false, errors.Join(alarm.conflicts()...)
}

// blockJob is the body of a block message; the subject carries the first
// unit too, and the worker checks that both agree.
type blockJob struct {
	Run   string `json:"run"`
	N     int    `json:"n"`
	First int    `json:"first"`
	Last  int    `json:"last"`
}
