package solve

import (
	"bytes"
	"context"
	"testing"

	"github.com/nqueens/nqueens/board"
)

// referenceText writes what the single-threaded reference gives: All (or
// Unique) through board.Write, with the headers of the board formats.
func referenceText(t testing.TB, n int, f board.Format, unique bool) []byte {
	t.Helper()
	var b bytes.Buffer
	k := uint64(0)
	put := func(p board.Placement, orbit int) {
		k++
		switch {
		case f == board.JSON:
			b.Write(board.AppendJSON(nil, p, orbit))
			return
		case f.IsBoard():
			b.Write(board.AppendHeader(nil, k, orbit))
		}
		if err := board.Write(&b, p, f); err != nil {
			t.Fatal(err)
		}
	}
	if unique {
		for c, err := range Unique(n) {
			if err != nil {
				t.Fatal(err)
			}
			put(c.Canonical, c.Size)
		}
	} else {
		for p, err := range All(n) {
			if err != nil {
				t.Fatal(err)
			}
			put(p, 0)
		}
	}
	return b.Bytes()
}

func TestWriteListQuick(t *testing.T) {
	for _, unique := range []bool{false, true} {
		for n := 1; n <= 10; n++ {
			for _, f := range []board.Format{board.List, board.JSON, board.Grid, board.Dots, board.Unicode} {
				for _, workers := range []int{1, 3} {
					var got bytes.Buffer
					res, err := WriteList(context.Background(), &got, n, f, ListOptions{Unique: unique, Workers: workers})
					if err != nil {
						t.Fatal(err)
					}
					want := referenceText(t, n, f, unique)
					if !bytes.Equal(got.Bytes(), want) {
						t.Fatalf("n=%d %s unique=%v workers=%d: %d bytes (%d solutions), want %d bytes\n%.300s\nwant\n%.300s", n, f, unique, workers, got.Len(), res.Solutions, len(want), got.Bytes(), want)
					}
				}
			}
		}
	}
}
