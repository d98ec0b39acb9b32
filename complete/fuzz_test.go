package complete

import (
	"context"
	"slices"
	"testing"

	"github.com/nqueens/nqueens/board"
)

// FuzzExactMatchesSlow reads a small partial board from bytes (size, then
// pairs: a row and a column, a queen when the column byte is even, else a
// blocked square) and checks the exact search against the slow one.
func FuzzExactMatchesSlow(f *testing.F) {
	f.Add([]byte{4})
	f.Add([]byte{4, 0, 2})
	f.Add([]byte{8, 0, 0, 3, 5, 5, 7})
	f.Add([]byte{6, 1, 1, 2, 3, 4, 5, 0, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		n := 1 + int(data[0])%8
		p := problem{n: n, queens: board.New(n)}
		for i := 1; i+1 < len(data); i += 2 {
			r, c := int(data[i])%n, int(data[i+1]/2)%n
			if data[i+1]%2 == 0 && p.queens[r] < 0 {
				p.queens[r] = int32(c)
				if board.Check(board.Placement(p.queens)) != nil {
					p.queens[r] = -1
				}
			} else if int(p.queens[r]) != c {
				p.blocked = append(p.blocked, [2]int{r, c})
			}
		}
		// A queen placed after a square was blocked under it is dropped.
		p.blocked = slices.DeleteFunc(p.blocked, func(sq [2]int) bool { return int(p.queens[sq[0]]) == sq[1] })
		got, want := exactCompletions(p), slowCompletions(p)
		if !slices.Equal(got, want) {
			t.Fatalf("n = %d, queens %v, blocked %v: exact %v, slow %v", n, p.queens, p.blocked, got, want)
		}
		if n > 1 {
			if cols, ok, err := localSearch(context.Background(), n, p.queens, p.blocked, 1); err != nil || ok && !slices.Contains(want, board.Placement(cols).String()) {
				t.Fatalf("local search gave %v (ok=%v, err=%v), not a completion", cols, ok, err)
			}
		}
	})
}
