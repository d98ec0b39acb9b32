package ledger

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/count"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in      string
		want    Shard
		wantErr string
	}{
		{"0/1", Shard{0, 1}, ""},
		{"3/4", Shard{3, 4}, ""},
		{" 2/10 ", Shard{2, 10}, ""},
		{"0/1048576", Shard{0, 1 << 20}, ""},
		{"4/4", Shard{}, "outside 0..3"},
		{"-1/4", Shard{}, "outside 0..3"},
		{"1/0", Shard{}, "K = 0"},
		{"0/1048577", Shard{}, "outside 1..1048576"},
		{"1", Shard{}, "not I/K"},
		{"", Shard{}, "not I/K"},
		{"a/4", Shard{}, "whole numbers"},
		{"1/4/5", Shard{}, "whole numbers"},
		{"1 /4", Shard{}, "whole numbers"},
		{"99999999999999999999/4", Shard{}, "whole numbers"},
	}
	for _, tt := range tests {
		got, err := ParseShard(tt.in)
		if tt.wantErr == "" {
			if err != nil || got != tt.want {
				t.Errorf("ParseShard(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("ParseShard(%q) error %v, want one containing %q", tt.in, err, tt.wantErr)
		}
	}
}

func TestShardFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		k       int
		want    Shard
		wantErr string
	}{
		{"kubernetes", map[string]string{"JOB_COMPLETION_INDEX": "3"}, 4, Shard{3, 4}, ""},
		{"slurm", map[string]string{"SLURM_ARRAY_TASK_ID": "0"}, 4, Shard{0, 4}, ""},
		{"kubernetes first", map[string]string{"JOB_COMPLETION_INDEX": "1", "SLURM_ARRAY_TASK_ID": "2"}, 4, Shard{1, 4}, ""},
		{"neither", map[string]string{}, 4, Shard{}, "neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID"},
		{"slurm from 1", map[string]string{"SLURM_ARRAY_TASK_ID": "4"}, 4, Shard{}, "SLURM_ARRAY_TASK_ID=4: shard index 4 is outside 0..3"},
		{"not a number", map[string]string{"JOB_COMPLETION_INDEX": "x"}, 4, Shard{}, `JOB_COMPLETION_INDEX="x"`},
		{"bad K", map[string]string{"JOB_COMPLETION_INDEX": "0"}, 0, Shard{}, "K = 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ShardFromEnv(tt.k, func(k string) string { return tt.env[k] })
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Errorf("got %v, %v; want %v", got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// TestShardsPartition checks that the shards of K hold every unit exactly
// once and that Size agrees with Units.
func TestShardsPartition(t *testing.T) {
	for _, n := range []int{1, 4, 8, 13} {
		units := count.Units(n)
		for _, k := range []int{1, 2, 3, 4, 7, units, units + 3} {
			seen := make([]int, units)
			for i := range k {
				s := Shard{i, k}
				size := 0
				for u := range s.Units(n) {
					seen[u]++
					size++
				}
				if size != s.Size(n) {
					t.Errorf("N = %d shard %s: %d units, Size says %d", n, s, size, s.Size(n))
				}
			}
			for u, c := range seen {
				if c != 1 {
					t.Errorf("N = %d, K = %d: unit %d is in %d shards", n, k, u, c)
				}
			}
		}
	}
}

func ExampleShard_Units() {
	s, err := ParseShard("1/4")
	if err != nil {
		fmt.Println(err)
		return
	}
	for u := range s.Units(6) {
		fmt.Print(u, " ")
	}
	fmt.Println("of", count.Units(6), "units")
	// Output: 1 5 9 13 of 16 units
}
