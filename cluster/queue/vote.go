package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/cluster/ledger"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/seal"
)

// vote is one worker's count of a block: the result of each of its units,
// in order. Worker is the label the worker gave (--name), shown in
// messages; Voter is the public NKey that signed the vote, "" for the
// shared credential.
type vote struct {
	N         int                `json:"n"`
	First     int                `json:"first"`
	Last      int                `json:"last"`
	Units     []count.UnitResult `json:"units"`
	Seconds   float64            `json:"seconds"`
	Worker    string             `json:"worker"`
	Voter     string             `json:"voter,omitempty"`
	Delivered uint64             `json:"delivered"` // delivery attempt that produced it (1 = first)
	// Seq is the stream sequence of the block message the vote was counted
	// from: the coordinator removes that message if it is still there (its
	// acknowledgement, which follows the vote, not in yet), so that it
	// never counts both (0 in votes of older workers).
	Seq uint64    `json:"seq,omitempty"`
	At  time.Time `json:"at"`
}

func (v vote) block() Block { return Block{v.First, v.Last} }

// by is who cast v, as the book tells voters apart and bans them: the
// public key that signed it, or, for the shared credential, its label.
func (v vote) by() string {
	if v.Voter != "" {
		return v.Voter
	}
	return labelPrefix + v.Worker
}

// labelPrefix marks a ballot identity that is only a label of the shared
// credential.
const labelPrefix = "label:"

// check reports whether v holds exactly the units of block b of N, each
// plausible ([count.Check]).
func (v vote) check(n int, b Block) error {
	if v.N != n || v.First != b.First || v.Last != b.Last || len(v.Units) != b.Len() {
		return fmt.Errorf("result of N = %d, units %d-%d (%d results) does not match %s of N = %d", v.N, v.First, v.Last, len(v.Units), b, n)
	}
	for k, u := range v.Units {
		if u.Index != b.First+k {
			return fmt.Errorf("result of %s holds unit %d in place %d", b, u.Index, k)
		}
		if err := count.Check(n, u); err != nil {
			return err
		}
	}
	return nil
}

// sameUnits compares what two results contribute; timing and origin may
// differ.
func sameUnits(a, b []count.UnitResult) bool { return slices.Equal(a, b) }

// signedVote is a vote as the bucket stores it: sealed under the run's
// seal key, which every worker of the pool holds, and signed by the
// voter's NKey, which only that voter holds.
type signedVote struct {
	Vote json.RawMessage `json:"vote"`
	Sig  string          `json:"sig,omitempty"` // base64url Ed25519 signature of Vote; "" for the shared credential
}

// signVote seals v under key and signs it as id.
func signVote(v vote, key *seal.Key, id Identity) ([]byte, error) {
	v.Voter = id.pub
	sealed, err := key.Seal(v)
	if err != nil {
		return nil, err
	}
	sig, err := id.sign(sealed)
	if err != nil {
		return nil, err
	}
	return json.Marshal(signedVote{Vote: sealed, Sig: sig})
}

// openVote reads a stored vote: sealed under key, signed by the key it
// names (or by none, for the shared credential), and stored under the
// token of its voter (the last part of its bucket key).
func openVote(value []byte, key *seal.Key, token string) (vote, error) {
	var sv signedVote
	if err := json.Unmarshal(value, &sv); err != nil || len(sv.Vote) == 0 {
		return vote{}, errors.New("it is no stored result")
	}
	var v vote
	if err := key.Open(sv.Vote, &v); err != nil {
		return vote{}, err
	}
	switch {
	case sv.Sig != "":
		if err := verify(v.Voter, sv.Vote, sv.Sig); err != nil {
			return vote{}, err
		}
		if token != v.Voter {
			return vote{}, errors.New("its key does not name its voter")
		}
	case v.Voter != "":
		return vote{}, errors.New("it names a voter but has no signature")
	case token != SharedIdentity().token(v.Worker):
		return vote{}, errors.New("its key does not name its worker")
	}
	return v, nil
}

// storeVote stores a worker's result for a block with a create-only write
// under a key naming both. When one is already there (the same worker
// counted the block twice), an equal result is a harmless duplicate (dup
// is true); a different one is stored as an alarm, which bans the worker,
// and returned as one *ledger.ConflictError per differing unit (joined).
// rev is the bucket revision of a vote stored now (0 otherwise). Cost:
// one or three round trips.
func storeVote(ctx context.Context, kv jetstream.KeyValue, v vote, key *seal.Key, id Identity) (rev uint64, dup bool, err error) {
	val, err := signVote(v, key, id)
	if err != nil {
		return 0, false, err
	}
	b := v.block()
	token := id.token(v.Worker)
	k := voteKey(b, token)
	if rev, err = kv.Create(ctx, k, val); err == nil {
		return rev, false, nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return 0, false, fmt.Errorf("storing %s: %w", b, err)
	}
	e, err := kv.Get(ctx, k)
	if err != nil {
		return 0, false, fmt.Errorf("reading %s: %w", b, err)
	}
	first, err := openVote(e.Value(), key, token)
	if err != nil {
		return 0, false, fmt.Errorf("%s: the stored result is refused: %v", b, err)
	}
	if sameUnits(first.Units, v.Units) {
		return 0, true, nil
	}
	a := alarm{First: e.Value(), Second: val}
	av, _ := json.Marshal(a)
	if _, err := kv.Put(ctx, alarmKey(b, token, uint64(time.Now().UnixNano())), av); err != nil {
		return 0, false, fmt.Errorf("%s has two different results, and the alarm could not be stored: %v", b, err)
	}
	v.Voter = id.pub
	return 0, false, errors.Join(conflicts(first, v)...)
}

// conflicts returns one *ledger.ConflictError per unit whose results in
// a and b differ.
func conflicts(a, b vote) []error {
	var out []error
	for k := range min(len(a.Units), len(b.Units)) {
		x, y := a.Units[k], b.Units[k]
		if x != y {
			out = append(out, &ledger.ConflictError{N: a.N, Unit: x.Index, First: x, Second: y,
				FirstAt: ledger.Source{Path: fmt.Sprintf("worker %q", a.Worker)}, SecAt: ledger.Source{Path: fmt.Sprintf("worker %q", b.Worker)}})
		}
	}
	if len(out) == 0 {
		out = append(out, fmt.Errorf("results of %s by worker %q disagree in shape", a.block(), a.Worker))
	}
	return out
}

// alarm is stored when a worker finds its own earlier result for a block
// different from a new one: the worker is faulty. Both results are kept as
// stored (signed), so that only a voter can raise an alarm about itself.
type alarm struct {
	First  json.RawMessage `json:"first"`
	Second json.RawMessage `json:"second"`
}

// ban is stored, sealed, when the coordinator finds a worker's result
// wrong: every result of that voter is discarded, and the worker stops
// taking blocks of the run. By is the ballot identity (vote.by), Worker
// the label it was last seen with.
type ban struct {
	By     string    `json:"by"`
	Worker string    `json:"worker"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// token is the bucket key token of the banned identity.
func (b ban) token() string {
	if label, ok := strings.CutPrefix(b.By, labelPrefix); ok {
		return SharedIdentity().token(label)
	}
	return b.By
}

// presence is stored by every worker about itself, every presenceEvery,
// so that the coordinator knows which voters are at work and can say so
// when too few are to reach a quorum.
type presence struct {
	Worker string    `json:"worker"`
	Voter  string    `json:"voter,omitempty"`
	At     time.Time `json:"at"`
}
