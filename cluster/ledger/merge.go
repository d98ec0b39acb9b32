package ledger

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
)

// Source says where a unit result was read: a ledger file and line, or a
// key of the work queue's bucket.
type Source struct {
	Path string
	Line int
}

func (s Source) String() string {
	if s.Line == 0 {
		return s.Path
	}
	return fmt.Sprintf("%s:%d", s.Path, s.Line)
}

// ConflictError reports one unit with two different results: a hardware or
// software fault somewhere, so no total can be trusted.
type ConflictError struct {
	N              int
	Unit           int
	First, Second  count.UnitResult
	FirstAt, SecAt Source
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("unit %d of N = %d has two different results: %s in %s and %s in %s",
		e.Unit, e.N, describe(e.First), e.FirstAt, describe(e.Second), e.SecAt)
}

func describe(u count.UnitResult) string {
	return fmt.Sprintf("total=%d rot180=%d rot90=%d nodes=%d", u.Total, u.Rot180, u.Rot90, u.Nodes)
}

// MissingError lists the units no ledger holds.
type MissingError struct {
	N       int
	Units   int   // units of the run
	Missing []int // sorted
	// Shards names the shards of which every unit is missing, when the
	// ledgers say how the run was sharded.
	Shards []Shard
}

// missingShown is how many ranges of missing units an error message lists.
const missingShown = 8

func (e *MissingError) Error() string { return e.Localize(i18n.For(i18n.English)) }

// Localize is the error in p's language. Counts are plain digits, as
// scripts read them.
func (e *MissingError) Localize(p *i18n.Printer) string {
	sep := p.T("ledger.sep", nil)
	ranges := unitRanges(e.Missing)
	list := strings.Join(ranges[:min(len(ranges), missingShown)], sep)
	if len(ranges) > missingShown {
		list = p.T("ledger.missing.more", i18n.Args{"List": list, "More": strconv.Itoa(len(ranges) - missingShown)})
	}
	args := i18n.Args{"Missing": strconv.Itoa(len(e.Missing)), "Units": strconv.Itoa(e.Units), "N": strconv.Itoa(e.N), "List": list}
	if len(e.Shards) == 0 {
		return p.T("ledger.missing", args)
	}
	names := make([]string, len(e.Shards))
	for i, s := range e.Shards {
		names[i] = s.String()
	}
	args["Shards"] = strings.Join(names, sep)
	return p.T("ledger.missing.shards", args)
}

// FormatUnits writes sorted unit indices compactly: "0-3, 7, 9-12".
// Cost O(len(units)).
func FormatUnits(units []int) string { return strings.Join(unitRanges(units), ", ") }

// unitRanges groups sorted unit indices into runs: "0-3", "7", "9-12".
func unitRanges(units []int) []string {
	var parts []string
	for i := 0; i < len(units); {
		j := i
		for j+1 < len(units) && units[j+1] == units[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(units[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", units[i], units[j]))
		}
		i = j + 1
	}
	return parts
}

// MergeReport is the outcome of [Merge].
type MergeReport struct {
	Result     count.Result // Elapsed is the sum of the units' seconds (CPU time); Workers the distinct workers
	Files      int
	Records    int
	Duplicates int      // units found more than once with equal results
	Truncated  []Source // truncated last lines that were ignored
}

// Merge adds up the ledgers of one run. It fails when the ledgers belong
// to different runs (fingerprints), when a unit has two different results
// (every such unit is named, with both places), or when units are missing
// (all listed). Equal duplicates, which at-least-once execution produces,
// are counted once. Cost O(units + size of the ledgers).
func Merge(files []*File) (MergeReport, error) {
	var rep MergeReport
	var n int
	var fp, fpFrom string
	for _, f := range files {
		rep.Files++
		if f.Truncated > 0 {
			rep.Truncated = append(rep.Truncated, Source{f.Path, f.Truncated})
		}
		if f.Fingerprint == "" {
			continue
		}
		if fp == "" {
			n, fp, fpFrom = f.N, f.Fingerprint, f.Path
		} else if f.Fingerprint != fp {
			return rep, fmt.Errorf("ledgers of different runs: %s has %q, %s has %q", fpFrom, fp, f.Path, f.Fingerprint)
		}
	}
	if fp == "" {
		return rep, errors.New("the ledgers hold no results")
	}
	units := count.Units(n)
	got := make([]*found, units)
	var conflicts []error
	workers := map[string]bool{}
	shardings := map[int]bool{}
	var secs float64
	for _, f := range files {
		for k, rec := range f.records {
			rep.Records++
			secs += rec.Seconds
			workers[rec.Worker] = true
			if s, err := ParseShard(rec.Shard); err == nil {
				shardings[s.K] = true
			}
			at := Source{f.Path, f.lines[k]}
			for _, u := range rec.Units {
				prev := got[u.Index]
				switch {
				case prev == nil:
					got[u.Index] = &found{u, at}
				case prev.r == u:
					rep.Duplicates++
				default:
					conflicts = append(conflicts, &ConflictError{N: n, Unit: u.Index, First: prev.r, FirstAt: prev.at, Second: u, SecAt: at})
				}
			}
		}
	}
	if len(conflicts) > 0 {
		return rep, errors.Join(conflicts...)
	}
	t, err := count.NewTally(n)
	if err != nil {
		return rep, err
	}
	var missing []int
	for i, s := range got {
		if s == nil {
			missing = append(missing, i)
			continue
		}
		if err := t.Add(s.r); err != nil {
			return rep, fmt.Errorf("%s: %w", s.at, err)
		}
	}
	if len(missing) > 0 {
		me := &MissingError{N: n, Units: units, Missing: missing}
		if len(shardings) == 1 {
			for k := range shardings {
				me.Shards = emptyShards(n, k, got)
			}
		}
		return rep, me
	}
	r, err := t.Result()
	var ie *count.ImplausibleError
	if errors.As(err, &ie) {
		return rep, fmt.Errorf("%w (read from %s)", err, sourcesOf(ie.Units, got))
	}
	if err != nil {
		return rep, err
	}
	r.Workers = len(workers)
	r.Elapsed = time.Duration(secs * float64(time.Second))
	rep.Result = r
	return rep, nil
}

// emptyShards returns the shards of K with no unit present.
func emptyShards[T any](n, k int, got []*T) []Shard {
	var out []Shard
	for i := range min(k, len(got)) {
		s := Shard{i, k}
		empty := true
		for u := range s.Units(n) {
			if got[u] != nil {
				empty = false
				break
			}
		}
		if empty {
			out = append(out, s)
		}
	}
	return slices.Clip(out)
}

// found is a unit result and where it was read.
type found struct {
	r  count.UnitResult
	at Source
}

// sourcesOf lists where the given units were read, each place once.
func sourcesOf(units []int, got []*found) string {
	var out []string
	seen := map[Source]bool{}
	for _, u := range units {
		if at := got[u].at; !seen[at] {
			seen[at] = true
			out = append(out, at.String())
		}
	}
	return strings.Join(out, ", ")
}
