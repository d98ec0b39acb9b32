package queue

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/testkit"
)

// voteOf returns the vote of voter (a key, or "" for the shared
// credential) labelled label for block k of run, with the true results plus
// wrong added to the first unit's total (a rogue worker's lie).
func voteOf(t *testing.T, run Run, all []count.UnitResult, k int, voter, label string, wrong uint64) vote {
	t.Helper()
	b := run.block(k)
	units := slices.Clone(all[b.First : b.Last+1])
	units[0].Total += wrong
	return vote{N: run.N, First: b.First, Last: b.Last, Units: units, Worker: label, Voter: voter}
}

// TestBook plays scenarios of votes and recounts through the book and
// checks what it decides, asks to recount and bans. Voters "a", "b" and
// "r" stand for keys of the voters list; "" is the shared credential.
func TestBook(t *testing.T) {
	const n = 9
	all := testkit.AllUnits(t, n, count.Units, count.CountUnit)
	type step struct {
		k            int
		voter, label string // both "" for the coordinator's recount
		wrong        uint64
	}
	keys := []string{"a", "b", "r"}
	tests := []struct {
		name     string
		voters   []string
		replicas int
		fraction float64
		steps    []step
		decided  []int    // blocks decided at the end
		recounts []int    // blocks the book asked to recount, in order
		banned   []string // ballot identities banned at the end
	}{
		{"one vote decides", keys, 1, 0, []step{{0, "a", "x", 0}}, []int{0}, nil, nil},
		{"quorum waits for a second voter", keys, 2, 0, []step{{0, "a", "x", 0}}, nil, nil, nil},
		{"quorum of two agreeing", keys, 2, 0, []step{{0, "a", "x", 0}, {0, "b", "y", 0}}, []int{0}, nil, nil},
		{"the same voter twice is one vote", keys, 2, 0, []step{{0, "a", "x", 0}, {0, "a", "x", 0}}, nil, nil, nil},
		{"one key under two labels is one voter", keys, 2, 0, []step{{0, "a", "x", 0}, {0, "a", "y", 0}}, nil, nil, nil},
		{"a key not among the voters is ignored", keys, 1, 0, []step{{0, "z", "x", 0}}, nil, nil, nil},
		{"quorum disagreement is recounted, the liar banned", keys, 2, 0,
			[]step{{0, "a", "x", 0}, {0, "r", "y", 8}, {0, "", "", 0}}, []int{0}, []int{0}, []string{"r"}},
		{"a spot check passes", keys, 1, 1, []step{{0, "a", "x", 0}, {0, "", "", 0}}, []int{0}, []int{0}, nil},
		{"a spot check catches a liar; its other blocks are discarded", keys, 1, 1,
			[]step{{1, "r", "x", 8}, {2, "r", "x", 8}, {0, "r", "x", 8}, {0, "", "", 0}}, []int{0}, []int{1, 2, 0}, []string{"r"}},
		{"a late vote that differs from an accepted one reopens the block", keys, 1, 0,
			[]step{{0, "r", "x", 8}, {0, "a", "y", 0}, {0, "", "", 0}}, []int{0}, []int{0}, []string{"r"}},
		{"a banned voter's later votes are ignored, under any label", keys, 1, 1,
			[]step{{0, "r", "x", 8}, {0, "", "", 0}, {1, "r", "other", 0}}, []int{0}, []int{0}, []string{"r"}},
		{"too few voters left: the coordinator counts the rest", []string{"a", "r"}, 2, 0,
			[]step{{0, "a", "x", 0}, {0, "r", "y", 8}, {0, "", "", 0}}, []int{0}, upTo(0, 36), []string{"r"}},
		{"the shared credential: rotating labels are one voter", nil, 1, 0,
			[]step{{0, "", "w1", 0}, {1, "", "w2", 0}, {1, "", "w3", 0}}, []int{0, 1}, nil, nil},
		{"the shared credential caught lying: everything resting on it is recounted", nil, 1, 0,
			[]step{{0, "", "w1", 0}, {1, "", "w2", 8}, {1, "", "w3", 0}, {1, "", "", 0}}, []int{1}, append(upTo(1, 36), 0), []string{"label:w2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := runFor(n, 4, tt.replicas)
			bk := newBook(run, tt.fraction, [2]uint64{1, 2}, tt.voters)
			var recounts []int
			for _, s := range tt.steps {
				if s.label == "" {
					b := run.block(s.k)
					bk.recounted(s.k, slices.Clone(all[b.First:b.Last+1]))
				} else {
					bk.add(s.k, voteOf(t, run, all, s.k, s.voter, s.label, s.wrong))
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

// upTo returns the block numbers a..b.
func upTo(a, b int) []int {
	var out []int
	for k := a; k <= b; k++ {
		out = append(out, k)
	}
	return out
}

// TestBookBanReopens checks that banning a voter reopens every block it
// decided alone, and that deficit then asks for new copies.
func TestBookBanReopens(t *testing.T) {
	const n = 9
	all := testkit.AllUnits(t, n, count.Units, count.CountUnit)
	run := runFor(n, 4, 1)
	bk := newBook(run, 0, [2]uint64{1, 2}, []string{"a", "r"})
	for k := range 3 {
		bk.add(k, voteOf(t, run, all, k, "r", "R", 0))
	}
	if bk.decided != 12 {
		t.Fatalf("decided %d units, want 12", bk.decided)
	}
	bk.ban("r", "R", "test")
	_, bans, notes := bk.drain()
	if bk.decided != 0 || len(bans) != 1 || len(notes) != 1 || !strings.HasPrefix(notes[0].msg, "ALARM: a worker is banned") || notes[0].args[1] != "R" {
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

// TestBookDoubt: a vote outside its units' estimate is not trusted: its
// block waits for the coordinator's recount, which bans the voter if it
// lied and clears it if not; a doubtful vote equal to an accepted result
// reopens the block; a banned voter's vote raises no doubt.
func TestBookDoubt(t *testing.T) {
	const n = 9
	all := testkit.AllUnits(t, n, count.Units, count.CountUnit)
	run := runFor(n, 4, 1)
	bk := newBook(run, 0, [2]uint64{1, 2}, []string{"a", "r"})
	truth := func(k int) []count.UnitResult { b := run.block(k); return slices.Clone(all[b.First : b.Last+1]) }
	doubt := errors.New("outside its estimate")
	step := func(k int, v vote, doubtful bool) []int {
		if doubtful {
			bk.doubt(k, v, doubt)
		}
		bk.add(k, v)
		r, _, _ := bk.drain()
		return r
	}
	// A lie, doubted: recounted, and its voter banned.
	if r := step(0, voteOf(t, run, all, 0, "r", "R", 8), true); !slices.Equal(r, []int{0}) || bk.ballots[0].verdict != nil {
		t.Fatalf("a doubted lie: recounts %v, verdict %v", r, bk.ballots[0].verdict)
	}
	bk.recounted(0, truth(0))
	if _, ok := bk.banned["r"]; !ok || !sameUnits(bk.ballots[0].verdict, truth(0)) {
		t.Errorf("after the recount: banned %v, verdict %v", bk.banned, bk.ballots[0].verdict)
	}
	// A true result, doubted: recounted, and decided with nobody banned.
	if r := step(1, voteOf(t, run, all, 1, "a", "A", 0), true); !slices.Equal(r, []int{1}) {
		t.Fatalf("a doubted true result: recounts %v", r)
	}
	bk.recounted(1, truth(1))
	if _, ok := bk.banned["a"]; ok || bk.ballots[1].verdict == nil {
		t.Errorf("a true result recounted: banned %v, decided %v", bk.banned, bk.ballots[1].verdict != nil)
	}
	// A doubtful vote equal to a result accepted from another voter
	// reopens its block.
	bk2 := newBook(run, 0, [2]uint64{1, 2}, []string{"a", "b"})
	bk2.add(2, voteOf(t, run, all, 2, "a", "A", 0))
	bk2.doubt(2, voteOf(t, run, all, 2, "b", "B", 0), doubt)
	bk2.add(2, voteOf(t, run, all, 2, "b", "B", 0))
	if r, _, notes := bk2.drain(); !slices.Equal(r, []int{2}) || bk2.ballots[2].verdict != nil || len(notes) != 1 || !strings.Contains(notes[0].msg, "outside its units' estimate") {
		t.Errorf("a doubt after the block was decided: recounts %v, verdict %v, notes %v", r, bk2.ballots[2].verdict, notes)
	}
	// The banned voter's later votes are ignored, doubtful or not.
	if r := step(3, voteOf(t, run, all, 3, "r", "R", 8), true); len(r) != 0 || bk.ballots[3].doubted {
		t.Errorf("a banned voter's doubtful vote: recounts %v, doubted %v", r, bk.ballots[3].doubted)
	}
}
