package count

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// checkpointFormat is the format tag a checkpoint file starts with.
const checkpointFormat = "nqueens-count-checkpoint/1"

// Checkpoint records the finished units of a count of N, so that a stopped
// run can resume and give exactly the count of an uninterrupted one.
//
// On disk it is one JSON object:
//
//	{"format":"nqueens-count-checkpoint/1","fingerprint":"…","n":16,
//	 "units":[{"index":0,"total":…,"rot180":…,"rot90":…,"nodes":…},…],
//	 "sha256":"…"}
//
// with the units sorted by index and sha256 the SHA-256 of the same object
// written by encoding/json without the sha256 field, so that any change to
// the content is detected.
type Checkpoint struct {
	Fingerprint string
	N           int
	Units       []UnitResult
}

type checkpointBody struct {
	Format      string       `json:"format"`
	Fingerprint string       `json:"fingerprint"`
	N           int          `json:"n"`
	Units       []UnitResult `json:"units"`
}

type checkpointFile struct {
	checkpointBody
	SHA256 string `json:"sha256"`
}

// NewCheckpoint returns an empty checkpoint for N.
func NewCheckpoint(n int) *Checkpoint {
	return &Checkpoint{Fingerprint: Fingerprint(n), N: n, Units: []UnitResult{}}
}

// Marshal encodes c with its checksum. Cost O(units).
func (c *Checkpoint) Marshal() ([]byte, error) {
	units := slices.Clone(c.Units)
	if units == nil {
		units = []UnitResult{}
	}
	slices.SortFunc(units, func(a, b UnitResult) int { return a.Index - b.Index })
	body := checkpointBody{checkpointFormat, c.Fingerprint, c.N, units}
	sum, err := bodySum(body)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(checkpointFile{body, sum})
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

func bodySum(body checkpointBody) (string, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), nil
}

// errCheckpointDamaged reports a checkpoint whose checksum does not match its
// content: it was truncated, edited or corrupted.
var errCheckpointDamaged = errors.New("checkpoint is damaged or was edited (checksum mismatch)")

// parseCheckpoint decodes and verifies a checkpoint: format tag, checksum,
// and unit indexes that are increasing and unique. It does not compare the
// fingerprint with this engine's; [Checkpoint.Check] does. Cost O(size).
func parseCheckpoint(data []byte) (*Checkpoint, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f checkpointFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("checkpoint is truncated or not valid JSON: %v", err)
	}
	if dec.More() {
		return nil, errors.New("checkpoint has extra data after its JSON object")
	}
	if f.Format != checkpointFormat {
		return nil, fmt.Errorf("not a count checkpoint (format %q, want %q)", f.Format, checkpointFormat)
	}
	if f.Units == nil {
		return nil, errors.New("checkpoint has no units list")
	}
	sum, err := bodySum(f.checkpointBody)
	if err != nil {
		return nil, err
	}
	if sum != f.SHA256 {
		return nil, errCheckpointDamaged
	}
	if f.N < 1 || f.N > MaxN {
		return nil, fmt.Errorf("checkpoint is for N = %d, outside 1..%d", f.N, MaxN)
	}
	for i, u := range f.Units {
		if u.Index < 0 || (i > 0 && u.Index <= f.Units[i-1].Index) {
			return nil, fmt.Errorf("checkpoint unit %d is out of order or repeated", u.Index)
		}
	}
	return &Checkpoint{Fingerprint: f.Fingerprint, N: f.N, Units: f.Units}, nil
}

// Check reports whether c can resume a count of N with this engine: same N,
// same fingerprint (unit scheme and engine version), units in range.
func (c *Checkpoint) Check(n int) error {
	if c.N != n {
		return fmt.Errorf("checkpoint is for N = %d, not N = %d", c.N, n)
	}
	if fp := Fingerprint(n); c.Fingerprint != fp {
		return fmt.Errorf("checkpoint was written by another engine or unit scheme (%q; this one is %q)", c.Fingerprint, fp)
	}
	t, err := NewTally(n)
	if err != nil {
		return err
	}
	for _, u := range c.Units {
		if err := t.Add(u); err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
	}
	return nil
}

