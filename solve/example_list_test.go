package solve_test

import (
	"context"
	"fmt"
	"os"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/solve"
)

func ExampleList() {
	ctx := context.Background()
	for s, err := range solve.List(ctx, 8, solve.ListOptions{Unique: true, Limit: 3}) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(s.Board, s.Orbit)
	}
	// Output:
	// 1 5 8 6 3 7 2 4 8
	// 1 6 8 3 7 4 2 5 8
	// 2 4 6 8 3 1 7 5 8
}

func ExampleListEach() {
	// The fastest way to see every solution from Go: p is reused, no
	// allocation per solution.
	corner := 0
	err := solve.ListEach(context.Background(), 10, solve.ListOptions{}, func(p board.Placement, _ int) error {
		if p[0] == 0 {
			corner++
		}
		return nil
	})
	fmt.Println(corner, err)
	// Output:
	// 64 <nil>
}

func ExampleWriteList() {
	res, err := solve.WriteList(context.Background(), os.Stdout, 6, board.JSON, solve.ListOptions{Workers: 2})
	fmt.Println(res.Solutions, res.Bytes, err)
	// Output:
	// {"n":6,"queens":[2,4,6,1,3,5]}
	// {"n":6,"queens":[3,6,2,5,1,4]}
	// {"n":6,"queens":[4,1,5,2,6,3]}
	// {"n":6,"queens":[5,3,1,6,4,2]}
	// 4 124 <nil>
}
