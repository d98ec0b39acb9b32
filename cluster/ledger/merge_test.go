package ledger

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/seal"
)

// ledger builds a ledger file named path from lines of records.
func ledger(t *testing.T, path string, lines ...string) *File {
	t.Helper()
	lf, err := parse(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), path, testKey)
	if err != nil {
		t.Fatal(err)
	}
	return lf
}

func TestMerge(t *testing.T) {
	const n = 10
	all := testkit.AllUnits(t, n, count.Units, count.CountUnit)
	u := len(all)
	half := u / 2
	changed := append([]count.UnitResult(nil), all[half:]...)
	changed[3].Total += 8 // plausible on its own: every orbit size divides 8
	// Forgeries that pass every check of a single line: a total raised by
	// a whole orbit, and a half-turn count raised by its unit's orbit size
	// (the Burnside sum of the constellation is then off by 4).
	raised := append([]count.UnitResult(nil), all[half:]...)
	raised[0].Total += 8
	rot := append([]count.UnitResult(nil), all[half:]...)
	for i, r := range rot {
		if r.Rot180 != 0 && r.Rot180+4 <= r.Total && r.Rot90 == 0 {
			rot[i].Rot180 += 4
			break
		}
	}
	want, err := count.Count(context.Background(), n, count.Options{})
	if err != nil {
		t.Fatal(err)
	}
	shardLines := func(k int) []*File {
		var out []*File
		for i := range k {
			var us []count.UnitResult
			for j := range (Shard{i, k}).Units(n) {
				us = append(us, all[j])
			}
			out = append(out, ledger(t, fmt.Sprintf("s%d.jsonl", i), recordLine(t, n, us, Shard{i, k}.String())))
		}
		return out
	}
	tests := []struct {
		name    string
		files   []*File
		dups    int
		wantErr []string // substrings of the error, or none for success
	}{
		{"two halves", []*File{
			ledger(t, "a.jsonl", recordLine(t, n, all[:half], "")),
			ledger(t, "b.jsonl", recordLine(t, n, all[half:], "")),
		}, 0, nil},
		{"one file, many lines", []*File{
			ledger(t, "a.jsonl", recordLine(t, n, all[:3], ""), recordLine(t, n, all[3:half], ""), recordLine(t, n, all[half:], "")),
		}, 0, nil},
		{"equal duplicates", []*File{
			ledger(t, "a.jsonl", recordLine(t, n, all[:half+5], "")),
			ledger(t, "b.jsonl", recordLine(t, n, all[half:], "")),
			ledger(t, "c.jsonl", recordLine(t, n, all[:2], "")),
		}, 7, nil},
		{"four shards", shardLines(4), 0, nil},
		{"empty file too", append(shardLines(2), ledger(t, "empty.jsonl")), 0, nil},
		{"conflict", []*File{
			ledger(t, "a.jsonl", recordLine(t, n, all[:half], "")),
			ledger(t, "b.jsonl", recordLine(t, n, all[half:], "")),
			ledger(t, "c.jsonl", recordLine(t, n, all[:1], ""), recordLine(t, n, changed, "")),
		}, 0, []string{fmt.Sprintf("unit %d of N = 10 has two different results", half+3), "in b.jsonl:1 and", "in c.jsonl:2"}},
		{"missing", []*File{
			ledger(t, "a.jsonl", recordLine(t, n, all[:half], ""), recordLine(t, n, all[half+2:u-1], "")),
		}, 0, []string{fmt.Sprintf("3 of %d units of N = 10 are missing: %d-%d, %d", u, half, half+1, u-1)}},
		{"missing shard", shardLines(4)[1:], 0, []string{"no result at all from shard 0/4", "0, 4, 8, 12"}},
		{"different runs", []*File{
			ledger(t, "a.jsonl", recordLine(t, n, all[:half], "")),
			ledger(t, "b.jsonl", recordLine(t, 9, testkit.AllUnits(t, 9, count.Units, count.CountUnit), "")),
		}, 0, []string{"ledgers of different runs: a.jsonl has", "b.jsonl has"}},
		{"nothing", []*File{ledger(t, "empty.jsonl")}, 0, []string{"hold no results"}},
		{"a total raised by 8", []*File{
			ledger(t, "a.jsonl", recordLine(t, n, all[:half], "")),
			ledger(t, "b.jsonl", recordLine(t, n, raised, "")),
		}, 0, []string{"N = 10: the total 732 does not match the published count 724", "was not printed"}},
		{"a half-turn count off by 4", []*File{
			ledger(t, "a.jsonl", recordLine(t, n, all[:half], "")),
			ledger(t, "b.jsonl", recordLine(t, n, rot, "")),
		}, 0, []string{"Burnside", "(read from b.jsonl:1)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Merge(tt.files)
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("merged into %s; want an error", rep.Result.Total)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rep.Result.Total != want.Total || rep.Result.Unique != want.Unique || rep.Result.Nodes != want.Nodes {
				t.Errorf("merged %s/%s, count gives %s/%s", rep.Result.Total, rep.Result.Unique, want.Total, want.Unique)
			}
			if err := reference.Check(n, rep.Result.Total.String(), rep.Result.Unique.String()); err != nil {
				t.Error(err)
			}
			if rep.Duplicates != tt.dups {
				t.Errorf("%d duplicates, want %d", rep.Duplicates, tt.dups)
			}
		})
	}
}

