package queue

import (
	"fmt"
	"github.com/nqueens/nqueens/i18n"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/count"
)

// Backing says what stands behind a run's total besides the checks every
// result passes (sealed under the pool's key, plausible for its unit): how
// its blocks were decided. Past the published counts nothing else can tell
// a true total from a forged one.
type Backing struct {
	Blocks    int     // blocks of the run
	Replicas  int     // results of distinct voters each block needed
	Recounted int     // blocks the coordinator counted itself
	ByVotes   int     // blocks decided by the workers' results alone
	Fraction  float64 // the share of blocks drawn for a recount
	// MinCredentials is the fewest distinct signing credentials (NKeys
	// of the voters list) behind a block decided by votes: 0 when one
	// rests on the shared credential alone.
	MinCredentials int
	// Plain is the units of the coordinator's recounts that the plain
	// search (count.RecountUnit), sharing no code with the engine, counted
	// a third time and found the same: one per block recounted past the
	// published counts. PlainSeconds is set instead when a unit would take
	// it longer than the coordinator allows (about that many seconds).
	Plain        int
	PlainSeconds float64
}

// Independent reports whether the total rests on a check that no single
// credential can defeat: every block decided by votes of at least two
// distinct credentials, or counted by the coordinator itself, or a random
// share of the blocks, drawn where the workers cannot see, counted again.
func (b Backing) Independent() bool {
	return b.ByVotes == 0 || b.MinCredentials >= 2 || b.Fraction > 0 && b.Recounted > 0
}

func (b Backing) String() string { return b.Localize(i18n.For(i18n.English)) }

// Localize says the backing in p's language: its clauses, joined.
func (b Backing) Localize(p *i18n.Printer) string {
	var parts []string
	switch {
	case b.ByVotes == 0:
		parts = append(parts, p.T("queue.backing.self", nil))
	case b.MinCredentials >= 2:
		parts = append(parts, p.T("queue.backing.replicas", i18n.Args{"Count": strconv.Itoa(b.MinCredentials)}))
	case b.MinCredentials == 1:
		parts = append(parts, p.T("queue.backing.one", nil))
	default:
		parts = append(parts, p.T("queue.backing.shared", nil))
	}
	if b.ByVotes > 0 {
		parts = append(parts, p.T("queue.backing.recounted", i18n.Args{"Pct": percent(b.Fraction), "Recounted": strconv.Itoa(b.Recounted), "Blocks": strconv.Itoa(b.Blocks)}))
	}
	switch {
	case b.PlainSeconds > 0:
		parts = append(parts, p.T("queue.backing.noplain", i18n.Args{"Time": plainTime(p, b.PlainSeconds)}))
	case b.Plain > 0:
		parts = append(parts, p.T("queue.backing.plain", i18n.Args{"Count": strconv.Itoa(b.Plain)}))
	}
	return strings.Join(parts, p.T("queue.backing.sep", nil))
}

// plainTime says about how long seconds is, in the largest unit that
// fits.
func plainTime(p *i18n.Printer, seconds float64) string {
	for _, u := range []struct {
		key  string
		secs float64
	}{{"queue.time.years", 365.25 * 86400}, {"queue.time.days", 86400}, {"queue.time.hours", 3600}, {"queue.time.minutes", 60}} {
		if seconds >= 2*u.secs {
			return p.T(u.key, i18n.Args{"V": fmt.Sprintf("%.0f", seconds/u.secs)})
		}
	}
	return p.T("queue.time.seconds", i18n.Args{"V": fmt.Sprintf("%.0f", seconds)})
}

func percent(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", 100*f), "0"), ".") + " %"
}

// UnbackedError refuses a total past the published counts that rests on
// no independent check (see [Backing.Independent]): a forged run of
// rotating names, or of one credential, would give one.
type UnbackedError struct {
	N       int
	Backing Backing
	// AtStart is set when the run's options could never back a total
	// (no recount and fewer than two replicas): refused before anything
	// is counted, as years of work would end in this error.
	AtStart bool
}

func (e *UnbackedError) Error() string {
	if e.AtStart {
		return fmt.Sprintf("N = %d is past the published counts, and a run with --verify-fraction 0 and %d replica(s) would rest on no check independent of the workers: "+
			"nothing was started. Give --verify-fraction above 0, so that the coordinator counts a random share of the blocks itself, "+
			"or --replicas 2 with an NKey per worker (--auth-nkeys)", e.N, e.Backing.Replicas)
	}
	return fmt.Sprintf("N = %d is past the published counts, and its total rests on no check independent of the workers (%s); it was not printed. "+
		"To make it trustworthy, run the same command again with --verify-fraction above 0, so that the coordinator counts a random share of the blocks itself "+
		"(the results stored are kept), or start the run with --replicas 2 and an NKey per worker (--auth-nkeys)", e.N, e.Backing)
}

// backed checks r against what backs it: past the published counts, the
// total must lie within the random-probe estimate's spread and rest on an
// independent check.
func backed(r count.Result, b Backing, check func(count.Result) error) error {
	if _, _, known := count.Known(r.N); known {
		return nil
	}
	if err := check(r); err != nil {
		return err
	}
	if !b.Independent() {
		return &UnbackedError{N: r.N, Backing: b}
	}
	return nil
}
