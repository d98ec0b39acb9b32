package ledger

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/seal"
)

// record is one line of a ledger: the results of a batch of units of one
// run, sealed under the seal key. See the package documentation for the
// grammar.
type record struct {
	Fingerprint string             `json:"fingerprint"`
	N           int                `json:"n"`
	Shard       string             `json:"shard,omitempty"`
	First       int                `json:"first"`
	Last        int                `json:"last"`
	Subtotal    count.Uint128      `json:"subtotal"`
	Nodes       count.Uint128      `json:"nodes"`
	Seconds     float64            `json:"seconds"`
	Worker      string             `json:"worker,omitempty"`
	Units       []count.UnitResult `json:"units"`
}

// newRecord builds the record of a batch of results of N, computing its
// range and sums. Cost O(len(units)).
func newRecord(n int, units []count.UnitResult, seconds float64, worker, shard string) (record, error) {
	r := record{Fingerprint: count.Fingerprint(n), N: n, Shard: shard, Seconds: seconds, Worker: worker, Units: units}
	if err := r.sums(true); err != nil {
		return record{}, err
	}
	return r, nil
}

// line encodes r as a ledger line sealed under key, without the newline.
// The seal catches accidents (a flipped bit, an edit by hand, a torn write)
// and forgery alike: no one without the key can make one. See
// docs/security.md.
func (r record) line(key *seal.Key) ([]byte, error) { return key.Seal(r) }

// sums computes First, Last, Subtotal and Nodes from Units (set) or checks
// that they match (!set).
func (r *record) sums(set bool) error {
	if len(r.Units) == 0 {
		return errors.New("record holds no units")
	}
	first, last := r.Units[0].Index, r.Units[0].Index
	var total, nodes count.Uint128
	for _, u := range r.Units {
		first, last = min(first, u.Index), max(last, u.Index)
		var ok1, ok2 bool
		total, ok1 = total.Add(count.U128(u.Total))
		nodes, ok2 = nodes.Add(count.U128(u.Nodes))
		if !ok1 || !ok2 {
			return fmt.Errorf("the record's sums pass 128 bits: %w", count.ErrOverflow)
		}
	}
	if set {
		r.First, r.Last, r.Subtotal, r.Nodes = first, last, total, nodes
		return nil
	}
	switch {
	case r.First != first || r.Last != last:
		return fmt.Errorf("unit range %d-%d does not match its units (%d-%d)", r.First, r.Last, first, last)
	case r.Subtotal != total:
		return fmt.Errorf("subtotal %s does not match its units (%s)", r.Subtotal, total)
	case r.Nodes != nodes:
		return fmt.Errorf("nodes %s do not match its units (%s)", r.Nodes, nodes)
	}
	return nil
}

// parseRecord reads one ledger line and checks that it is sound: sealed
// under key, a known N, the fingerprint of that N for this engine, range
// and sums matching the units, and every unit result plausible for its
// unit ([count.Check]). A line cut short is an error wrapping
// [seal.ErrMalformed]. Cost O(len(line)).
func parseRecord(line []byte, key *seal.Key) (record, error) {
	var r record
	if err := key.Open(line, &r); err != nil {
		var se *seal.KeyError
		if errors.Is(err, seal.ErrUnsealed) || errors.Is(err, seal.ErrBroken) || errors.As(err, &se) {
			return record{}, i18n.Wrap(err, "ledger.line.refused", nil)
		}
		return record{}, i18n.Wrap(err, "ledger.line.notrecord", nil)
	}
	if err := board.CheckSize(r.N, "a ledger", count.MaxN); err != nil {
		return record{}, err
	}
	if fp := fingerprint(r.N, r.Fingerprint); r.Fingerprint != fp {
		return record{}, i18n.NewError("ledger.fingerprint.engine", i18n.Args{"Held": strconv.Quote(r.Fingerprint), "Want": strconv.Quote(fp)})
	}
	units := count.Units(r.N)
	for _, u := range r.Units {
		if u.Index < 0 || u.Index >= units {
			return record{}, i18n.NewError("ledger.unit.range", i18n.Args{"Unit": strconv.Itoa(u.Index), "Max": strconv.Itoa(units - 1), "N": strconv.Itoa(r.N)})
		}
	}
	if err := r.sums(false); err != nil {
		return record{}, err
	}
	for _, u := range r.Units {
		if err := count.Check(r.N, u); err != nil {
			return record{}, err
		}
	}
	return r, nil
}

// fingerprint returns count.Fingerprint(n), cached. A claimed fingerprint
// that does not even name n and this engine's version is answered without
// building N's unit table (seconds for N near MaxN).
func fingerprint(n int, claimed string) string {
	prefix := fmt.Sprintf("nqueens-count engine=%s n=%d ", count.EngineVersion, n)
	if !strings.HasPrefix(claimed, prefix) {
		return prefix + "…"
	}
	if v, ok := fingerprints.Load(n); ok {
		return v.(string)
	}
	fp := count.Fingerprint(n)
	fingerprints.Store(n, fp)
	return fp
}

var fingerprints sync.Map // int → string
