package queue

import (
	"fmt"
	"log/slog"
	"math/rand/v2"

	"github.com/nqueens/nqueens/count"
)

// book decides the result of every block of a run from the votes that
// workers store, the way BOINC validates volunteers' work: a block is
// decided when Replicas different workers agree on it; a block whose
// voters disagree, or that a random spot check picks, is counted again by
// the coordinator itself, whose count is the truth; a worker whose vote
// differs from the truth is banned, and all its votes are discarded, so the
// blocks it alone decided are counted again by others. The book does no
// I/O: the coordinator feeds it votes and recounts and carries out the
// recounts and bans it asks for.
type book struct {
	run      Run
	fraction float64 // share of blocks spot-checked
	rng      *rand.Rand
	ballots  []ballot
	decided  int               // units of decided blocks
	banned   map[string]string // worker → reason
	voters   map[string]bool   // workers with a vote that counts

	// Filled by the methods, drained by the coordinator.
	recounts []int  // blocks to count again, in order
	bans     []ban  // workers banned since the last drain
	notes    []note // what happened, for the log
}

// ballot is the state of one block.
type ballot struct {
	votes   map[string]vote    // by worker; banned workers' votes are removed
	verdict []count.UnitResult // the decided result, nil until then
	drawn   bool               // the spot-check draw was made
	checked bool               // and picked this block
	recount bool               // a recount was asked for and has not come back
	truth   []count.UnitResult // the coordinator's own count
}

func newBook(run Run, fraction float64, seed [2]uint64) *book {
	return &book{run: run, fraction: fraction, rng: rand.New(rand.NewPCG(seed[0], seed[1])),
		ballots: make([]ballot, run.blocks()), banned: map[string]string{}, voters: map[string]bool{}}
}

func (b *book) done() bool { return b.decided == b.run.Units }

// note is a log record the book leaves for the coordinator to write.
type note struct {
	level slog.Level
	msg   string
	args  []any
}

func (b *book) note(level slog.Level, msg string, args ...any) {
	b.notes = append(b.notes, note{level, msg, args})
}

// add records worker v.Worker's vote for block k (v is checked already).
func (b *book) add(k int, v vote) {
	if _, bad := b.banned[v.Worker]; bad {
		return
	}
	bl := &b.ballots[k]
	if bl.votes == nil {
		bl.votes = map[string]vote{}
	}
	if _, ok := bl.votes[v.Worker]; ok {
		return // the bucket keeps one vote per worker and block
	}
	bl.votes[v.Worker] = v
	b.voters[v.Worker] = true
	if bl.verdict != nil {
		if sameUnits(v.Units, bl.verdict) {
			return
		}
		if bl.truth != nil {
			b.ban(v.Worker, fmt.Sprintf("its result for %s differs from the coordinator's recount", v.block()))
			return
		}
		// The block was decided without a recount; one is needed now.
		b.note(slog.LevelInfo, "a result differs from the accepted one; counting it again to find the faulty worker", "units", v.block(), "worker", v.Worker)
		b.undecide(k)
	}
	b.decide(k)
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

func (b *book) accept(k int, units []count.UnitResult) {
	b.ballots[k].verdict = units
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
		for w, v := range bl.votes {
			if !sameUnits(v.Units, bl.truth) {
				b.ban(w, fmt.Sprintf("its result for %s differs from the coordinator's recount", blk))
			}
		}
		b.accept(k, bl.truth)
		return
	}
	if len(bl.votes) == 0 {
		return
	}
	var first []count.UnitResult
	for _, v := range bl.votes {
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
	if bl.checked {
		b.askRecount(k)
		return
	}
	if len(bl.votes) >= b.run.Replicas {
		b.accept(k, first)
	}
}

// ban discards every vote of worker and decides again the blocks it voted
// on; the worker's later votes are ignored.
func (b *book) ban(worker, reason string) {
	if _, done := b.banned[worker]; done {
		return
	}
	b.banned[worker] = reason
	delete(b.voters, worker)
	var affected []int
	for k := range b.ballots {
		bl := &b.ballots[k]
		if _, ok := bl.votes[worker]; ok {
			delete(bl.votes, worker)
			affected = append(affected, k)
		}
	}
	b.bans = append(b.bans, ban{Worker: worker, Reason: reason})
	b.note(slog.LevelWarn, "ALARM: a worker is banned; its results are discarded and counted again", "worker", worker, "reason", reason, "blocks", len(affected))
	for _, k := range affected {
		if b.ballots[k].truth == nil {
			b.undecide(k)
			b.decide(k)
		}
	}
}

// deficit returns how many more block messages block k needs, given the
// messages for it that are queued or being worked on.
func (b *book) deficit(k, queued int) int {
	bl := &b.ballots[k]
	if bl.verdict != nil || bl.recount {
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
