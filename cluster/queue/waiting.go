package queue

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// checkVoters says, and says again while it lasts, when fewer distinct
// voters are at work than a block needs: the run waits for a worker with
// another credential, and names the ones it has.
func (c *coordinator) checkVoters(now time.Time) {
	if c.run.Replicas < 2 || c.book.done() || c.book.starving {
		return
	}
	atWork := c.atWork(now)
	if !c.pace.sayWait(now, len(atWork) < c.run.Replicas) {
		return
	}
	c.o.Log.Warn("waiting: the run's --replicas needs every block counted by that many distinct credentials, and fewer are at work; start a worker with another NKey of --auth-nkeys",
		"replicas", c.run.Replicas, "credentials_at_work", len(atWork), "workers", describeWorkers(atWork))
}

// atWork returns the eligible voters with a worker at work (a presence
// record seen within activeWindow), and the labels of those workers.
func (c *coordinator) atWork(now time.Time) map[string][]string {
	atWork := map[string][]string{} // voter → labels
	for _, s := range c.seen {
		if now.Sub(s.at) < activeWindow && c.book.eligible[s.voter] {
			atWork[s.voter] = append(atWork[s.voter], s.label)
		}
	}
	return atWork
}

// describeWorkers lists voters at work with their workers' labels.
func describeWorkers(atWork map[string][]string) string {
	var workers []string
	for v, labels := range atWork {
		slices.Sort(labels)
		workers = append(workers, fmt.Sprintf("%s (%s)", strings.Join(labels, ", "), voterName(v)))
	}
	slices.Sort(workers)
	return strings.Join(workers, "; ")
}

// quietBlocks is how many of the blocks left checkQuiet describes.
const quietBlocks = 3

// checkQuiet says, once the run has decided no block for quietFor, and
// again every waitRepeat while that lasts, what it waits for: the blocks
// left, the first of them with their results and copies, and the workers
// at work. Long blocks or busy workers are good reasons to wait, but a
// run never waits without a word.
func (c *coordinator) checkQuiet(now time.Time) {
	say, since := c.pace.sayQuiet(now, c.book.decided)
	if !say || c.book.done() {
		return
	}
	var left, units int
	var first []string
	for k := range c.book.ballots {
		if c.book.ballots[k].verdict != nil {
			continue
		}
		left++
		units += c.run.block(k).Len()
		if len(first) < quietBlocks {
			first = append(first, c.waitsFor(k))
		}
	}
	c.o.Log.Warn("no block decided for a while; the run waits for these blocks", "for", since.Round(time.Second),
		"blocks_left", left, "units_left", units, "first", strings.Join(first, "; "), "workers_at_work", describeWorkers(c.atWork(now)))
}

// waitsFor says what undecided block k waits for: the coordinator's own
// count, or results beyond those it has, from the copies in the stream.
func (c *coordinator) waitsFor(k int) string {
	bl := &c.book.ballots[k]
	b := c.run.block(k)
	switch {
	case c.failed[k].GaveUp:
		return fmt.Sprintf("%s: out of deliveries after %d attempts, being counted by the coordinator", b, c.failed[k].Delivered)
	case bl.recount:
		return fmt.Sprintf("%s: being counted again by the coordinator", b)
	}
	var labels []string
	for _, v := range bl.votes {
		labels = append(labels, v.Worker)
	}
	slices.Sort(labels)
	s := fmt.Sprintf("%s: %d of %d results", b, len(bl.votes), c.run.Replicas)
	if len(labels) > 0 {
		s += " (" + strings.Join(labels, ", ") + ")"
	}
	if n := c.checking[k]; n > 0 {
		s += fmt.Sprintf(", %d under an estimate check", n)
	}
	if n := c.queued[k]; n == 1 {
		s += ", 1 copy queued or being counted"
	} else {
		s += fmt.Sprintf(", %d copies queued or being counted", n)
	}
	return s
}
