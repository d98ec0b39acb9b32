package count

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata")

func sampleCheckpoint(t *testing.T, n, k int) *Checkpoint {
	t.Helper()
	c := NewCheckpoint(n)
	for i := range k {
		u, err := CountUnit(context.Background(), n, i)
		if err != nil {
			t.Fatal(err)
		}
		c.Units = append(c.Units, u)
	}
	return c
}

func TestCheckpointRoundTrip(t *testing.T) {
	c := sampleCheckpoint(t, 8, 5)
	path := filepath.Join(t.TempDir(), "ck.json")
	if err := WriteCheckpoint(path, c); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCheckpoint(path, 8)
	if err != nil {
		t.Fatal(err)
	}
	if got.N != 8 || got.Fingerprint != c.Fingerprint || len(got.Units) != 5 || got.Units[4] != c.Units[4] {
		t.Errorf("round trip: %+v", got)
	}
	// golden copy, also the seed of the fuzz target
	golden := filepath.Join("testdata", "checkpoint", "n8-5units.json")
	data, _ := os.ReadFile(path)
	if *update {
		os.WriteFile(golden, data, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(data, want) {
		t.Errorf("checkpoint bytes differ from %s (run go test -update if the change is intended)", golden)
	}
}

func TestCheckpointRefusals(t *testing.T) {
	c := sampleCheckpoint(t, 8, 5)
	good, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	other := *c
	other.Fingerprint = strings.Replace(c.Fingerprint, "engine="+EngineVersion, "engine=0", 1)
	otherData, _ := other.Marshal()
	tests := []struct {
		name string
		data []byte
		n    int
		want string
	}{
		{"truncated", good[:len(good)/2], 8, "truncated"},
		{"empty", nil, 8, "truncated"},
		{"edited count", bytes.Replace(good, []byte(`"total":`), []byte(`"total":1`), 1), 8, "checksum"},
		{"other N", good, 9, "N = 8, not N = 9"},
		{"other engine", otherData, 8, "another engine"},
		{"not a checkpoint", []byte(`{"format":"x","fingerprint":"","n":8,"units":[],"sha256":""}`), 8, "not a count checkpoint"},
		{"trailing garbage", append(append([]byte{}, good...), []byte("{}")...), 8, "extra data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ck.json")
			os.WriteFile(path, tt.data, 0o644)
			_, err := ReadCheckpoint(path, tt.n)
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
	d, _ := c.Marshal()
	if _, err := ParseCheckpoint(bytes.Replace(d, []byte(`"sha256":"`), []byte(`"sha256":"0`), 1)); !errors.Is(err, ErrCheckpointDamaged) {
		t.Errorf("bad checksum: %v", err)
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
		c, err := ParseCheckpoint(data)
		if err != nil {
			return
		}
		// Whatever parses must re-encode to a checkpoint that parses the same.
		again, err := c.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		c2, err := ParseCheckpoint(again)
		if err != nil || c2.N != c.N || len(c2.Units) != len(c.Units) {
			t.Fatalf("re-encoded checkpoint: %v", err)
		}
	})
}
