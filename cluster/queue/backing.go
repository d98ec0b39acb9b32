package queue

import (
	"fmt"
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

func (b Backing) String() string {
	var parts []string
	switch {
	case b.ByVotes == 0:
		parts = append(parts, "every block counted by the coordinator itself")
	case b.MinCredentials >= 2:
		parts = append(parts, fmt.Sprintf("keyed results, %d replicas by distinct credentials", b.MinCredentials))
	case b.MinCredentials == 1:
		parts = append(parts, "keyed results, signed by one credential each")
	default:
		parts = append(parts, "keyed results of the shared credential (workers without an NKey)")
	}
	if b.ByVotes > 0 {
		parts = append(parts, fmt.Sprintf("%s recounted (%d of %d blocks)", percent(b.Fraction), b.Recounted, b.Blocks))
	}
	switch {
	case b.PlainSeconds > 0:
		parts = append(parts, fmt.Sprintf("no unit counted again by the independent plain search (a unit would take it about %s on one core)", plainTime(b.PlainSeconds)))
	case b.Plain > 0:
		parts = append(parts, fmt.Sprintf("%d units of the recounted blocks, one a block, counted again by the independent plain search, which agreed", b.Plain))
	}
	return strings.Join(parts, ", ")
}

// plainTime says about how long seconds is, in the largest unit that
// fits.
func plainTime(seconds float64) string {
	for _, u := range []struct {
		name string
		secs float64
	}{{"years", 365.25 * 86400}, {"days", 86400}, {"hours", 3600}, {"minutes", 60}} {
		if seconds >= 2*u.secs {
			return fmt.Sprintf("%.0f %s", seconds/u.secs, u.name)
		}
	}
	return fmt.Sprintf("%.0f seconds", seconds)
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
