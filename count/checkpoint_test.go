package count

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nqueens/nqueens/internal/faults"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/seal"
)

// testKey seals the checkpoints of the tests; it is fixed, so that the
// golden checkpoint does not change from run to run.
var testKey, _ = seal.FromSecret(bytes.Repeat([]byte{0x5e}, 32))

func sampleCheckpoint(t *testing.T, n, k int) *Checkpoint {
	t.Helper()
	c := NewCheckpoint(n)
	c.Units = testkit.AllUnits(t, n, Units, CountUnit)[:k]
	return c
}

func TestCheckpointRoundTrip(t *testing.T) {
	c := sampleCheckpoint(t, 8, 5)
	path := filepath.Join(t.TempDir(), "ck.json")
	if err := WriteCheckpoint(path, c, testKey); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCheckpoint(context.Background(), path, 8, testKey)
	if err != nil {
		t.Fatal(err)
	}
	if got.N != 8 || got.Fingerprint != c.Fingerprint || len(got.Units) != 5 || got.Units[4] != c.Units[4] {
		t.Errorf("round trip: %+v", got)
	}
	// golden copy, also the seed of the fuzz target
	data, _ := os.ReadFile(path)
	testkit.Golden(t, "testdata/checkpoint/n8-5units.json", data)
}

func TestCheckpointRefusals(t *testing.T) {
	c := sampleCheckpoint(t, 8, 5)
	good, err := c.Marshal(testKey)
	if err != nil {
		t.Fatal(err)
	}
	other := *c
	other.Fingerprint = strings.Replace(c.Fingerprint, "engine="+EngineVersion, "engine=0", 1)
	otherData, _ := other.Marshal(testKey)
	v3 := *c
	v3.Fingerprint = strings.Replace(c.Fingerprint, "engine="+EngineVersion, "engine=3", 1)
	v3Data, _ := v3.Marshal(testKey)
	tests := []struct {
		name string
		data []byte
		n    int
		want string
	}{
		{"truncated", good[:len(good)/2], 8, "ck.json:1: checkpoint refused: it is cut short"},
		{"empty", nil, 8, "cut short"},
		{"edited count", bytes.Replace(good, []byte(`"total":`), []byte(`"total":1`), 1), 8, "ck.json:1: checkpoint refused: its content does not match its seal"},
		{"format 1 (a public checksum)", []byte(`{"format":"nqueens-count-checkpoint/1","fingerprint":"","n":8,"units":[],"sha256":""}`), 8, "no keyed seal"},
		{"other N", good, 9, "N = 8, not N = 9"},
		{"other engine", otherData, 8, "another engine"},
		{"engine version 3", v3Data, 8, "another engine"},
		{"not a checkpoint", mustSeal(t, map[string]any{"format": "x", "fingerprint": "", "n": 8, "units": []int{}}), 8, "not a count checkpoint"},
		{"trailing garbage", append(append([]byte{}, good...), []byte("{}")...), 8, "cut short"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ck.json")
			os.WriteFile(path, tt.data, 0o644)
			_, err := ReadCheckpoint(context.Background(), path, tt.n, testKey)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
	// A unit index beyond the table passes the checksum but not Check.
	bad := *c
	bad.Units = append(append([]UnitResult{}, c.Units...), UnitResult{Index: Units(8)})
	if err := bad.Check(8); err == nil {
		t.Error("unit out of range accepted")
	}
	d, _ := c.Marshal(testKey)
	if _, err := parseCheckpoint(bytes.Replace(d, []byte(`"seal":"`), []byte(`"seal":"0`), 1), testKey); !errors.Is(err, seal.ErrBroken) {
		t.Errorf("bad seal: %v", err)
	}
}

func mustSeal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := testKey.Seal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCheckpointForgedPastTheTable forges checkpoints of N = 28, where no
// published count can catch a wrong total, as the attacker did:
// every unit present with a made-up total. Resealed under a key of the
// forger's own, or edited from a genuine checkpoint, each is refused
// naming the file and line, as for N = 14.
func TestCheckpointForgedPastTheTable(t *testing.T) {
	if testing.Short() {
		t.Skip("forges a checkpoint of N = 28 (about 65,500 units)")
	}
	forger, _ := seal.FromSecret(bytes.Repeat([]byte{0xf0}, 32))
	for _, n := range []int{14, 28} {
		c := NewCheckpoint(n)
		for i := range Units(n) {
			c.Units = append(c.Units, UnitResult{Index: i, Total: 8, Nodes: 1000})
		}
		data, err := c.Marshal(forger)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "forged.json")
		os.WriteFile(path, data, 0o600)
		_, err = OpenCheckpoint(context.Background(), path, 0, testKey)
		want := path + ":1: checkpoint refused: it was sealed under key " + forger.ID()
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("N = %d, resealed by another key: %v, want %q…", n, err, want)
		}
		// A genuine one-unit checkpoint, its total edited.
		real := NewCheckpoint(n)
		real.Units = []UnitResult{{Index: 0, Total: 8, Nodes: 1000}}
		data, _ = real.Marshal(testKey)
		os.WriteFile(path, bytes.Replace(data, []byte(`"total":8`), []byte(`"total":16`), 1), 0o600)
		_, err = OpenCheckpoint(context.Background(), path, 0, testKey)
		if want := path + ":1: checkpoint refused: its content does not match its seal"; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("N = %d, edited: %v, want %q…", n, err, want)
		}
	}
}

