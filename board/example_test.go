package board_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/nqueens/nqueens/board"
)

func ExampleParse() {
	p, err := board.Parse(".Q..\n...Q\nQ...\n..Q.", board.Auto)
	fmt.Println(p, err)
	// Output: 2 4 1 3 <nil>
}

func ExampleWrite() {
	p := board.FromOneBased(2, 4, 1, 3)
	for _, f := range []board.Format{board.List, board.Dots, board.Unicode, board.JSON} {
		board.Write(os.Stdout, p, f)
	}
	// Output:
	// 2 4 1 3
	// .Q..
	// ...Q
	// Q...
	// ..Q.
	// □ ♛ □ ■
	// ■ □ ■ ♛
	// ♛ ■ □ ■
	// ■ □ ♛ □
	// {"n":4,"queens":[2,4,1,3]}
}

func ExampleVerify() {
	fmt.Println(board.Verify(board.FromOneBased(2, 4, 1, 3)))
	fmt.Println(board.Verify(board.FromOneBased(1, 3, 2, 4)))
	fmt.Println(board.Verify(board.FromOneBased(2, 4, 0, 3)))
	// Output:
	// <nil>
	// queens at row 2, column 3 and row 3, column 2 attack each other on the same anti-diagonal
	// row 3 has no queen
}

func ExampleCanonical() {
	p := board.FromOneBased(7, 5, 3, 1, 6, 8, 2, 4) // a mirror image
	c, size, _ := board.Canonical(p)
	fmt.Println(c, size)
	orbit, _ := board.Orbit(board.FromOneBased(2, 4, 1, 3))
	fmt.Println(orbit)
	// Output:
	// 2 4 6 8 3 1 7 5 8
	// [2 4 1 3 3 1 4 2]
}

func ExampleParseAll() {
	stream := "# two boards\n2 4 1 3\n{\"queens\":[3,1,4,2]}\n"
	for rec := range board.ParseAll(strings.NewReader(stream), board.Auto) {
		fmt.Println(rec.Line, rec.Format, rec.Board.Queens, rec.Err)
	}
	// Output:
	// 2 list 2 4 1 3 <nil>
	// 3 json 3 1 4 2 <nil>
}

func ExampleWritePartial() {
	p := board.Partial{Queens: board.FromOneBased(0, 3, 0), Blocked: []board.Square{{Row: 0, Col: 0}, {Row: 2, Col: 1}}}
	for _, f := range []board.Format{board.Dots, board.Unicode, board.JSON} {
		board.WritePartial(os.Stdout, p, f)
	}
	fmt.Println(board.WritePartial(os.Stdout, p, board.List))
	// Output:
	// x..
	// ..Q
	// .x.
	// ✕ ■ □
	// ■ □ ♛
	// □ ✕ □
	// {"n":3,"queens":[0,3,0],"blocked":[[1,1],[3,2]]}
	// the list format cannot show blocked squares; use dots, unicode, json, svg or png
}
