package classic_test

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
)

func ExampleLookup() {
	s, err := classic.Lookup("stack")
	if err != nil {
		panic(err)
	}
	var first board.Placement
	c, err := s.Solve(context.Background(), 8, func(p board.Placement) bool {
		if first == nil {
			first = p.Clone() // p is the strategy's buffer
		}
		return true
	})
	fmt.Println(first, err)
	fmt.Println(c)
	// Output:
	// 1 5 8 6 3 7 2 4 <nil>
	// nodes 2,056, tries 15,720, reads 93,504, placed 2,056, rejected 13,664, backtracks 2,056, solutions 92
}

// The first solution of the 4-queens walk-through, as the bitmask search
// takes it: it never tries an attacked square, and a row with no free
// column is a dead end. Each step says what the code did.
func ExampleTracer() {
	s, _ := classic.Lookup("bitmask")
	for e, err := range s.(classic.Tracer).Trace(context.Background(), 4) {
		if err != nil {
			panic(err)
		}
		fmt.Println(e.Text)
		if e.Kind == classic.Solution {
			break // stops the search
		}
	}
	// Output:
	// Row 1: free = all & ~(cols | ld | rd) holds columns 1, 2, 3 and 4; its lowest bit is column 1: queens[1] = 1, free keeps columns 2, 3 and 4; next: the call for row 2, with the bit added to cols, ld and rd.
	// Row 2: free = all & ~(cols | ld | rd) holds columns 3 and 4; its lowest bit is column 3: queens[2] = 3, free keeps column 4; next: the call for row 3, with the bit added to cols, ld and rd.
	// Row 3: cols holds columns 1 and 3, ld columns 3 and 4 and rd column 2: together every column, so free = 0. A dead end: back to row 2.
	// Back in row 2 from the call for row 3: queens[2] = 0; cols, ld and rd of row 2 are as they were (passed by value); free still holds column 4: its lowest bit is next.
	// Row 2: free still holds column 4; its lowest bit is column 4: queens[2] = 4, free keeps no column; next: the call for row 3, with the bit added to cols, ld and rd.
	// Row 3: free = all & ~(cols | ld | rd) holds column 2; its lowest bit is column 2: queens[3] = 2, free keeps no column; next: the call for row 4, with the bit added to cols, ld and rd.
	// Row 4: cols holds columns 1, 2 and 4, ld columns 3 and 4 and rd columns 1 and 2: together every column, so free = 0. A dead end: back to row 3.
	// Back in row 3 from the call for row 4: queens[3] = 0; cols, ld and rd of row 3 are as they were (passed by value); free is 0: row 3 is done, back to row 2.
	// Back in row 2 from the call for row 3: queens[2] = 0; cols, ld and rd of row 2 are as they were (passed by value); free is 0: row 2 is done, back to row 1.
	// Back in row 1 from the call for row 2: queens[1] = 0; cols, ld and rd of row 1 are as they were (passed by value); free still holds columns 2, 3 and 4: its lowest bit is next.
	// Row 1: free still holds columns 2, 3 and 4; its lowest bit is column 2: queens[1] = 2, free keeps columns 3 and 4; next: the call for row 2, with the bit added to cols, ld and rd.
	// Row 2: free = all & ~(cols | ld | rd) holds column 4; its lowest bit is column 4: queens[2] = 4, free keeps no column; next: the call for row 3, with the bit added to cols, ld and rd.
	// Row 3: free = all & ~(cols | ld | rd) holds column 1; its lowest bit is column 1: queens[3] = 1, free keeps no column; next: the call for row 4, with the bit added to cols, ld and rd.
	// Row 4: free = all & ~(cols | ld | rd) holds column 3; its lowest bit is column 3: queens[4] = 3, free keeps no column; every row now holds a queen.
	// Every row holds a queen and none attacks another: solution 1, queens at 2 4 1 3 (the column of each row).
}
