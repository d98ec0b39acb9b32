package queue

import (
	"math/rand/v2"
	"sync"
	"time"
)

// The timing of a run, apart from the I/O it paces: what the coordinator
// does at its periodic checks, and how often a worker's declined copies go
// round and when it counts as idle. Nothing here reads a clock or waits on
// the server: the loops that call it own the timers, so that their tests
// run them on testing/synctest's fake clock (pace_test.go), and the
// process tests run them on the real one against nats-server.

// Presence: workers store a record every presenceEvery; one seen within
// activeWindow is at work. The coordinator says it waits for voters once
// the workers have had waitGrace to start, and again every waitRepeat.
const (
	presenceEvery = 5 * time.Second
	activeWindow  = 3 * presenceEvery
	waitGrace     = 10 * time.Second
	waitRepeat    = 30 * time.Second
)

// revokeGrace is how long after a ban the coordinator shuts the banned
// key out of an embedded server: its worker looks for a ban before each
// block and every presenceEvery, and should learn why first.
const revokeGrace = 3 * presenceEvery

// quietFor is how long the run may decide no block before the coordinator
// says what it waits for; it says so again every waitRepeat while none is
// decided.
const quietFor = 30 * time.Second

// checkEvery is the period of the coordinator's checks for a consumer with
// ack wait ackWait: often enough to see a stall within a few ack waits,
// at most every 5 s.
func checkEvery(ackWait time.Duration) time.Duration {
	return min(max(ackWait, time.Second), 5*time.Second)
}

// pacer makes the coordinator's timed decisions, check after check.
type pacer struct {
	start     time.Time // of the coordinator
	stalls    int       // checks in a row that found the consumer idle
	probed    int       // units decided at the last check
	silent    int       // store probes in a row with no answer
	silentAt  time.Time // when the first of them was sent
	waitSaid  time.Time // when the run last said it waits for voters
	decided   int       // units decided when last seen to change
	decidedAt time.Time // when that was (the start, at first)
	quietSaid time.Time // when the run last said what it waits for
	nextLook  time.Time // the first check that looks at what blocks lack
}

// lookShare bounds the share of the coordinator's time its checks spend
// looking at what each block lacks (reconcile): after a look that took d,
// the next check that looks comes d/lookShare later at the soonest. A
// small run's look takes milliseconds, and every check looks; one of
// N = 28 reads the subjects of 877,877 blocks.
const lookShare = 0.01

// look decides whether the check at now looks at what each block lacks:
// stalled (the consumer idle at two checks in a row), or as often as
// lookShare allows.
func (p *pacer) look(now time.Time, stalled bool) bool {
	return stalled || !now.Before(p.nextLook)
}

// looked records that a look lasted from start to end.
func (p *pacer) looked(start, end time.Time) {
	p.nextLook = end.Add(time.Duration(float64(end.Sub(start)) / lookShare))
}

// stalled records whether the consumer had nothing pending or in flight
// at a check (idle; false when the server did not say), and reports
// whether that was so at two checks in a row, when a check sets aside the
// blocks that still lack results and whose messages are in the stream
// (they used up their deliveries; see reconcile).
func (p *pacer) stalled(idle bool) bool {
	if !idle {
		p.stalls = 0
		return false
	}
	p.stalls++
	if p.stalls < 2 {
		return false
	}
	p.stalls = 0
	return true
}

// probe decides whether a check probes the store: when nothing was decided
// since the last check, the server may be unable to store any more.
func (p *pacer) probe(decided int) bool {
	if decided != p.probed {
		p.probed = decided
		return false
	}
	return true
}

// unansweredProbes is how many store probes in a row may get no answer
// from a server that answers reads before the coordinator takes its store
// for full, and silentStoreAfter how long they must span at least: a
// server that is merely slow (a flood of messages, a machine at load 12)
// lets a write wait past probeTimeout now and then, and two such probes
// 10 s apart ended a healthy run (TestProcessRogueFlood on a loaded
// machine); a full disk stays silent for good.
const (
	unansweredProbes = 2
	silentStoreAfter = 2 * time.Minute
)

// unanswered records whether the store probe sent at sent got no answer
// while the server answered reads, and reports whether that happened at
// unansweredProbes probes in a row, the first silentStoreAfter before
// the last.
func (p *pacer) unanswered(noAnswer bool, sent time.Time) bool {
	if !noAnswer {
		p.silent = 0
		return false
	}
	if p.silent == 0 {
		p.silentAt = sent
	}
	p.silent++
	return p.silent >= unansweredProbes && sent.Sub(p.silentAt) >= silentStoreAfter
}

