package queue

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/nqueens/nqueens/count"
)

// book decides the result of every block of a run from the votes that
// workers store, the way BOINC validates volunteers' work: a block is
// decided when Replicas different voters agree on it, a voter being a
// credential (a key of the voters list that signed the vote, or the shared
// credential of every worker without one), never a name a worker picks; a
// block whose voters disagree, or that a random spot check picks, is
// counted again by the coordinator itself, whose count is the truth; a
// voter whose vote differs from the truth is banned, and all its votes are
// discarded, so the blocks it decided are counted again by others. A lie of
// the shared credential cannot be pinned on one worker: from then on the
// coordinator counts itself every block that rests on it. When fewer
// voters are left than Replicas, the coordinator counts the rest itself.
// The book does no I/O: the coordinator feeds it votes and recounts and
// carries out the recounts and bans it asks for.
type book struct {
	run      Run
	fraction float64 // share of blocks spot-checked
	rng      *rand.Rand
	ballots  []ballot
	decided  int // units of decided blocks
	// listed are the keys of the voters list; eligible the voters that may
	// vote: those keys, or the shared credential, banned ones removed.
	listed   map[string]bool
	eligible map[string]bool
	banned   map[string]string // ballot identity (vote.by) → reason
	labels   map[string]string // the label each banned identity was last seen with
	voters   map[string]bool   // ballot identities with a vote that counts
	starving bool              // fewer eligible voters than Replicas: the coordinator counts the rest
	plain    int               // units of its recounts the plain search counted again (recount.go)

	// Filled by the methods, drained by the coordinator.
	recounts []int  // blocks to count again, in order
	bans     []ban  // voters banned since the last drain
	notes    []note // what happened, for the log
}

// ballot is the state of one block.
type ballot struct {
	votes   map[string]vote    // by ballot identity; banned ones' votes are removed
	verdict []count.UnitResult // the decided result, nil until then
	drawn   bool               // the spot-check draw was made
	checked bool               // and picked this block
	doubted bool               // a vote lies outside its units' estimate
	recount bool               // a recount was asked for and has not come back
	truth   []count.UnitResult // the coordinator's own count
	backers int                // distinct signing voters behind the verdict, when no recount decided it
}

// newBook starts the book of run with the given voters (public NKeys; none
// means the shared credential votes alone).
func newBook(run Run, fraction float64, seed [2]uint64, voters []string) *book {
	b := &book{run: run, fraction: fraction, rng: rand.New(rand.NewPCG(seed[0], seed[1])),
		ballots: make([]ballot, run.blocks()), listed: map[string]bool{}, eligible: map[string]bool{}, banned: map[string]string{}, labels: map[string]string{}, voters: map[string]bool{}}
	for _, v := range voters {
		b.listed[v], b.eligible[v] = true, true
	}
	if len(voters) == 0 {
		b.eligible[sharedVoter] = true
	}
	return b
}

func (b *book) done() bool { return b.decided == b.run.Units }

// voterOf is the voter a ballot identity (vote.by) counts as in a quorum:
// a key of the voters list itself; without a list, every label and key is
// the shared credential; a key not on the list is no voter ("").
func (b *book) voterOf(by string) string {
	switch {
	case b.listed[by]:
		return by
	case len(b.listed) == 0:
		return sharedVoter
	}
	return ""
}

// note is a log record the book leaves for the coordinator to write.
type note struct {
	level slog.Level
	msg   string
	args  []any
}

func (b *book) note(level slog.Level, msg string, args ...any) {
	b.notes = append(b.notes, note{level, msg, args})
}

// counts reports whether a vote of ballot identity by counts: its voter
// may vote and is not banned.
func (b *book) counts(by string) bool {
	_, bad := b.banned[by]
	return !bad && b.eligible[b.voterOf(by)]
}

