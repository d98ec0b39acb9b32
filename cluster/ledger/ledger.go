package ledger

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/bounded"
	"github.com/nqueens/nqueens/internal/flock"
	"github.com/nqueens/nqueens/seal"
)

// File is a ledger as read from disk.
type File struct {
	Path        string
	N           int    // 0 when the file holds no record
	Fingerprint string // "" when the file holds no record
	// Truncated is the line number of a last line cut short while it was
	// written (by a kill, a crash or a full disk; it is ignored), or 0.
	// Complete is the byte length of the file up to it.
	Truncated int
	Complete  int64

	records []record
	lines   []int // line number of each record
}

// Records returns the number of records (lines) read.
func (lf *File) Records() int { return len(lf.records) }

// Units returns the number of unit results read, repeats included.
func (lf *File) Units() int {
	k := 0
	for _, r := range lf.records {
		k += len(r.Units)
	}
	return k
}

// Limits of what a ledger may hold: a line is one record of at most
// maxRecordUnits results (about 130 bytes each at most, 4096 of them about
// 540 kB), and a file every unit of N = 64 about four times over.
const (
	maxLineBytes   = 1 << 20
	maxLedgerBytes = 1 << 30
)

// parse reads a ledger from r, its lines sealed under key; name is used
// in messages. It stops with ctx's error when ctx ends, and refuses a line
// over 1 MiB or a file over 1 GiB (/dev/zero was read until memory ran
// out). A malformed line is an error naming it, except a last line without
// a final newline that is cut short, which a kill, a crash or a full disk
// mid-write leaves behind: it is ignored and reported in Truncated. Cost
// O(size of the ledger).
func parse(ctx context.Context, r io.Reader, name string, key *seal.Key) (*File, error) {
	br := bufio.NewReaderSize(bounded.NewReader(ctx, r, name, "error.toolarge.ledger", maxLedgerBytes), 64<<10)
	lf := &File{Path: name}
	var off int64
	var line []byte
	for lineNo := 1; ; lineNo++ {
		var err error
		line, err = readLine(br, line[:0])
		if err != nil && err != io.EOF {
			return nil, i18n.Wrap(err, "ledger.at", i18n.Args{"Path": name, "Line": strconv.Itoa(lineNo)})
		}
		if len(line) == 0 && err == io.EOF {
			break
		}
		start := off
		off += int64(len(line))
		line, newline := bytes.CutSuffix(line, []byte("\n"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		rec, perr := parseRecord(line, key)
		if perr != nil {
			if !newline && errors.Is(perr, seal.ErrMalformed) {
				lf.Truncated, lf.Complete = lineNo, start
				return lf, nil
			}
			return nil, i18n.NewError("ledger.at", i18n.Args{"Path": name, "Line": strconv.Itoa(lineNo), "Err": perr})
		}
		if lf.Fingerprint == "" {
			lf.N, lf.Fingerprint = rec.N, rec.Fingerprint
		} else if rec.Fingerprint != lf.Fingerprint {
			return nil, i18n.NewError("ledger.fingerprint.first", i18n.Args{"Path": name, "Line": strconv.Itoa(lineNo), "Held": strconv.Quote(rec.Fingerprint), "First": strconv.Quote(lf.Fingerprint)})
		}
		lf.records = append(lf.records, rec)
		lf.lines = append(lf.lines, lineNo)
		if err == io.EOF {
			break
		}
	}
	lf.Complete = off
	return lf, nil
}

// readLine appends the next line of br to buf, with its newline if it has
// one, refusing a line over maxLineBytes.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxLineBytes {
			return buf, i18n.NewError("ledger.longline", i18n.Args{"Limit": bounded.Bytes(maxLineBytes), "Units": strconv.Itoa(maxRecordUnits)})
		}
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

// ReadFile reads the ledger at path, whose lines must be sealed under key.
// A malformed line is an error naming the file and line, except a last line
// without a final newline that is not valid JSON, which a kill, a crash or
// a full disk mid-write leaves behind: it is ignored and reported in
// Truncated. It stops with ctx's error when ctx ends (even while a FIFO
// waits for its writer) and refuses a file over 1 GiB. Cost O(size of the
// ledger).
func ReadFile(ctx context.Context, path string, key *seal.Key) (*File, error) {
	f, err := bounded.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parse(ctx, f, path, key)
}

// Ledger is a ledger file open for appending by one process.
type Ledger struct {
	// Worker and Shard are written into every record.
	Worker, Shard string

	path   string
	key    *seal.Key
	n      int
	f      *os.File
	unlock func()
	done   map[int]count.UnitResult
	// Repaired is the line number of a truncated last line that
	// Open cut off, or 0.
	Repaired int
}

// Open opens or creates the ledger at path for a run of N, its lines
// sealed under key, and takes an exclusive lock on it (where the system
// supports it), so that two processes never append to one file. The
// results already there must have N's fingerprint and key; a last line cut
// short while it was written is cut off.
// Cost O(size of the ledger).
func Open(ctx context.Context, path string, n int, key *seal.Key) (*Ledger, error) {
	if err := board.CheckSize(n, "a ledger", count.MaxN); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, i18n.NewError("ledger.notfile", i18n.Args{"Path": path})
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	unlock, err := flock.Lock(f)
	if err != nil {
		f.Close()
		return nil, i18n.Wrap(err, "ledger.inuse", i18n.Args{"Path": path})
	}
	l := &Ledger{path: path, key: key, n: n, f: f, unlock: unlock, done: map[int]count.UnitResult{}}
	fail := func(err error) (*Ledger, error) { l.Close(); return nil, err }
	lf, err := parse(ctx, f, path, key)
	if err != nil {
		return fail(err)
	}
	if lf.Fingerprint != "" && lf.N != n {
		return fail(i18n.NewError("ledger.holds", i18n.Args{"Path": path, "Held": strconv.Itoa(lf.N), "N": strconv.Itoa(n)}))
	}
	for _, rec := range lf.records {
		for _, u := range rec.Units {
			if prev, ok := l.done[u.Index]; ok && prev != u {
				return fail(i18n.NewError("ledger.twice", i18n.Args{"Path": path, "Unit": strconv.Itoa(u.Index)}))
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
				return fail(i18n.Wrap(err, "ledger.file", i18n.Args{"Path": path}))
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
	rec, err := newRecord(l.n, units, seconds, l.Worker, l.Shard)
	if err != nil {
		return err
	}
	line, err := rec.line(l.key)
	if err != nil {
		return err
	}
	if len(line) >= maxLineBytes {
		return fmt.Errorf("ledger %s: a record of %d units would be a line of %d bytes, more than readers take (%s); append at most %d at once", l.path, len(units), len(line), bounded.Bytes(maxLineBytes), maxRecordUnits)
	}
	line = append(line, '\n')
	if _, err := l.f.Write(line); err != nil {
		return i18n.Wrap(err, "ledger.file", i18n.Args{"Path": l.path})
	}
	if err := l.f.Sync(); err != nil {
		return i18n.Wrap(err, "ledger.file", i18n.Args{"Path": l.path})
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