// sayWait decides whether the check at now says that the run waits for
// voters, short telling whether fewer distinct voters are at work than a
// block needs: once the workers have had waitGrace to start, and again
// every waitRepeat while it lasts.
func (p *pacer) sayWait(now time.Time, short bool) bool {
	if !short {
		p.waitSaid = time.Time{}
		return false
	}
	if now.Sub(p.start) < waitGrace || now.Sub(p.waitSaid) < waitRepeat {
		return false
	}
	p.waitSaid = now
	return true
}

// sayQuiet decides whether the check at now, with decided units decided,
// says what the run waits for: when no block was decided (nor undecided)
// for quietFor, and again every waitRepeat while that lasts. since is how
// long it lasted.
func (p *pacer) sayQuiet(now time.Time, decided int) (say bool, since time.Duration) {
	if decided != p.decided {
		p.decided, p.decidedAt, p.quietSaid = decided, now, time.Time{}
	}
	since = now.Sub(p.decidedAt)
	if since < quietFor || now.Sub(p.quietSaid) < waitRepeat {
		return false, since
	}
	p.quietSaid = now
	return true, since
}

// Timing of the worker's loops.
const (
	discoverIdle = 250 * time.Millisecond // look for runs this often while idle
	discoverBusy = 2 * time.Second        // and this often while busy
	fetchWait    = time.Second            // longest wait for a block message
	declineFirst = 50 * time.Millisecond  // a declined copy rests this long, doubling each time the worker declines the same block again
	declineMax   = 2 * time.Second        // up to this
	failDelay    = 2 * time.Second        // before a failed block is offered again
	handOff      = 2 * discoverIdle       // a worker's slots ask for no block this long after it queued a declined copy again
	storeRetry   = 500 * time.Millisecond // between attempts to store a result
)

// declineWait is how long a copy of a block rests before it goes round
// again when this worker declines it for the (times+1)-th time: doubling
// from declineFirst up to declineMax, and within a third of the ack wait,
// so that the server does not deliver the held copy again. When no other
// voter is at work, a copy goes round once every 2 s instead of some
// twenty times a second; when one is, but this worker keeps fetching the
// copy first, the copy reaches it within a few rounds (a longer rest, up
// to 30 s, kept such a block waiting long enough for workers with
// --exit-when-idle to leave).
func declineWait(times int, ackWait time.Duration) time.Duration {
	return min(declineFirst<<min(times, 20), declineMax, max(ackWait/3, declineFirst))
}

// spreadRest draws the rest of a declined copy between half of d and d:
// two workers that each hold a copy the other needs, declined at the same
// pace, would otherwise hand them back at the same moments for ever, each
// while the other's slots ask for no block (handOff).
func spreadRest(d time.Duration) time.Duration { return spreadRestMin(d) + rand.N(d/2+1) }

// spreadRestMin is the shortest rest spreadRest draws for d.
func spreadRestMin(d time.Duration) time.Duration { return d / 2 }

// idleClock tells when a worker with IdleExit has been idle long enough:
// the queue must have said it holds no work, and time the server could
// not be reached does not count, unless its last word was an empty queue.
// The worker's look for runs and its slots, which pull blocks, tell it
// what they find, from their goroutines.
type idleClock struct {
	exit time.Duration // IdleExit; 0: never

	mu        sync.Mutex
	lastWork  time.Time // when the worker last had work, or could not tell
	saidEmpty bool      // the server's last answer: no work in any run
}

// look records at now what a look for runs found: active runs with work,
// known false when the server did not answer. It reports whether the
// worker has been idle for exit.
func (c *idleClock) look(now time.Time, active int, known bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case known && active == 0:
		c.saidEmpty = true
	case known:
		c.lastWork, c.saidEmpty = now, false
	case !c.saidEmpty:
		// Unreachable is not idle.
		c.lastWork = now
	}
	return c.exit > 0 && active == 0 && now.Sub(c.lastWork) > c.exit
}

// worked records that a slot had a block at now.
func (c *idleClock) worked(now time.Time) {
	c.mu.Lock()
	c.lastWork, c.saidEmpty = now, false
	c.mu.Unlock()
}

// empty records that every run the server had answered a slot with no
// block.
func (c *idleClock) empty() {
	c.mu.Lock()
	c.saidEmpty = true
	c.mu.Unlock()
}
