package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
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
	Stream      string // work queue of unit messages
	Subject     string // prefix; unit i is published on Subject+"."+i
	Bucket      string // key-value bucket of results
}

// Consumer is the durable pull consumer all workers share.
const Consumer = "workers"

// Stream metadata keys by which workers recognise runs.
const (
	metaN           = "nqueens_n"
	metaFingerprint = "nqueens_fingerprint"
	metaBucket      = "nqueens_bucket"
)

// RunFor returns the run of N for this engine. Cost O(units) (the
// fingerprint).
func RunFor(n int) Run {
	fp := count.Fingerprint(n)
	h := sha256.Sum256([]byte(fp))
	id := fmt.Sprintf("n%d-%s", n, hex.EncodeToString(h[:5]))
	return Run{N: n, Fingerprint: fp, ID: id, Stream: "NQUEENS-" + id,
		Subject: "nqueens." + id + ".unit", Bucket: "nqueens-" + id}
}

func (r Run) unitSubject(i int) string { return r.Subject + "." + strconv.Itoa(i) }

// unitOf reads the unit index from a message subject.
func (r Run) unitOf(subject string) (int, error) {
	s, ok := strings.CutPrefix(subject, r.Subject+".")
	if !ok {
		return 0, fmt.Errorf("subject %q is not a unit of run %s", subject, r.ID)
	}
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 || i >= count.Units(r.N) {
		return 0, fmt.Errorf("subject %q names no unit of N = %d", subject, r.N)
	}
	return i, nil
}

// Keys of the result bucket.
func resultKey(i int) string { return "unit." + strconv.Itoa(i) }
func failedKey(i int) string { return "failed." + strconv.Itoa(i) }
func alarmKey(i int, seq uint64) string {
	return "alarm." + strconv.Itoa(i) + "." + strconv.FormatUint(seq, 10)
}

// UnitRecord is the value stored for a finished unit.
type UnitRecord struct {
	count.UnitResult
	N         int       `json:"n"`
	Seconds   float64   `json:"seconds"`
	Worker    string    `json:"worker"`
	Delivered uint64    `json:"delivered"` // delivery attempt that produced it (1 = first)
	At        time.Time `json:"at"`
}

// FailRecord is the value stored for a unit that failed.
type FailRecord struct {
	Unit      int    `json:"unit"`
	Error     string `json:"error"`
	Worker    string `json:"worker,omitempty"`
	Delivered uint64 `json:"delivered"`
	StreamSeq uint64 `json:"stream_seq"`
	// GaveUp is set when the server stopped delivering the unit after the
	// consumer's MaxDeliver attempts; the next coordinator start retries it.
	GaveUp bool `json:"gave_up"`
}

// AlarmRecord is stored when a unit gets a second, different result.
type AlarmRecord struct {
	Unit   int        `json:"unit"`
	First  UnitRecord `json:"first"`
	Second UnitRecord `json:"second"`
}

func (a AlarmRecord) err(n int) *ConflictError {
	return &ConflictError{N: n, Unit: a.Unit, First: a.First.UnitResult, Second: a.Second.UnitResult,
		FirstAt: Source{Path: "worker " + a.First.Worker}, SecAt: Source{Path: "worker " + a.Second.Worker}}
}

// sameCounts compares what a unit contributes; timing and origin may differ.
func sameCounts(a, b count.UnitResult) bool { return a == b }

// RecordResult stores a unit's result in the bucket with a create-only
// write: the first result wins. When one is already there, an equal result
// is a harmless duplicate (dup is true); a different one is stored as an
// alarm and returned as a *ConflictError. Cost: one or three round trips.
func RecordResult(ctx context.Context, kv jetstream.KeyValue, rec UnitRecord) (dup bool, err error) {
	val, err := json.Marshal(rec)
	if err != nil {
		return false, err
	}
	key := resultKey(rec.Index)
	_, err = kv.Create(ctx, key, val)
	if err == nil {
		return false, nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return false, fmt.Errorf("storing unit %d: %w", rec.Index, err)
	}
	e, err := kv.Get(ctx, key)
	if err != nil {
		return false, fmt.Errorf("reading unit %d: %w", rec.Index, err)
	}
	var first UnitRecord
	if err := json.Unmarshal(e.Value(), &first); err != nil {
		return false, fmt.Errorf("unit %d: stored result is malformed: %v", rec.Index, err)
	}
	if sameCounts(first.UnitResult, rec.UnitResult) {
		return true, nil
	}
	alarm := AlarmRecord{Unit: rec.Index, First: first, Second: rec}
	av, _ := json.Marshal(alarm)
	if _, err := kv.Put(ctx, alarmKey(rec.Index, uint64(time.Now().UnixNano())), av); err != nil {
		return false, fmt.Errorf("unit %d has two different results, and the alarm could not be stored: %v", rec.Index, err)
	}
	return false, alarm.err(rec.N)
}

// unitJob is the body of a unit message; the subject carries the index too,
// and the worker checks that both agree.
type unitJob struct {
	Run  string `json:"run"`
	N    int    `json:"n"`
	Unit int    `json:"unit"`
}
