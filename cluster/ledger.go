package cluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/nqueens/nqueens/count"
)

// Record is one line of a ledger: the results of a batch of units of one
// run. See the package documentation for the grammar.
type Record struct {
	Fingerprint string             `json:"fingerprint"`
	N           int                `json:"n"`
	Shard       string             `json:"shard,omitempty"`
	First       int                `json:"first"`
	Last        int                `json:"last"`
	Subtotal    count.Uint128      `json:"subtotal"`
	Nodes       count.Uint128      `json:"nodes"`
	Seconds     float64            `json:"seconds"`
	Host        string             `json:"host,omitempty"`
	Units       []count.UnitResult `json:"units"`
}

// NewRecord builds the record of a batch of results of N, computing its
// range and sums. Cost O(len(units)).
func NewRecord(n int, units []count.UnitResult, seconds float64, host, shard string) (Record, error) {
	r := Record{Fingerprint: count.Fingerprint(n), N: n, Shard: shard, Seconds: seconds, Host: host, Units: units}
	if err := r.sums(true); err != nil {
		return Record{}, err
	}
	return r, nil
}

// sums computes First, Last, Subtotal and Nodes from Units (set) or checks
// that they match (!set).
func (r *Record) sums(set bool) error {
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
			return count.ErrOverflow
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

// ParseRecord reads one ledger line and checks that it is consistent: a
// known N, the fingerprint of that N for this engine, unit indices in range,
// and range and sums matching the units. Cost O(len(line)).
func ParseRecord(line []byte) (Record, error) {
	var r Record
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Record{}, fmt.Errorf("not a ledger record: %v", err)
	}
	if len(bytes.TrimSpace(line[dec.InputOffset():])) > 0 {
		return Record{}, errors.New("not a ledger record: text after the object")
	}
	if r.N < 1 || r.N > count.MaxN {
		return Record{}, fmt.Errorf("N = %d is outside 1..%d", r.N, count.MaxN)
	}
	if fp := fingerprint(r.N, r.Fingerprint); r.Fingerprint != fp {
		return Record{}, fmt.Errorf("fingerprint %q is not this engine's %q (another engine version or unit scheme)", r.Fingerprint, fp)
	}
	units := count.Units(r.N)
	for _, u := range r.Units {
		if u.Index < 0 || u.Index >= units {
			return Record{}, fmt.Errorf("unit %d is outside 0..%d for N = %d", u.Index, units-1, r.N)
		}
	}
	if err := r.sums(false); err != nil {
		return Record{}, err
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

// LedgerFile is a ledger as read from disk.
type LedgerFile struct {
	Path        string
	N           int    // 0 when the file holds no record
	Fingerprint string // "" when the file holds no record
	Records     []Record
	Lines       []int // line number of each record
	// Truncated is the line number of a last line cut short by a kill (it
	// is ignored), or 0. Complete is the byte length of the file up to it.
	Truncated int
	Complete  int64
}

// ReadLedger reads a ledger from r; name is used in messages. A malformed
// line is an error naming it, except a last line without a final newline,
// which a kill mid-write leaves behind: it is ignored and reported in
// Truncated. Cost O(size of the ledger).
func ReadLedger(r io.Reader, name string) (*LedgerFile, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	lf := &LedgerFile{Path: name}
	var off int64
	for lineNo := 1; len(data) > 0; lineNo++ {
		line, rest, newline := bytes.Cut(data, []byte("\n"))
		data = rest
		start := off
		off += int64(len(line))
		if newline {
			off++
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		rec, err := ParseRecord(line)
		if err != nil {
			if !newline {
				lf.Truncated, lf.Complete = lineNo, start
				return lf, nil
			}
			return nil, fmt.Errorf("%s:%d: %v", name, lineNo, err)
		}
		if lf.Fingerprint == "" {
			lf.N, lf.Fingerprint = rec.N, rec.Fingerprint
		} else if rec.Fingerprint != lf.Fingerprint {
			return nil, fmt.Errorf("%s:%d: fingerprint %q differs from the file's first line (%q)", name, lineNo, rec.Fingerprint, lf.Fingerprint)
		}
		lf.Records = append(lf.Records, rec)
		lf.Lines = append(lf.Lines, lineNo)
	}
	lf.Complete = off
	return lf, nil
}

// ReadLedgerFile reads the ledger at path with [ReadLedger].
func ReadLedgerFile(path string) (*LedgerFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadLedger(f, path)
}

// Ledger is a ledger file open for appending by one process.
type Ledger struct {
	// Host and Shard are written into every record.
	Host, Shard string

	path   string
	n      int
	f      *os.File
	unlock func()
	done   map[int]count.UnitResult
	// Repaired is the line number of a truncated last line that
	// OpenLedger cut off, or 0.
	Repaired int
}

// OpenLedger opens or creates the ledger at path for a run of N and takes
// an exclusive lock on it (where the system supports it), so that two
// processes never append to one file. The results already there must have
// N's fingerprint; a truncated last line left by a kill is cut off.
// Cost O(size of the ledger).
func OpenLedger(path string, n int) (*Ledger, error) {
	if n < 1 || n > count.MaxN {
		return nil, fmt.Errorf("N = %d is outside 1..%d", n, count.MaxN)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	unlock, err := lockFile(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("ledger %s is in use by another process: %w", path, err)
	}
	l := &Ledger{path: path, n: n, f: f, unlock: unlock, done: map[int]count.UnitResult{}}
	fail := func(err error) (*Ledger, error) { l.Close(); return nil, err }
	lf, err := ReadLedger(f, path)
	if err != nil {
		return fail(err)
	}
	if lf.Fingerprint != "" && lf.N != n {
		return fail(fmt.Errorf("ledger %s holds a run of N = %d, not %d", path, lf.N, n))
	}
	for _, rec := range lf.Records {
		for _, u := range rec.Units {
			if prev, ok := l.done[u.Index]; ok && prev != u {
				return fail(fmt.Errorf("ledger %s holds two different results for unit %d", path, u.Index))
			}
			l.done[u.Index] = u
		}
	}
	if lf.Truncated > 0 {
		if err := f.Truncate(lf.Complete); err != nil {
			return fail(err)
		}
		l.Repaired = lf.Truncated
	}
	if _, err := f.Seek(lf.Complete, io.SeekStart); err != nil {
		return fail(err)
	}
	// A whole last record without its newline (a kill between the two)
	// must not run into the next one.
	if lf.Complete > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], lf.Complete-1); err != nil {
			return fail(err)
		}
		if last[0] != '\n' {
			if _, err := f.Write([]byte{'\n'}); err != nil {
				return fail(fmt.Errorf("ledger %s: %w", path, err))
			}
		}
	}
	return l, nil
}

// Has reports whether the ledger holds a result for unit index.
func (l *Ledger) Has(index int) bool { _, ok := l.done[index]; return ok }

// Len returns the number of distinct units in the ledger.
func (l *Ledger) Len() int { return len(l.done) }

// Append writes one record with the given results and syncs it to disk
// before returning, so that a result reported done survives a crash. The
// line goes out in a single write; a kill during it leaves at most a
// truncated last line, which readers ignore. Cost O(len(units)) plus an
// fsync.
func (l *Ledger) Append(units []count.UnitResult, seconds float64) error {
	rec, err := NewRecord(l.n, units, seconds, l.Host, l.Shard)
	if err != nil {
		return err
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if _, err := l.f.Write(line); err != nil {
		return fmt.Errorf("ledger %s: %w", l.path, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("ledger %s: %w", l.path, err)
	}
	for _, u := range units {
		l.done[u.Index] = u
	}
	return nil
}

// Close releases the lock and closes the file.
func (l *Ledger) Close() error {
	if l.unlock != nil {
		l.unlock()
		l.unlock = nil
	}
	return l.f.Close()
}
