package cluster

import (
	"testing"

	"github.com/nqueens/nqueens/internal/reference"
)

// checkResult compares a count with the published table.
func checkResult(t *testing.T, n int, total, unique string) {
	t.Helper()
	row, ok, err := reference.Get(n)
	if err != nil || !ok {
		t.Fatalf("no reference for N = %d: %v", n, err)
	}
	if total != row.Total.String() || unique != row.Unique.String() {
		t.Errorf("N = %d: got total %s unique %s, want %s %s", n, total, unique, row.Total, row.Unique)
	}
}
