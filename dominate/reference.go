package dominate

import (
	"fmt"

	"github.com/nqueens/nqueens/internal/oeis"
)

// Reference is the published minimum of N and the published number of
// minimum sets, where the OEIS has them (A075458 and A002564; for
// independent queens A075324 and A002568); nil fields where it does not.
type Reference struct {
	Minimum *int    `json:"minimum"`
	Count   *uint64 `json:"count"`
}

// Published returns the published terms for n, or nil when there is
// neither. Cost O(1) after the table's first use.
func Published(n int, independent bool) *Reference {
	what := "dominate"
	if independent {
		what = "independent"
	}
	var r Reference
	if t, ok := oeis.Published(what); ok {
		if v, ok := t.Term(n); ok {
			k := int(v)
			r.Minimum = &k
		}
	}
	if t, ok := oeis.Published(what + "-count"); ok {
		if v, ok := t.Term(n); ok {
			r.Count = &v
		}
	}
	if r.Minimum == nil && r.Count == nil {
		return nil
	}
	return &r
}

// Matches reports whether r's proved numbers equal the published ones:
// nil when nothing proved has a published term to compare with.
func (r Result) Matches() *bool {
	ref := Published(r.N, r.Independent)
	if ref == nil {
		return nil
	}
	compared, m := false, true
	if r.Exact && ref.Minimum != nil {
		compared, m = true, m && r.Minimum == *ref.Minimum
	}
	if r.Counted && ref.Count != nil {
		compared, m = true, m && r.Count == *ref.Count
	}
	if !compared {
		return nil
	}
	return &m
}

// MismatchError reports a proved minimum or a count that differs from the
// published term: a fault in this program or the machine, never a
// discovery.
type MismatchError struct {
	N           int
	Independent bool
	What        string // "minimum" or "count"
	Got, Want   uint64
}

func (e *MismatchError) Error() string {
	seq := map[[2]bool]string{{false, false}: "A075458", {false, true}: "A002564", {true, false}: "A075324", {true, true}: "A002568"}[[2]bool{e.Independent, e.What == "count"}]
	return fmt.Sprintf("N = %d: the %s %d does not match the published term %d (OEIS %s a(%d)); the result is wrong, and was not printed",
		e.N, e.What, e.Got, e.Want, seq, e.N)
}

// checkPublished compares r's proved numbers with the published terms.
func (r Result) checkPublished() error {
	ref := Published(r.N, r.Independent)
	switch {
	case ref == nil:
	case r.Exact && ref.Minimum != nil && r.Minimum != *ref.Minimum:
		return &MismatchError{N: r.N, Independent: r.Independent, What: "minimum", Got: uint64(r.Minimum), Want: uint64(*ref.Minimum)}
	case r.Counted && ref.Count != nil && r.Count != *ref.Count:
		return &MismatchError{N: r.N, Independent: r.Independent, What: "count", Got: r.Count, Want: *ref.Count}
	}
	return nil
}
