package ledger

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/faults"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/seal"
)

// recordLine returns the ledger line of a record of N holding units.
func recordLine(t testing.TB, n int, units []count.UnitResult, shard string) string {
	t.Helper()
	rec, err := newRecord(n, units, 0.25, "test-worker", shard)
	if err != nil {
		t.Fatal(err)
	}
	b, err := rec.line(testKey)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// testKey seals the ledgers of the tests; forgerKey is a key of someone
// else, who can seal lines but not under testKey.
var (
	testKey, _   = seal.FromSecret(bytes.Repeat([]byte{0x1e}, 32))
	forgerKey, _ = seal.FromSecret(bytes.Repeat([]byte{0xf0}, 32))
)

// editLine changes a ledger line through f; with reseal it seals the
// edited line again under key (a holder of the key, so that the checks
// behind the seal are reached, or a forger with a key of its own).
func editLine(t testing.TB, line string, reseal *seal.Key, f func(m map[string]any)) string {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	f(m)
	if reseal != nil {
		delete(m, "seal")
		b, _ := json.Marshal(m)
		var r record
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		// The seal covers the record as the encoder writes it, in the
		// struct's field order; fields the struct lacks are kept.
		if extra, ok := m["extra"]; ok {
			b, err := reseal.Seal(struct {
				record
				Extra any `json:"extra"`
			}{r, extra})
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		b, err := reseal.Seal(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// unit returns the fields of unit i of a line's decoded form.
func unit(m map[string]any, i int) map[string]any {
	return m["units"].([]any)[i].(map[string]any)
}

func TestParseRecord(t *testing.T) {
	all := testkit.AllUnits(t, 8, count.Units, count.CountUnit)
	good := recordLine(t, 8, all[3:6], "0/1")
	// The unit of N = 8 placed first in good whose constellation no
	// rotation fixes: its rot90 must stay 0.
	tests := []struct {
		name, line, wantErr string
	}{
		{"valid", good, ""},
		{"valid with spaces around", "  " + good + " \r", ""},
		{"not JSON", "hello", "not a ledger record"},
		{"empty object", "{}", "no keyed seal"},
		{"text after", good + " {}", "cut short, or not JSON"},
		{"bracket after", good + "]", "cut short, or not JSON"},
		{"unknown field", editLine(t, good, testKey, func(m map[string]any) { m["extra"] = 1 }), "unknown field"},
		{"no seal", editLine(t, good, nil, func(m map[string]any) { delete(m, "seal") }), "no keyed seal"},
		{"an old line with a public checksum", editLine(t, good, nil, func(m map[string]any) { delete(m, "seal"); m["sha256"] = "00" }), "no keyed seal"},
		// Accidents and edits without the key are caught by the seal.
		{"a flipped rot90", editLine(t, good, nil, func(m map[string]any) { unit(m, 0)["rot90"] = 8 }), "ledger line refused: its content does not match its seal"},
		{"a raised total and subtotal", editLine(t, good, nil, func(m map[string]any) {
			unit(m, 0)["total"] = json.Number("8")
			m["subtotal"] = json.Number("16")
		}), "does not match its seal"},
		{"a changed worker", editLine(t, good, nil, func(m map[string]any) { m["worker"] = "x" }), "does not match its seal"},
		// A forger's own seal is refused, for any edit.
		{"resealed by a forger", editLine(t, good, forgerKey, func(m map[string]any) { unit(m, 0)["total"] = json.Number("8") }),
			"ledger line refused: it was sealed under key " + forgerKey.ID() + ", not under the key " + testKey.ID()},
		// A holder of the key who forges reaches the checks behind the seal.
		{"N too large", editLine(t, good, testKey, func(m map[string]any) { m["n"] = 65 }), "out of range"},
		{"other engine", editLine(t, good, testKey, func(m map[string]any) {
			m["fingerprint"] = strings.Replace(m["fingerprint"].(string), "engine="+count.EngineVersion, "engine=old", 1)
		}), "not this engine's"},
		{"other N's fingerprint", editLine(t, good, testKey, func(m map[string]any) { m["n"] = 9 }), "not this engine's"},
		{"damaged table hash", editLine(t, good, testKey, func(m map[string]any) { m["fingerprint"] = m["fingerprint"].(string) + "0" }), "not this engine's"},
		{"unit out of range", editLine(t, good, testKey, func(m map[string]any) { unit(m, 0)["index"] = 78 }), "unit 78 is outside 0..77"},
		{"range does not match", editLine(t, good, testKey, func(m map[string]any) { m["first"] = 2 }), "unit range 2-5"},
		{"subtotal does not match", editLine(t, good, testKey, func(m map[string]any) { m["subtotal"] = 1 }), "subtotal 1"},
		{"nodes do not match", editLine(t, good, testKey, func(m map[string]any) { m["nodes"] = 0 }), "nodes 0"},
		{"no units", editLine(t, good, testKey, func(m map[string]any) { m["units"] = []any{} }), "no units"},
		{"negative total", editLine(t, good, nil, func(m map[string]any) { unit(m, 0)["total"] = -8 }), "does not match its seal"},
		{"rot90 where no quarter turn fixes", editLine(t, good, testKey, func(m map[string]any) { unit(m, 0)["rot90"] = 8 }), "cannot be right"},
		{"total off the orbit size", editLine(t, good, testKey, func(m map[string]any) {
			unit(m, 2)["total"] = json.Number("4")
			m["subtotal"] = json.Number(fmt.Sprint(all[3].Total + all[4].Total + 4))
		}), "cannot be right"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := parseRecord([]byte(tt.line), testKey)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if rec.N != 8 || rec.First != 3 || rec.Last != 5 || !reflect.DeepEqual(rec.Units, all[3:6]) {
					t.Errorf("parsed %+v", rec)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// FuzzParseRecord checks that no line makes the parser panic, and that a
// line it accepts is consistent and survives a round trip.
func FuzzParseRecord(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for line := range bytes.Lines(data) {
			f.Add(line)
			f.Add(line[:len(line)/2])
		}
	}
	// Lines of this engine, so that the seeds reach past the fingerprint
	// check whatever the engine version of the files above.
	all := testkit.AllUnits(f, 8, count.Units, count.CountUnit)
	for _, units := range [][]count.UnitResult{all[:1], all[3:9], all} {
		line := recordLine(f, 8, units, "1/3")
		f.Add([]byte(line))
		f.Add([]byte(line[:len(line)-7]))
	}
	f.Add([]byte(`{"n":8,"units":[]}`))
	f.Add([]byte(`{"fingerprint":"nqueens-count engine=` + count.EngineVersion + ` n=9 x","n":9}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		// A line that names a large N with this engine's fingerprint
		// prefix makes the parser build N's unit table (seconds and
		// tens of MB each near MaxN); the fuzzer would spend its time
		// there and hit its deadlines, so those lines are left to the
		// table tests.
		var head struct{ N int }
		if json.Unmarshal(line, &head) == nil && head.N > 20 {
			t.Skip()
		}
		rec, err := parseRecord(line, testKey)
		if err != nil {
			return
		}
		if err := rec.sums(false); err != nil {
			t.Fatalf("accepted an inconsistent record: %v", err)
		}
		b, err := rec.line(testKey)
		if err != nil {
			t.Fatal(err)
		}
		again, err := parseRecord(b, testKey)
		if err != nil {
			t.Fatalf("own output %s refused: %v", b, err)
		}
		if !reflect.DeepEqual(rec, again) {
			t.Fatalf("round trip changed %+v into %+v", rec, again)
		}
	})
}

func TestReadLedger(t *testing.T) {
	all := testkit.AllUnits(t, 8, count.Units, count.CountUnit)
	a := recordLine(t, 8, all[:10], "")
	b := recordLine(t, 8, all[10:20], "")
	other := recordLine(t, 9, testkit.AllUnits(t, 9, count.Units, count.CountUnit)[:2], "")
	tests := []struct {
		name      string
		text      string
		records   int
		truncated int
		wantErr   string
	}{
		{"empty", "", 0, 0, ""},
		{"two lines", a + "\n" + b + "\n", 2, 0, ""},
		{"blank lines", "\n" + a + "\n\n" + b + "\n", 2, 0, ""},
		{"last line without newline", a + "\n" + b, 2, 0, ""},
		{"last line cut short", a + "\n" + b[:40], 1, 2, ""},
		{"middle line cut short", a[:40] + "\n" + b + "\n", 0, 0, "x.jsonl:1: not a ledger record: it is cut short"},
		{"two runs", a + "\n" + other + "\n", 0, 0, "x.jsonl:2: fingerprint"},
		{"a damaged last line is not a cut one", a + "\n" + editLine(t, b, nil, func(m map[string]any) { m["seconds"] = 9 }), 0, 0, "x.jsonl:2: ledger line refused: its content does not match its seal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lf, err := parse(context.Background(), strings.NewReader(tt.text), "x.jsonl", testKey)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if lf.Records() != tt.records || lf.Truncated != tt.truncated {
				t.Errorf("%d records, truncated line %d; want %d, %d", lf.Records(), lf.Truncated, tt.records, tt.truncated)
			}
			if tt.truncated > 0 && lf.Complete != int64(len(a)+1) {
				t.Errorf("complete part is %d bytes, want %d", lf.Complete, len(a)+1)
			}
		})
	}
}

func TestOpenLedgerRepairs(t *testing.T) {
	all := testkit.AllUnits(t, 8, count.Units, count.CountUnit)
	a := recordLine(t, 8, all[:10], "")
	b := recordLine(t, 8, all[10:20], "")
	tests := []struct {
		name     string
		text     string
		has      int // units found
		repaired int
	}{
		{"cut short", a + "\n" + b[:30], 10, 2},
		{"no final newline", a + "\n" + b, 20, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "l.jsonl")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			l, err := Open(context.Background(), path, 8, testKey)
			if err != nil {
				t.Fatal(err)
			}
			if l.Len() != tt.has || l.Repaired != tt.repaired {
				t.Errorf("%d units, repaired line %d; want %d, %d", l.Len(), l.Repaired, tt.has, tt.repaired)
			}
			if err := l.Append(all[30:32], 1); err != nil {
				t.Fatal(err)
			}
			l.Close()
			lf, err := ReadFile(context.Background(), path, testKey)
			if err != nil {
				t.Fatal(err)
			}
			if lf.Truncated != 0 || lf.Records() != tt.has/10+1 {
				t.Errorf("after append: %d records, truncated %d", lf.Records(), lf.Truncated)
			}
		})
	}
}

func TestOpenLedgerRefuses(t *testing.T) {
	all := testkit.AllUnits(t, 8, count.Units, count.CountUnit)
	changed := append([]count.UnitResult(nil), all[:2]...)
	changed[1].Total += 8
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	conflict := write("conflict.jsonl", recordLine(t, 8, all[:2], "")+"\n"+recordLine(t, 8, changed, "")+"\n")
	if _, err := Open(context.Background(), conflict, 8, testKey); err == nil || !strings.Contains(err.Error(), "two different results for unit 1") {
		t.Errorf("conflicting ledger: %v", err)
	}
	n8 := write("n8.jsonl", recordLine(t, 8, all[:2], "")+"\n")
	if _, err := Open(context.Background(), n8, 9, testKey); err == nil || !strings.Contains(err.Error(), "N = 8, not 9") {
		t.Errorf("ledger of another N: %v", err)
	}
	l, err := Open(context.Background(), n8, 8, testKey)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := Open(context.Background(), n8, 8, testKey); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second writer on one ledger: %v", err)
	}
}

// TestRunShardResume counts the shards of N = 10 into ledgers, the second
// run of a shard finding everything done, and checks the merge against
// the reference table.
func TestRunShardResume(t *testing.T) {
	const n, k = 10, 3
	dir := t.TempDir()
	var files []*File
	for i := range k {
		path := filepath.Join(dir, fmt.Sprintf("shard%d.jsonl", i))
		for run := range 2 {
			l, err := Open(context.Background(), path, n, testKey)
			if err != nil {
				t.Fatal(err)
			}
			p, err := RunShard(context.Background(), n, Shard{i, k}, l, ShardOptions{Workers: 2})
			l.Close()
			if err != nil {
				t.Fatal(err)
			}
			wantResumed := 0
			if run == 1 {
				wantResumed = p.Units
			}
			if p.Resumed != wantResumed || p.Done != p.Units || p.Units != (Shard{i, k}).Size(n) {
				t.Errorf("shard %d/%d run %d: %+v", i, k, run, p)
			}
		}
		lf, err := ReadFile(context.Background(), path, testKey)
		if err != nil {
			t.Fatal(err)
		}
		if lf.Records() != 1 {
			t.Errorf("shard %d: %d records, want 1 (the rerun must add none)", i, lf.Records())
		}
		files = append(files, lf)
	}
	rep, err := Merge(files)
	if err != nil {
		t.Fatal(err)
	}
	if err := reference.Check(n, rep.Result.Total.String(), rep.Result.Unique.String()); err != nil {
		t.Error(err)
	}
}

func TestRunShardCancel(t *testing.T) {
	l, err := Open(context.Background(), filepath.Join(t.TempDir(), "l.jsonl"), 12, testKey)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = RunShard(ctx, 12, Shard{0, 2}, l, ShardOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// TestRunShardProgress: the units counted are reported at every hand-over,
// before the save that writes them (a bar that moved only at saves, every
// 2 s, looked stuck). A held unit keeps the run going while the test
// looks.
func TestRunShardProgress(t *testing.T) {
	l, err := Open(context.Background(), filepath.Join(t.TempDir(), "l.jsonl"), 12, testKey)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	h := faults.HoldUnit(12, 100)
	defer h.Release()
	seen := make(chan ShardProgress, 1000)
	type result struct {
		p   ShardProgress
		err error
	}
	done := make(chan result, 1)
	go func() {
		p, err := RunShard(context.Background(), 12, Shard{0, 1}, l, ShardOptions{Workers: 1, SaveEvery: time.Hour,
			Progress: func(p ShardProgress) {
				select {
				case seen <- p:
				default:
				}
			}})
		done <- result{p, err}
	}()
	testkit.Receive(t, "the held unit", h.Reached())
	for p := testkit.Receive(t, "a report", seen); p.Waiting == 0; p = testkit.Receive(t, "a report", seen) {
	}
	h.Release()
	r := testkit.Receive(t, "the end of the shard", done)
	if r.err != nil || r.p.Done != r.p.Units || r.p.Waiting != 0 {
		t.Errorf("%+v, %v", r.p, r.err)
	}
}

// endless is a reader that never ends: the same line again and again.
type endless struct{ line []byte }

func (e endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], e.line)
	}
	return n, nil
}

// TestReadLimits: a ledger is read within its limits, which the error
// states, and stops when its context ends: merge /dev/zero grew to 24 GB
// and ignored SIGTERM.
func TestReadLimits(t *testing.T) {
	ctx := context.Background()
	if _, err := ReadFile(ctx, "/dev/zero", testKey); err == nil || !strings.Contains(err.Error(), "/dev/zero:1: a line longer than 1 MiB, the most a ledger line can be") {
		t.Errorf("ReadFile(/dev/zero) = %v", err)
	}
	stopped, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := parse(stopped, endless{[]byte("\n")}, "endless", testKey); !errors.Is(err, context.Canceled) {
		t.Errorf("parse of an endless stream after its context ended: %v, want context.Canceled", err)
	}
	if _, err := Open(ctx, "/dev/zero", 8, testKey); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Open(/dev/zero) = %v", err)
	}
	if testing.Short() {
		return // reads 1 GiB
	}
	blank := append(bytes.Repeat([]byte(" "), 1023), '\n')
	if _, err := parse(ctx, endless{blank}, "blank", testKey); err == nil || !strings.Contains(err.Error(), "blank is larger than 1 GiB, the most a ledger can be") {
		t.Errorf("parse of an endless stream of blank lines: %v", err)
	}
}

// FuzzParse: a ledger file of any bytes, read through a tiny buffer of
// lines, never makes the reader panic; what it accepts is the lines it
// has up to its complete length, and a truncated last line lies past it.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Add([]byte("\n\n  \n"))
	f.Add([]byte("{\"n\":"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for line := range bytes.Lines(data) {
			// Large N build their unit tables for seconds (see FuzzParseRecord).
			var head struct{ N int }
			if json.Unmarshal(line, &head) == nil && head.N > 20 {
				t.Skip()
			}
		}
		lf, err := parse(context.Background(), bytes.NewReader(data), "f.jsonl", testKey)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.jsonl:") {
				t.Fatalf("error without file and line: %v", err)
			}
			return
		}
		if lf.Complete > int64(len(data)) || (lf.Truncated > 0) != (lf.Complete < int64(len(data))) && len(bytes.TrimSpace(data[lf.Complete:])) > 0 {
			t.Fatalf("complete %d of %d bytes, truncated line %d", lf.Complete, len(data), lf.Truncated)
		}
		if len(lf.records) != len(lf.lines) {
			t.Fatalf("%d records, %d line numbers", len(lf.records), len(lf.lines))
		}
	})
}
