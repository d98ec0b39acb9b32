package join

import (
	"slices"
	"testing"

	"github.com/nqueens/nqueens/internal/reference"
)

// TestListWorker counts N = 4 … 13 (15 outside -short) unit by unit with
// workers that build their quarter lists per rows set, whole and with
// halves cut into parts of at most 8 patterns, against the tables'
// worker unit by unit and the published table: the parts change the
// pairs compared, never a count.
func TestListWorker(t *testing.T) {
	ref, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	maxN := 15
	if testing.Short() {
		maxN = 13
	}
	for n := 4; n <= maxN; n++ {
		l, err := NewLayout(n, n%2)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := NewTables(l, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		tw, whole, parted := NewWorker(tb), NewListWorker(l), NewListWorker(l)
		parted.part = 8
		var total, split uint64
		for u := range l.Units() {
			c, p, _ := tw.CountUnit(u, nil)
			c1, p1, _ := whole.CountUnit(u, nil)
			c2, _, _ := parted.CountUnit(u, nil)
			if c1 != c || p1 != p || c2 != c {
				t.Fatalf("N=%d unit %d: tables %d (%d pairs), lists %d (%d pairs), parts %d", n, u, c, p, c1, p1, c2)
			}
			total += c2
			split = max(split, uint64(parted.Bytes()))
		}
		if want := ref[n].Total.Uint64(); total != want {
			t.Errorf("N=%d: %d, want %d", n, total, want)
		}
	}
}

// TestRanked counts N = 4 … 13 (16 outside -short) with ranked layouts,
// whose units make their keys from ranks of rows sets, by list workers,
// against the published table; their keys are those of the listed
// layout, and SampleKeys over every rank gives them all once.
func TestRanked(t *testing.T) {
	ref, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	maxN := 16
	if testing.Short() {
		maxN = 13
	}
	for n := 4; n <= maxN; n++ {
		l, err := newLayout(n, n%2, true)
		if err != nil {
			t.Fatal(err)
		}
		listed, _ := newLayout(n, n%2, false)
		if n <= 12 {
			var keys, sampled []Key
			for u := range l.Units() {
				keys = append(keys, l.UnitKeys(u)...)
			}
			for r := range listed.Sets() {
				sampled = append(sampled, listed.SampleKeys(r)...)
			}
			if !slices.Equal(keys, listed.Keys()) || !slices.Equal(sampled, listed.Keys()) {
				t.Fatalf("N=%d: %d ranked keys, %d sampled, %d listed", n, len(keys), len(sampled), len(listed.Keys()))
			}
		}
		w := NewListWorker(l)
		var total uint64
		for u := range l.Units() {
			c, _, _ := w.CountUnit(u, nil)
			total += c
		}
		if want := ref[n].Total.Uint64(); total != want {
			t.Errorf("N=%d: %d, want %d", n, total, want)
		}
	}
}
