package board

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// solutionsOf lists every solution of the n×n board by plain backtracking
// (package solve, which has the real enumerations, imports this one).
func solutionsOf(n int) []Placement {
	var out []Placement
	p := New(n)
	var place func(r int)
	place = func(r int) {
		if r == n {
			out = append(out, p.Clone())
			return
		}
	next:
		for c := range n {
			for q := range r {
				if d := int(p[q]) - c; d == 0 || d == r-q || d == q-r {
					continue next
				}
			}
			p[r] = int32(c)
			place(r + 1)
		}
	}
	place(0)
	return out
}

// jsonLine is a listed solution as encoding/json writes it, the reference
// for AppendJSON.
func jsonLine(t testing.TB, p Placement, orbit int) []byte {
	t.Helper()
	q := make([]int32, len(p))
	for i, c := range p {
		q[i] = c + 1
	}
	var b []byte
	var err error
	if orbit > 0 {
		b, err = json.Marshal(struct {
			N      int     `json:"n"`
			Queens []int32 `json:"queens"`
			Orbit  int     `json:"orbit"`
		}{len(p), q, orbit})
	} else {
		b, err = json.Marshal(struct {
			N      int     `json:"n"`
			Queens []int32 `json:"queens"`
		}{len(p), q})
	}
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestAppendJSONGolden holds AppendJSON to encoding/json on every solution
// for n ≤ 10, with and without the orbit, and the other appenders to Write.
func TestAppendJSONGolden(t *testing.T) {
	maxN := 10
	if testing.Short() {
		maxN = 8
	}
	for n := 1; n <= maxN; n++ {
		for _, p := range solutionsOf(n) {
			_, orbit, err := Canonical(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range []int{0, orbit} {
				if got, want := AppendJSON(nil, p, o), jsonLine(t, p, o); !bytes.Equal(got, want) {
					t.Fatalf("AppendJSON(%v, %d) = %q, want %q", p, o, got, want)
				}
			}
			for _, f := range []Format{List, JSON, Grid, Dots, Unicode} {
				var want bytes.Buffer
				if err := Write(&want, p, f); err != nil {
					t.Fatal(err)
				}
				if got := appendAny(p, f); !bytes.Equal(got, want.Bytes()) {
					t.Fatalf("%s appenders give %q for %v, Write %q", f, got, p, want.Bytes())
				}
			}
		}
	}
}

// appendAny writes p through the exported appenders of format f.
func appendAny(p Placement, f Format) []byte {
	switch f {
	case List:
		return AppendList(nil, p)
	case JSON:
		return AppendJSON(nil, p, 0)
	}
	b := AppendBoard(nil, p, f)
	var rows []byte
	rows = AppendOpen(rows, f, len(p))
	for r, c := range p {
		rows = AppendRow(rows, f, len(p), r, int(c))
	}
	if rows = AppendClose(rows, f, 0); !bytes.Equal(rows, b) {
		return append([]byte("rows and AppendBoard differ: "), rows...)
	}
	return b
}

// FuzzAppendJSON: any columns, empty rows and orbit come out as
// encoding/json writes them.
func FuzzAppendJSON(f *testing.F) {
	f.Add([]byte{1, 3, 0, 2}, 8)
	f.Add([]byte{0}, 0)
	f.Add([]byte{255, 0, 7}, 1)
	f.Fuzz(func(t *testing.T, cols []byte, orbit int) {
		if len(cols) == 0 || orbit < 0 {
			return
		}
		p := make(Placement, len(cols))
		for i, c := range cols {
			p[i] = int32(c) - 1 // 0 stands for an empty row
		}
		if got, want := AppendJSON(nil, p, orbit), jsonLine(t, p, orbit); !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON(%v, %d) = %q, want %q", p, orbit, got, want)
		}
	})
}

func TestAppendHeader(t *testing.T) {
	for _, k := range []uint64{1, 9, 10, 1 << 40, ^uint64(0)} {
		for _, orbit := range []int{0, 1, 2, 4, 8} {
			want := fmt.Sprintf("# solution %d\n", k)
			if orbit > 0 {
				want = fmt.Sprintf("# solution %d (class of %d)\n", k, orbit)
			}
			if got := string(AppendHeader(nil, k, orbit)); got != want {
				t.Errorf("AppendHeader(%d, %d) = %q, want %q", k, orbit, got, want)
			}
		}
	}
}

// TestAppendRowPictures: the picture formats have no rows of text.
func TestAppendRowPictures(t *testing.T) {
	for _, f := range []Format{SVG, PNG} {
		if got := AppendRow([]byte("x"), f, 4, 0, 1); string(got) != "x" {
			t.Errorf("AppendRow in %s appended %q", f, got[1:])
		}
	}
}

func BenchmarkAppendList(b *testing.B) {
	p := FromOneBased(2, 4, 6, 8, 10, 12, 14, 16, 1, 3, 5, 7, 9, 11, 13, 15)
	buf := make([]byte, 0, 64)
	for b.Loop() {
		buf = AppendList(buf[:0], p)
	}
	sink = buf
}

var sink []byte
