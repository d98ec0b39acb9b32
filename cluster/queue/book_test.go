package queue

import (
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/testkit"
)

// voteOf returns worker's vote for block k of run, with the true results
// plus wrong added to the first unit's total (a rogue worker's lie).
func voteOf(t *testing.T, run Run, all []count.UnitResult, k int, worker string, wrong uint64) vote {
	t.Helper()
	b := run.block(k)
	units := slices.Clone(all[b.First : b.Last+1])
	units[0].Total += wrong
	return vote{N: run.N, First: b.First, Last: b.Last, Units: units, Worker: worker}
}

// TestBook plays scenarios of votes and recounts through the book and
// checks what it decides, asks to recount and bans.
func TestBook(t *testing.T) {
	const n = 9
	all := testkit.AllUnits(t, n, count.Units, count.CountUnit)
	type step struct {
		k      int
		worker string // "" for the coordinator's recount
		wrong  uint64
	}
	tests := []struct {
		name     string
		replicas int
		fraction float64
		steps    []step
		decided  []int    // blocks decided at the end
		recounts []int    // blocks the book asked to recount, in order
		banned   []string // workers banned at the end
	}{
		{"one vote decides", 1, 0, []step{{0, "a", 0}}, []int{0}, nil, nil},
		{"quorum waits for a second worker", 2, 0, []step{{0, "a", 0}}, nil, nil, nil},
		{"quorum of two agreeing", 2, 0, []step{{0, "a", 0}, {0, "b", 0}}, []int{0}, nil, nil},
		{"the same worker twice is one vote", 2, 0, []step{{0, "a", 0}, {0, "a", 0}}, nil, nil, nil},
		{"quorum disagreement is recounted, the liar banned", 2, 0,
			[]step{{0, "a", 0}, {0, "r", 8}, {0, "", 0}}, []int{0}, []int{0}, []string{"r"}},
		{"a spot check passes", 1, 1, []step{{0, "a", 0}, {0, "", 0}}, []int{0}, []int{0}, nil},
		{"a spot check catches a liar; its other blocks are discarded", 1, 1,
			[]step{{1, "r", 8}, {2, "r", 8}, {0, "r", 8}, {0, "", 0}}, []int{0}, []int{1, 2, 0}, []string{"r"}},
		{"a late vote that differs from an accepted one reopens the block", 1, 0,
			[]step{{0, "r", 8}, {0, "a", 0}, {0, "", 0}}, []int{0}, []int{0}, []string{"r"}},
		{"a banned worker's later votes are ignored", 1, 1,
			[]step{{0, "r", 8}, {0, "", 0}, {1, "r", 0}}, []int{0}, []int{0}, []string{"r"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := runFor(n, 4, tt.replicas)
			bk := newBook(run, tt.fraction, [2]uint64{1, 2})
			var recounts []int
			for _, s := range tt.steps {
				if s.worker == "" {
					b := run.block(s.k)
					bk.recounted(s.k, slices.Clone(all[b.First:b.Last+1]))
				} else {
					bk.add(s.k, voteOf(t, run, all, s.k, s.worker, s.wrong))
				}
				r, _, _ := bk.drain()
				recounts = append(recounts, r...)
			}
			var decided []int
			for k := range bk.ballots {
				if v := bk.ballots[k].verdict; v != nil {
					b := run.block(k)
					if !sameUnits(v, all[b.First:b.Last+1]) {
						t.Errorf("block %d decided with a wrong result", k)
					}
					decided = append(decided, k)
				}
			}
			var banned []string
			for w := range bk.banned {
				banned = append(banned, w)
			}
			slices.Sort(banned)
			if !slices.Equal(decided, tt.decided) || !slices.Equal(recounts, tt.recounts) || !slices.Equal(banned, tt.banned) {
				t.Errorf("decided %v, recounts %v, banned %v; want %v, %v, %v", decided, recounts, banned, tt.decided, tt.recounts, tt.banned)
			}
		})
	}
}

// TestBookBanReopens checks that banning a worker reopens every block it
// decided alone, and that deficit then asks for new copies.
func TestBookBanReopens(t *testing.T) {
	const n = 9
	all := testkit.AllUnits(t, n, count.Units, count.CountUnit)
	run := runFor(n, 4, 1)
	bk := newBook(run, 0, [2]uint64{1, 2})
	for k := range 3 {
		bk.add(k, voteOf(t, run, all, k, "r", 0))
	}
	if bk.decided != 12 {
		t.Fatalf("decided %d units, want 12", bk.decided)
	}
	bk.ban("r", "test")
	_, bans, notes := bk.drain()
	if bk.decided != 0 || len(bans) != 1 || len(notes) != 1 || !strings.HasPrefix(notes[0].msg, "ALARM: a worker is banned") || notes[0].args[1] != "r" {
		t.Fatalf("after the ban: decided %d, bans %v, notes %v", bk.decided, bans, notes)
	}
	for k := range 3 {
		if d := bk.deficit(k, 0); d != 1 {
			t.Errorf("block %d: deficit %d, want 1", k, d)
		}
		if d := bk.deficit(k, 1); d != 0 {
			t.Errorf("block %d with a queued copy: deficit %d, want 0", k, d)
		}
	}
}
