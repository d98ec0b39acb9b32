package variant

import (
	"fmt"
	"strings"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/oeis"
)

// Reference is the published count of a variant: the term of the OEIS
// sequence its total is a term of and, where a sequence counts them, the
// term of its classes'.
type Reference struct {
	Total  Uint128  `json:"total"`
	Unique *Uint128 `json:"unique"` // null where no sequence counts the classes
}

// Reference returns the published count of s, or nil where there is none:
// no sequence counts s, or its term is past those published. Cost O(1)
// after the table's first use.
func (s Spec) Reference() *Reference {
	total, unique := s.OEIS()
	t, ok := total.published()
	if !ok {
		return nil
	}
	r := &Reference{Total: t}
	if u, ok := unique.published(); ok {
		r.Unique = &u
	}
	return r
}

// published returns the published term q stands for, and false when
// there is none.
func (q Sequence) published() (Uint128, bool) {
	switch {
	case q.ID == "":
		return Uint128{}, false
	case q.row == "": // the plain problem's, in package count
		total, unique, ok := count.Known(q.i)
		if q.ID == "A002562" {
			return unique, ok
		}
		return total, ok
	}
	row, ok := oeis.Published(q.row)
	if !ok {
		return Uint128{}, false
	}
	v, ok := row.Term(q.i)
	return count.U128(v), ok
}

// Matches reports whether r agrees with the published count of its
// variant: nil when there is none, else whether the total and, where
// published, the unique count equal it.
func (r Result) Matches() *bool {
	ref := r.Spec.Reference()
	if ref == nil {
		return nil
	}
	m := r.Total == ref.Total && (ref.Unique == nil || r.Unique == *ref.Unique)
	return &m
}

// MismatchError reports a count that differs from its published term: a
// fault in this program or the machine, never a discovery.
type MismatchError struct {
	Spec          Spec
	Total, Unique Uint128 // counted
	Want          Reference
}

func (e *MismatchError) Error() string {
	total, unique := e.Spec.OEIS()
	var parts []string
	if e.Total != e.Want.Total {
		parts = append(parts, fmt.Sprintf("the total %s does not match the published term %s (OEIS %s %s)", e.Total, e.Want.Total, total.ID, total.Term))
	}
	if e.Want.Unique != nil && e.Unique != *e.Want.Unique {
		parts = append(parts, fmt.Sprintf("the unique count %s does not match the published term %s (OEIS %s %s)", e.Unique, *e.Want.Unique, unique.ID, unique.Term))
	}
	return fmt.Sprintf("%v: %s; the result is wrong, and was not printed", e.Spec, strings.Join(parts, "; "))
}

// checkPublished compares r with the published count of its variant,
// where there is one.
func (r Result) checkPublished() error {
	if m := r.Matches(); m == nil || *m {
		return nil
	}
	return &MismatchError{Spec: r.Spec.Normal(), Total: r.Total, Unique: r.Unique, Want: *r.Spec.Reference()}
}
