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
	// nodes 2,057, tries 15,720, placed 2,056, rejected 13,664, backtracks 2,056, solutions 92
}

// The first solution of the 4-queens walk-through: the rejected tries are
// left out here, as in the articles' figures (a) to (l).
func ExampleTracer() {
	s, _ := classic.Lookup("bitmask")
	for e, err := range s.(classic.Tracer).Trace(context.Background(), 4) {
		if err != nil {
			panic(err)
		}
		if e.Kind != classic.Reject {
			fmt.Println(e)
		}
		if e.Kind == classic.Solution {
			break // stops the search
		}
	}
	// Output:
	// place row 1, col 1
	// place row 2, col 3
	// remove row 2, col 3
	// place row 2, col 4
	// place row 3, col 2
	// remove row 3, col 2
	// remove row 2, col 4
	// remove row 1, col 1
	// place row 1, col 2
	// place row 2, col 4
	// place row 3, col 1
	// place row 4, col 3
	// solution 1: 2 4 1 3
}
