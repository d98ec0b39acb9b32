package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/cluster/ledger"
	"github.com/nqueens/nqueens/count"
)

// storeVote stores a worker's result for a block with a create-only write
// under a key naming both. When one is already there (the same worker
// counted the block twice), an equal result is a harmless duplicate (dup
// is true); a different one is stored as an alarm, which bans the worker,
// and returned as one *ledger.ConflictError per differing unit (joined). Cost: one
// or three round trips.
func storeVote(ctx context.Context, kv jetstream.KeyValue, v vote) (dup bool, err error) {
	val, err := json.Marshal(v)
	if err != nil {
		return false, err
	}
	b := v.block()
	key := voteKey(b, v.Worker)
	if _, err = kv.Create(ctx, key, val); err == nil {
		return false, nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return false, fmt.Errorf("storing %s: %w", b, err)
	}
	e, err := kv.Get(ctx, key)
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", b, err)
	}
	var first vote
	if err := json.Unmarshal(e.Value(), &first); err != nil {
		return false, fmt.Errorf("%s: stored result is malformed: %v", b, err)
	}
	if sameUnits(first.Units, v.Units) {
		return true, nil
	}
	a := alarm{First: first, Second: v}
	av, _ := json.Marshal(a)
	if _, err := kv.Put(ctx, alarmKey(b, uint64(time.Now().UnixNano())), av); err != nil {
		return false, fmt.Errorf("%s has two different results, and the alarm could not be stored: %v", b, err)
	}
	return false, errors.Join(a.conflicts()...)
}

// conflicts returns one *ledger.ConflictError per unit whose results differ.
func (a alarm) conflicts() []error {
	var out []error
	for k := range min(len(a.First.Units), len(a.Second.Units)) {
		x, y := a.First.Units[k], a.Second.Units[k]
		if x != y {
			out = append(out, &ledger.ConflictError{N: a.First.N, Unit: x.Index, First: x, Second: y,
				FirstAt: ledger.Source{Path: "worker " + a.First.Worker}, SecAt: ledger.Source{Path: "worker " + a.Second.Worker}})
		}
	}
	if len(out) == 0 {
		out = append(out, fmt.Errorf("results of %s by worker %s disagree in shape", a.First.block(), a.First.Worker))
	}
	return out
}

// vote is the value stored for one worker's count of a block: the result
// of each of its units, in order.
type vote struct {
	N         int                `json:"n"`
	First     int                `json:"first"`
	Last      int                `json:"last"`
	Units     []count.UnitResult `json:"units"`
	Seconds   float64            `json:"seconds"`
	Worker    string             `json:"worker"`
	Delivered uint64             `json:"delivered"` // delivery attempt that produced it (1 = first)
	At        time.Time          `json:"at"`
}

func (v vote) block() Block { return Block{v.First, v.Last} }

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

// alarm is stored when a worker finds its own earlier result for a block
// different from a new one: the worker is faulty.
type alarm struct {
	First  vote `json:"first"`
	Second vote `json:"second"`
}

// ban is stored when the coordinator finds a worker's result wrong: every
// result of that worker is discarded, and the worker stops taking blocks
// of the run.
type ban struct {
	Worker string    `json:"worker"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}
