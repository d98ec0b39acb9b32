package count

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/bounded"
	"github.com/nqueens/nqueens/seal"
)

// checkpointFormat is the format tag a checkpoint file starts with. Format 1
// carried a public SHA-256; format 2 a keyed seal.
const checkpointFormat = "nqueens-count-checkpoint/2"

// Checkpoint records the finished units of a count of N, so that a stopped
// run can resume and give exactly the count of an uninterrupted one.
//
// On disk it is one JSON object sealed by package seal:
//
//	{"format":"nqueens-count-checkpoint/2","fingerprint":"…","n":16,
//	 "units":[{"index":0,"total":…,"rot180":…,"rot90":…,"nodes":…},…],
//	 "seal":"…"}
//
// with the units sorted by index and seal the key's ID and the
// HMAC-SHA-256 of the object without it, so that no one without the key
// can change the content or make a checkpoint, for any N.
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

// NewCheckpoint returns an empty checkpoint for N.
func NewCheckpoint(n int) *Checkpoint {
	return &Checkpoint{Fingerprint: Fingerprint(n), N: n, Units: []UnitResult{}}
}

// Marshal encodes c sealed under key. Cost O(units).
func (c *Checkpoint) Marshal(key *seal.Key) ([]byte, error) {
	units := slices.Clone(c.Units)
	if units == nil {
		units = []UnitResult{}
	}
	slices.SortFunc(units, func(a, b UnitResult) int { return a.Index - b.Index })
	out, err := key.Seal(checkpointBody{checkpointFormat, c.Fingerprint, c.N, units})
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// parseCheckpoint decodes a checkpoint and verifies its seal under key,
// its format tag, and unit indexes that are increasing and unique. It does
// not compare the fingerprint with this engine's; [Checkpoint.Check] does.
// Cost O(size).
func parseCheckpoint(data []byte, key *seal.Key) (*Checkpoint, error) {
	var f checkpointBody
	if err := key.Open(data, &f); err != nil {
		return nil, i18n.Wrap(err, "count.checkpoint.refused", nil)
	}
	if f.Format != checkpointFormat {
		return nil, i18n.NewError("count.checkpoint.format", i18n.Args{"Format": strconv.Quote(f.Format), "Want": strconv.Quote(checkpointFormat)})
	}
	if f.Units == nil {
		return nil, i18n.NewError("count.checkpoint.nounits", nil)
	}
	if f.N < 1 || f.N > MaxN {
		return nil, i18n.NewError("count.checkpoint.range", i18n.Args{"N": f.N, "Max": MaxN})
	}
	for i, u := range f.Units {
		if u.Index < 0 || (i > 0 && u.Index <= f.Units[i-1].Index) {
			return nil, i18n.NewError("count.checkpoint.order", i18n.Args{"Unit": strconv.Itoa(u.Index)})
		}
	}
	return &Checkpoint{Fingerprint: f.Fingerprint, N: f.N, Units: f.Units}, nil
}

// Check reports whether c can resume a count of N with this engine: same N,
// same fingerprint (unit scheme and engine version), units in range.
func (c *Checkpoint) Check(n int) error {
	if c.N != n {
		return i18n.NewError("count.checkpoint.othern", i18n.Args{"Held": c.N, "N": n})
	}
	if fp := Fingerprint(n); c.Fingerprint != fp {
		return i18n.NewError("count.checkpoint.engine", i18n.Args{"Held": strconv.Quote(c.Fingerprint), "Want": strconv.Quote(fp)})
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

// WriteCheckpoint saves c sealed under key to path atomically, with mode
// 0600: it writes a temporary file in the same folder, syncs it, and
// renames it over path, so that a crash leaves either the old or the new
// checkpoint, never a mix.
func WriteCheckpoint(path string, c *Checkpoint, key *seal.Key) error {
	data, err := c.Marshal(key)
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

// maxCheckpointBytes bounds a checkpoint file: every unit of N = MaxN
// (1,677,782) at about 130 bytes a unit result at most is 220 MB.
const maxCheckpointBytes = 256 << 20

// ReadCheckpoint loads the checkpoint at path for a count of N (any N if n
// is 0) and verifies it: sealed under key, and fit to resume ([Checkpoint.Check]).
// An error names the file and its line (a checkpoint is one line). A file
// over 256 MiB is refused, and the read stops with ctx's error when ctx
// ends.
func ReadCheckpoint(ctx context.Context, path string, n int, key *seal.Key) (*Checkpoint, error) {
	// A checkpoint is written whole by renaming a file over it: anything
	// but a file (a device, a FIFO) is not one.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, i18n.NewError("count.checkpoint.notfile", i18n.Args{"Path": path})
	}
	data, err := bounded.ReadFile(ctx, path, "error.toolarge.checkpoint", maxCheckpointBytes)
	if err != nil {
		return nil, err
	}
	c, err := parseCheckpoint(data, key)
	if err != nil {
		return nil, i18n.Wrap(err, "count.checkpoint.at", i18n.Args{"Path": path})
	}
	if n == 0 {
		n = c.N
	}
	if err := c.Check(n); err != nil {
		return nil, i18n.Wrap(err, "count.checkpoint.at", i18n.Args{"Path": path})
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
	key   *seal.Key
	every time.Duration
	ck    Checkpoint
	dirty bool
	saved time.Time
}

// CreateCheckpoint starts a new checkpoint of a count of N at path, sealed
// under key and saved every every (0 means [DefaultCheckpointEvery]). It
// refuses to replace an existing file, and writes the empty checkpoint at
// once, so that a path that cannot be written is reported before any
// counting starts.
func CreateCheckpoint(path string, n int, every time.Duration, key *seal.Key) (*CheckpointFile, error) {
	if n < 1 || n > MaxN {
		return nil, errSize(n)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("checkpoint %s already exists: %w", path, ErrCheckpointExists)
	}
	if err != nil {
		return nil, i18n.Wrap(err, "count.checkpoint.unwritable", i18n.Args{"Path": path})
	}
	f.Close()
	c := &CheckpointFile{path: path, key: key, every: every, ck: *NewCheckpoint(n), dirty: true}
	if err := c.save(true); err != nil {
		os.Remove(path)
		return nil, err
	}
	return c, nil
}

// ErrCheckpointExists is returned by [CreateCheckpoint] for a path that is
// taken: resume that checkpoint, or remove it.
var ErrCheckpointExists = errors.New("resume it, or remove it to start again")

// OpenCheckpoint opens the checkpoint at path, which must be sealed under
// key, to resume it, saved every every (0 means [DefaultCheckpointEvery]).
// N is the checkpoint's. The file is written back at once, so that a
// checkpoint that cannot be updated is reported before any counting starts.
// ctx bounds the read as in [ReadCheckpoint].
func OpenCheckpoint(ctx context.Context, path string, every time.Duration, key *seal.Key) (*CheckpointFile, error) {
	ck, err := ReadCheckpoint(ctx, path, 0, key)
	if err != nil {
		return nil, err
	}
	c := &CheckpointFile{path: path, key: key, every: every, ck: *ck, dirty: true}
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
	if err := WriteCheckpoint(c.path, &c.ck, c.key); err != nil {
		return i18n.Wrap(err, "count.checkpoint.notsaved", i18n.Args{"Path": c.path})
	}
	c.dirty, c.saved = false, time.Now()
	return nil
}