// WriteCheckpoint saves c to path atomically: it writes a temporary file in
// the same folder, syncs it, and renames it over path, so that a crash
// leaves either the old or the new checkpoint, never a mix.
func WriteCheckpoint(path string, c *Checkpoint) error {
	data, err := c.Marshal()
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // make the rename durable; some systems refuse, harmlessly
		d.Close()
	}
	return nil
}

// ReadCheckpoint loads and verifies the checkpoint at path for a count of N
// (any N if n is 0).
func ReadCheckpoint(path string, n int) (*Checkpoint, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := parseCheckpoint(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if n == 0 {
		n = c.N
	}
	if err := c.Check(n); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// DefaultCheckpointEvery is the default time between checkpoint saves.
const DefaultCheckpointEvery = 5 * time.Second

// CheckpointFile is a checkpoint on disk that [Count] resumes from and
// keeps current (Options.Checkpoint). Its methods are not safe for
// concurrent use; Count calls them from one goroutine.
type CheckpointFile struct {
	path  string
	every time.Duration
	ck    Checkpoint
	dirty bool
	saved time.Time
}

// CreateCheckpoint starts a new checkpoint of a count of N at path, saved
// every every (0 means [DefaultCheckpointEvery]). It refuses to replace an
// existing file, and writes the empty checkpoint at once, so that a path
// that cannot be written is reported before any counting starts.
func CreateCheckpoint(path string, n int, every time.Duration) (*CheckpointFile, error) {
	if n < 1 || n > MaxN {
		return nil, errSize(n)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("checkpoint %s already exists: %w", path, ErrCheckpointExists)
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s cannot be written: %w", path, err)
	}
	f.Close()
	c := &CheckpointFile{path: path, every: every, ck: *NewCheckpoint(n), dirty: true}
	if err := c.save(true); err != nil {
		os.Remove(path)
		return nil, err
	}
	return c, nil
}

// ErrCheckpointExists is returned by [CreateCheckpoint] for a path that is
// taken: resume that checkpoint, or remove it.
var ErrCheckpointExists = errors.New("resume it, or remove it to start again")

// OpenCheckpoint opens the checkpoint at path to resume it, saved every
// every (0 means [DefaultCheckpointEvery]). N is the checkpoint's. The file
// is written back at once, so that a checkpoint that cannot be updated is
// reported before any counting starts.
func OpenCheckpoint(path string, every time.Duration) (*CheckpointFile, error) {
	ck, err := ReadCheckpoint(path, 0)
	if err != nil {
		return nil, err
	}
	c := &CheckpointFile{path: path, every: every, ck: *ck, dirty: true}
	if err := c.save(true); err != nil {
		return nil, err
	}
	return c, nil
}

// N returns the board size of the count.
func (c *CheckpointFile) N() int { return c.ck.N }

// Path returns the file's path.
func (c *CheckpointFile) Path() string { return c.path }

// Units returns the finished units recorded so far.
func (c *CheckpointFile) Units() []UnitResult { return slices.Clone(c.ck.Units) }

// Len returns the number of finished units recorded so far.
func (c *CheckpointFile) Len() int { return len(c.ck.Units) }

func (c *CheckpointFile) add(u UnitResult) {
	c.ck.Units = append(c.ck.Units, u)
	c.dirty = true
}

// save writes the checkpoint if it has changed and either force is set or
// the last save is older than the interval.
func (c *CheckpointFile) save(force bool) error {
	every := c.every
	if every <= 0 {
		every = DefaultCheckpointEvery
	}
	if !c.dirty || (!force && time.Since(c.saved) < every) {
		return nil
	}
	if err := WriteCheckpoint(c.path, &c.ck); err != nil {
		return fmt.Errorf("checkpoint %s not saved: %w", c.path, err)
	}
	c.dirty, c.saved = false, time.Now()
	return nil
}