func FuzzParseCheckpoint(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "checkpoint", "*.json"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseCheckpoint(data, testKey)
		if err != nil {
			return
		}
		// Whatever parses must re-encode to a checkpoint that parses the same.
		again, err := c.Marshal(testKey)
		if err != nil {
			t.Fatal(err)
		}
		c2, err := parseCheckpoint(again, testKey)
		if err != nil || c2.N != c.N || len(c2.Units) != len(c.Units) {
			t.Fatalf("re-encoded checkpoint: %v", err)
		}
	})
}

// TestCheckpointForgedWithChecksum edits a unit and recomputes the
// checksum, as a careful forger would: the unit checks and the published
// table still refuse the result.
func TestCheckpointForgedWithChecksum(t *testing.T) {
	const n = 10
	all := sampleCheckpoint(t, n, Units(n))
	plain := -1
	for i, s := range units(n) {
		if w, _ := s.orbit(n); w == 8 {
			plain = i
			break
		}
	}
	for _, tc := range []struct {
		name string
		edit func(*UnitResult)
		want string
	}{
		{"rot90 where no quarter turn fixes", func(u *UnitResult) { u.Rot90 = 8 }, "does not fix"},
		{"total raised by 8", func(u *UnitResult) { u.Total += 8 }, "does not match the published count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := *all
			c.Units = append([]UnitResult(nil), all.Units...)
			tc.edit(&c.Units[plain])
			path := filepath.Join(t.TempDir(), "ck.json")
			if err := WriteCheckpoint(path, &c, testKey); err != nil {
				t.Fatal(err)
			}
			ck, err := OpenCheckpoint(context.Background(), path, 0, testKey)
			if err == nil {
				_, err = Count(context.Background(), n, Options{Checkpoint: ck})
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestCreateCheckpoint(t *testing.T) {
	dir := t.TempDir()
	if _, err := CreateCheckpoint(filepath.Join(dir, "missing", "ck.json"), 8, 0, testKey); err == nil || !strings.Contains(err.Error(), "cannot be written") {
		t.Errorf("path in a missing folder: %v", err)
	}
	path := filepath.Join(dir, "ck.json")
	c, err := CreateCheckpoint(path, 8, 0, testKey)
	if err != nil {
		t.Fatal(err)
	}
	// Written at once, before any count: an empty checkpoint of N = 8.
	if ck, err := ReadCheckpoint(context.Background(), path, 8, testKey); err != nil || len(ck.Units) != 0 || c.N() != 8 {
		t.Fatalf("fresh checkpoint: %+v, %v", ck, err)
	}
	if _, err := CreateCheckpoint(path, 8, 0, testKey); !errors.Is(err, ErrCheckpointExists) {
		t.Errorf("existing file: %v, want ErrCheckpointExists", err)
	}
}

// TestCountKeepsCheckpoint checks that Count saves while it runs (a kill
// loses at most one interval), that a save failure stops the count at once
// unless SaveFailed forgives it, and that the saved units resume exactly.
// The run is held at a unit (internal/faults) on a fake clock, so that
// neither the engine's speed nor the machine's load decides where it stops.
func TestCountKeepsCheckpoint(t *testing.T) {
	const n = 10
	held := Units(n) / 2
	dir := t.TempDir()
	path := filepath.Join(dir, "ck.json")
	synctest.Test(t, func(t *testing.T) {
		c, err := CreateCheckpoint(path, n, 1, testKey) // save at every hand-over
		if err != nil {
			t.Fatal(err)
		}
		hold := faults.HoldUnit(n, held)
		defer hold.Release()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error)
		go func() {
			_, err := Count(ctx, n, Options{Workers: 1, Checkpoint: c})
			done <- err
		}()
		<-hold.Reached()
		time.Sleep(2 * defaultHandEvery) // on the fake clock: a hand-over
		synctest.Wait()
		// Saved while the count still runs: the units before the held one.
		ck, err := ReadCheckpoint(context.Background(), path, n, testKey)
		if err != nil || len(ck.Units) != held {
			t.Fatalf("checkpoint of a running count: %d units, %v; want %d", len(ck.Units), err, held)
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled count: %v", err)
		}
	})
	ck, err := ReadCheckpoint(context.Background(), path, n, testKey)
	if err != nil || len(ck.Units) != held {
		t.Fatalf("checkpoint after cancel: %d units, %v; want %d", len(ck.Units), err, held)
	}
	c, err := OpenCheckpoint(context.Background(), path, 1, testKey)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Count(context.Background(), n, Options{Checkpoint: c})
	if err != nil || r.Total != U128(724) || r.Unique != U128(92) {
		t.Fatalf("resumed count: %+v, %v", r, err)
	}

	// The folder vanishes mid-run: the next save fails and stops the count.
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	c, err = CreateCheckpoint(filepath.Join(sub, "ck.json"), 12, 1, testKey)
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(sub)
	if _, err := Count(context.Background(), 12, Options{Workers: 1, Checkpoint: c}); err == nil || !strings.Contains(err.Error(), "not saved") {
		t.Fatalf("count with an unwritable checkpoint: %v", err)
	}
	// Forgiven, the count goes on to the exact result.
	failures := 0
	r, err = Count(context.Background(), 12, Options{Workers: 1, Checkpoint: c, SaveFailed: func(error) error { failures++; return nil }})
	if err != nil || r.Total != U128(14200) || failures == 0 {
		t.Fatalf("count forgiving save failures: %+v, %v, %d failures", r, err, failures)
	}
}
