// Package board holds the n×n board with at most one queen a row
// ([Placement]) and the partly filled board with blocked squares
// ([Partial]), their text and picture formats, verification of solutions
// with the exact reason when a board is not one ([Problem]), the 8
// symmetries of the square (D4) with orbits and canonical representatives,
// and the board size every command reads ([ParseSize], [SizeError]).
//
// Every feature package of nqueens (solve, complete, classic, count, the
// cluster runner, the web server) imports this one, and board imports none
// of them. Rows and columns are 0-based in code and 1-based wherever a
// person reads them.
//
// # Formats
//
// [Parse], [ParsePartial] and [ParseAll] read, and [Write] and
// [WritePartial] write, these forms of the board whose queens stand in
// columns 2, 4, 1, 3 (row 1 first):
//
//	list     2 4 1 3   or  2,4,1,3   or  [2,4,1,3]      0 or . is an empty row
//	grid     0100                                         the articles' 0/1 rows;
//	         0001                                         cells may be spaced
//	         1000
//	         0010
//	dots     .Q..      Q or q a queen, . - _ a free square, x or X a blocked one;
//	         ...Q      also LeetCode's one-line [".Q..","...Q","Q...","..Q."]
//	         Q...
//	         ..Q.
//	json     {"n":4,"queens":[2,4,1,3],"blocked":[[1,1]]}  n and blocked optional;
//	         [2,4,1,3]                                    or a plain array
//	unicode  □ ♛ □ ■   output only: light and dark squares, ✕ blocked
//	svg, png           output only: a picture, with coordinates up to
//	                   [MaxLabelN] rows, queen density per pixel over [MaxDetailN]
//
// The JSON form is strict: the names n, queens and blocked exactly as
// written here, each once; whole numbers; a blocked square is a pair
// [row, column]. A UTF-8 byte-order mark before a line (as Notepad writes
// one) is skipped in every format.
//
// A board of N rows and M columns (a variant's, package variant) is a
// [Rect] when written and a [Partial] with Cols = M when read with
// [ParseAllRect]: every format draws M squares a row (pictures are M
// squares wide) and JSON adds the columns after n,
// {"n":3,"cols":5,"queens":[1,3,5]}. The square's rules ([Verify],
// [Partial.Check]) refuse it; on a rectangle only the identity, the half
// turn and the two mirrors are symmetries ([Symmetry.OnRect]).
//
// In a stream, grid and dots boards are blocks of lines separated by blank
// lines or lines starting with '#'; list and JSON boards take one line each
// (JSON Lines). Detection looks at a board's first line: '{' is JSON, '['
// a list (or LeetCode dots if it holds a '"'), only Q . - _ x characters
// dots, 0s and 1s with two or more cells a grid (a lone line of them is a
// list), anything else a list. A board of k·n rows of length n without blank
// lines between is read as k boards, one at a time, and a line opening with
// '{' or '[' ends a grid or dots board. A grid or dots board is read up to
// [MaxGridRows] rows and a line held whole up to 1 MiB, so that a stream
// that never ends a board (`yes .Q..`) is read a board at a time or is an
// error, never held whole.
//
// Each grammar has one reader, in its own file: list.go, json.go, grid.go;
// stream.go cuts a stream into boards and decode.go reads one board. The
// text of every text format is made in one place, append.go ([AppendList],
// [AppendJSON], [AppendBoard], [AppendRow]), which [Write] and the fast
// listing of package solve both use. The
// list and JSON readers take a line a piece at a time, so a line longer than
// 64 KiB (10^8 queens, say) is parsed as it streams in and a board takes
// the memory of its [Placement], not of its text. A column out of range in
// such a line is named by its row alone, as n is known only at its end.
//
// Errors name the line and the character, row or square at fault, so that
// a person can find the mistake in their file.
//
// # Names
//
// Why a board is not a solution is a [ProblemKind], spelled one way in
// messages, in JSON and in every package: "column out of range", "empty
// row", "same column", "same diagonal" (a ↘ line, row − column constant),
// "same anti-diagonal" (a ↙ line, row + column constant) and "blocked
// square". A [Problem] is written in JSON as
// {"kind":"same diagonal","row":2,"col":2,"row2":1,"col2":1}, 1-based, with
// (row2, col2) the earlier queen of an attacking pair.
//
// # Iterators
//
// Enumerations across nqueens follow one convention. One that cannot fail
// is an iter.Seq[T]. One that can (a reader that fails, a context that
// ends, an argument out of range) is an iter.Seq2[T, error]: every pair
// has a nil error except, possibly, the last one, whose error says why the
// sequence ended early and whose T carries nothing else of use (here, the
// line being read). Arguments are checked when the loop starts, so a loop
// is the one place an error comes from:
//
//	for rec, err := range board.ParseAll(r, board.Auto) {
//		if err != nil {
//			return err
//		}
//		…
//	}
//
// A malformed board is not such an error: it is a [Record] whose Err says
// what is wrong, and reading goes on with the next board.
package board