// add records v, the vote of ballot identity v.by() for block k (v is
// checked already). A vote of a voter that may not vote is ignored.
func (b *book) add(k int, v vote) {
	by := v.by()
	if !b.counts(by) {
		return
	}
	bl := &b.ballots[k]
	if bl.votes == nil {
		bl.votes = map[string]vote{}
	}
	if _, ok := bl.votes[by]; ok {
		return // the bucket keeps one vote per voter and block
	}
	bl.votes[by] = v
	b.voters[by] = true
	if bl.verdict != nil {
		if sameUnits(v.Units, bl.verdict) {
			return
		}
		if bl.truth != nil {
			b.ban(by, v.Worker, fmt.Sprintf("its result for %s differs from the coordinator's recount", v.block()))
			return
		}
		// The block was decided without a recount; one is needed now.
		b.note(slog.LevelInfo, "a result differs from the accepted one; counting it again to find the faulty worker", "units", v.block(), "worker", v.Worker, "voter", voterName(b.voterOf(by)))
		b.undecide(k)
	}
	b.decide(k)
}

// doubt records that v, a vote for block k about to be added, lies
// outside its units' estimate (why: reason): the block is counted again
// by the coordinator before it is decided, and reopened if it was decided
// already. A vote that add would ignore is no reason to doubt.
func (b *book) doubt(k int, v vote, reason error) {
	by := v.by()
	bl := &b.ballots[k]
	if !b.counts(by) || bl.truth != nil {
		return
	}
	if _, ok := bl.votes[by]; ok {
		return
	}
	b.note(slog.LevelInfo, "a result lies outside its units' estimate; the coordinator counts it again", "units", v.block(), "worker", v.Worker, "voter", voterName(b.voterOf(by)), "reason", reason)
	bl.doubted = true
	b.undecide(k)
	b.askRecount(k)
}

// recounted records the coordinator's own count of block k.
func (b *book) recounted(k int, units []count.UnitResult) {
	bl := &b.ballots[k]
	bl.recount, bl.truth = false, units
	b.undecide(k)
	b.decide(k)
}

func (b *book) undecide(k int) {
	if bl := &b.ballots[k]; bl.verdict != nil {
		bl.verdict = nil
		b.decided -= b.run.block(k).Len()
	}
}

func (b *book) accept(k int, units []count.UnitResult, backers int) {
	b.ballots[k].verdict, b.ballots[k].backers = units, backers
	b.decided += b.run.block(k).Len()
}

func (b *book) askRecount(k int) {
	if bl := &b.ballots[k]; !bl.recount && bl.truth == nil {
		bl.recount = true
		b.recounts = append(b.recounts, k)
	}
}

// decide decides block k if it can.
func (b *book) decide(k int) {
	bl := &b.ballots[k]
	if bl.verdict != nil {
		return
	}
	if bl.truth != nil {
		blk := b.run.block(k)
		for by, v := range bl.votes {
			if !sameUnits(v.Units, bl.truth) {
				b.ban(by, v.Worker, fmt.Sprintf("its result for %s differs from the coordinator's recount", blk))
			}
		}
		b.accept(k, bl.truth, 0)
		return
	}
	if b.starving {
		b.askRecount(k)
		return
	}
	if len(bl.votes) == 0 {
		return
	}
	var first []count.UnitResult
	voters := map[string]bool{}
	for by, v := range bl.votes {
		voters[b.voterOf(by)] = true
		if first == nil {
			first = v.Units
		} else if !sameUnits(first, v.Units) {
			b.note(slog.LevelInfo, "workers disagree; the coordinator counts it again", "units", b.run.block(k))
			b.askRecount(k)
			return
		}
	}
	if !bl.drawn {
		bl.drawn = true
		bl.checked = b.rng.Float64() < b.fraction
	}
	if bl.checked || bl.doubted {
		b.askRecount(k)
		return
	}
	if len(voters) >= b.run.Replicas {
		backers := len(voters)
		if voters[sharedVoter] {
			backers-- // the shared credential signs nothing
		}
		b.accept(k, first, backers)
	}
}