func TestMergeErrorTypes(t *testing.T) {
	all := testkit.AllUnits(t, 8, count.Units, count.CountUnit)
	changed := append([]count.UnitResult(nil), all[:1]...)
	changed[0].Total += 8
	_, err := Merge([]*File{
		ledger(t, "a", recordLine(t, 8, all, "")),
		ledger(t, "b", recordLine(t, 8, changed, "")),
	})
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Unit != 0 || ce.FirstAt.String() != "a:1" || ce.SecAt.String() != "b:1" {
		t.Errorf("conflict: %#v", err)
	}
	_, err = Merge([]*File{ledger(t, "a", recordLine(t, 8, all[1:], ""))})
	var me *MissingError
	if !errors.As(err, &me) || len(me.Missing) != 1 || me.Missing[0] != 0 {
		t.Errorf("missing: %#v", err)
	}
}

func TestFormatUnits(t *testing.T) {
	tests := []struct {
		in   []int
		want string
	}{
		{nil, ""},
		{[]int{5}, "5"},
		{[]int{1, 2}, "1-2"},
		{[]int{0, 1, 2, 3, 7, 9, 10, 11, 12}, "0-3, 7, 9-12"},
		{[]int{0, 2, 4}, "0, 2, 4"},
	}
	for _, tt := range tests {
		if got := FormatUnits(tt.in); got != tt.want {
			t.Errorf("FormatUnits(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// ExampleMerge counts the two shards of N = 8 into ledgers, as two array
// tasks would, and adds them up; without the first ledger, merge lists the
// units it lacks.
func ExampleMerge() {
	dir, err := os.MkdirTemp("", "nqueens-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	key, err := seal.New() // a program keeps its key, as nqueens keeps the user's
	if err != nil {
		fmt.Println(err)
		return
	}
	var files []*File
	for i := range 2 {
		path := filepath.Join(dir, fmt.Sprintf("n8-shard-%d.jsonl", i))
		l, err := Open(context.Background(), path, 8, key)
		if err != nil {
			fmt.Println(err)
			return
		}
		_, err = RunShard(context.Background(), 8, Shard{i, 2}, l, ShardOptions{Workers: 1})
		l.Close()
		if err != nil {
			fmt.Println(err)
			return
		}
		lf, err := ReadFile(context.Background(), path, key)
		if err != nil {
			fmt.Println(err)
			return
		}
		files = append(files, lf)
	}
	rep, err := Merge(files)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("total", rep.Result.Total, "unique", rep.Result.Unique)
	_, err = Merge(files[1:])
	fmt.Println(err)
	// Output:
	// total 92 unique 12
	// 39 of 78 units of N = 8 are missing (no result at all from shard 0/2: rerun it): 0, 2, 4, 6, 8, 10, 12, 14, … (31 more ranges; the JSON output lists them all)
}
