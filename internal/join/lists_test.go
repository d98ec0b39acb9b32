package join

import (
	"slices"
	"testing"

	"github.com/nqueens/nqueens/internal/reference"
)

// TestListWorker counts N = 4 … 13 (15 outside -short) unit by unit with
// workers that build their quarter lists per rows set: whole, held in
// windows of one and of four column sets (as a small limit makes them),
// and with halves cut into parts of at most 8 patterns, against the
// tables' worker unit by unit and the published table: the windows change
// nothing, the parts the pairs compared, never a count.
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
		one, four, partedOne := NewListWorker(l), NewListWorker(l), NewListWorker(l)
		one.winShift, four.winShift, partedOne.winShift = 1, 3, 1
		parted.part, partedOne.part = 8, 8
		var total, split uint64
		for u := range l.Units() {
			c, p, _ := tw.CountUnit(u, nil)
			c1, p1, _ := whole.CountUnit(u, nil)
			c2, p2, _ := parted.CountUnit(u, nil)
			c3, p3, _ := one.CountUnit(u, nil)
			c4, p4, _ := four.CountUnit(u, nil)
			c5, p5, _ := partedOne.CountUnit(u, nil)
			if c1 != c || p1 != p || c2 != c || c3 != c || p3 != p || c4 != c || p4 != p || c5 != c || p5 != p2 {
				t.Fatalf("N=%d unit %d: tables %d (%d pairs), lists %d (%d pairs), parts %d (%d pairs), windows of 1 %d (%d pairs), of 4 %d (%d pairs), parts in windows of 1 %d (%d pairs)",
					n, u, c, p, c1, p1, c2, p2, c3, p3, c4, p4, c5, p5)
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