// ban discards every vote of ballot identity by (last seen as worker
// label) and decides again the blocks it voted on; its later votes are
// ignored. A ban of a label of the shared credential is a lie of that
// credential, which no label pins down: it stops voting, and what rests on
// it is counted again.
func (b *book) ban(by, label, reason string) {
	if _, done := b.banned[by]; done {
		return
	}
	b.banned[by], b.labels[by] = reason, label
	delete(b.voters, by)
	voter := b.voterOf(by)
	delete(b.eligible, voter)
	var affected []int
	for k := range b.ballots {
		bl := &b.ballots[k]
		for other := range bl.votes {
			if other == by || voter == sharedVoter && b.voterOf(other) == sharedVoter {
				delete(bl.votes, other)
				affected = append(affected, k)
			}
		}
	}
	affected = slices.Compact(affected)
	b.bans = append(b.bans, ban{By: by, Worker: label, Reason: reason})
	b.note(slog.LevelWarn, "ALARM: a worker is banned; its results are discarded and counted again",
		"worker", label, "voter", voterName(voter), "reason", reason, "blocks", len(affected))
	if voter == sharedVoter {
		b.note(slog.LevelWarn, "ALARM: the shared credential gave a wrong result, and every worker without an NKey votes with it: its results no longer count; give each worker its own NKey (--auth-nkeys) to share the work")
	}
	b.checkStarving()
	for _, k := range affected {
		if b.ballots[k].truth == nil {
			b.undecide(k)
			b.decide(k)
		}
	}
}

// checkStarving notes when fewer voters may vote than a block needs: from
// then on every undecided block is counted by the coordinator itself.
func (b *book) checkStarving() {
	if b.starving || len(b.eligible) >= b.run.Replicas {
		return
	}
	b.starving = true
	var left []string
	for v := range b.eligible {
		left = append(left, voterName(v))
	}
	slices.Sort(left)
	b.note(slog.LevelWarn, "too few voters are left for the run's --replicas; the coordinator counts every remaining block itself",
		"replicas", b.run.Replicas, "voters_left", strings.Join(left, ", "), "units_left", b.run.Units-b.decided)
	for k := range b.ballots {
		if b.ballots[k].verdict == nil {
			b.askRecount(k)
		}
	}
}

// deficit returns how many more block messages block k needs, given the
// messages for it that are queued or being worked on.
func (b *book) deficit(k, queued int) int {
	bl := &b.ballots[k]
	if bl.verdict != nil || bl.recount || b.starving {
		return 0
	}
	return max(0, b.run.Replicas-len(bl.votes)-queued)
}

// drain returns and clears what the coordinator must act on.
func (b *book) drain() (recounts []int, bans []ban, notes []note) {
	recounts, bans, notes = b.recounts, b.bans, b.notes
	b.recounts, b.bans, b.notes = nil, nil, nil
	return
}

// result adds up the decided blocks. Cost O(units).
func (b *book) result() (count.Result, error) {
	t, err := count.NewTally(b.run.N)
	if err != nil {
		return count.Result{}, err
	}
	for k := range b.ballots {
		for _, u := range b.ballots[k].verdict {
			if err := t.Add(u); err != nil {
				return count.Result{}, fmt.Errorf("%s: %w", b.run.block(k), err)
			}
		}
	}
	return t.Result()
}

// backing says what stands behind the decided blocks.
func (b *book) backing() Backing {
	bk := Backing{Blocks: len(b.ballots), Fraction: b.fraction, Replicas: b.run.Replicas, Plain: b.plain}
	if pastTable(b.run.N) && !plainAffordable(b.run.N) {
		bk.PlainSeconds = count.RecountSeconds(b.run.N)
	}
	for _, bl := range b.ballots {
		switch {
		case bl.verdict == nil:
		case bl.truth != nil:
			bk.Recounted++
		default:
			if bk.ByVotes == 0 || bl.backers < bk.MinCredentials {
				bk.MinCredentials = bl.backers
			}
			bk.ByVotes++
		}
	}
	return bk
}
