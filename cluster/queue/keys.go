package queue

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// workerID is a worker's label as a bucket key token: labels are free
// text, key tokens are not.
func workerID(name string) string {
	h := sha256.Sum256([]byte(name))
	return hex.EncodeToString(h[:8])
}

// Keys of the result bucket. A block's keys carry its first unit; token
// is the voter's (Identity.token): its public key, or a hash of its label
// for the shared credential.
func voteKey(b Block, token string) string {
	return "vote." + strconv.Itoa(b.First) + "." + token
}
func failedKey(b Block) string { return "failed." + strconv.Itoa(b.First) }
func failureKey(b Block, token string) string {
	return "failed." + strconv.Itoa(b.First) + "." + token
}
func alarmKey(b Block, token string, seq uint64) string {
	return "alarm." + strconv.Itoa(b.First) + "." + token + "." + strconv.FormatUint(seq, 10)
}
func bannedKey(token string) string   { return "banned." + token }
func refusedKey(token string) string  { return "refused." + token }
func presenceKey(token string) string { return "worker." + token }

// failure is the value stored for a block that failed: by a worker, in
// plain JSON under its own key (failureKey), which only says what
// happened; by the coordinator, sealed, when the server gave up
// delivering the block (failedKey, GaveUp), which only it may write.
type failure struct {
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

// blockJob is the body of a block message; the subject carries the first
// unit too, and the worker checks that both agree.
type blockJob struct {
	Run      string `json:"run"`
	N        int    `json:"n"`
	First    int    `json:"first"`
	Last     int    `json:"last"`
	Replicas int    `json:"replicas"`
}

// refusal is stored, in plain JSON, when the coordinator refuses a
// result stored under a voter's token, so that the worker that stored it
// learns why and stops (it may not hold the seal key that a sealed record
// would need). A refusal older than a worker's start is about an earlier
// worker of that token.
type refusal struct {
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}
