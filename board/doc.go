// Package board holds the n×n board with at most one queen a row
// ([Placement]), its text and picture formats, verification of solutions
// with the exact reason when a board is not one, and the 8 symmetries of the
// square (D4) with orbits and canonical representatives.
//
// Every other package of nqueens imports this one and nothing flows back.
// Rows and columns are 0-based in code and 1-based wherever a person reads
// them.
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
// In a stream, grid and dots boards are blocks of lines separated by blank
// lines or lines starting with '#'; list and JSON boards take one line each
// (JSON Lines). Detection looks at a board's first line: '{' is JSON, '['
// a list (or LeetCode dots if it holds a '"'), only Q . - _ x characters
// dots, 0s and 1s with two or more cells a grid (a lone line of them is a
// list), anything else a list. A board of k·n rows of length n without blank
// lines between is read as k boards, and a line opening with '{' or '['
// ends a grid or dots board. A list line longer than 64 KiB (even one of 0s
// and 1s) is parsed as it streams in, so that a board of 10^8 queens takes
// the memory of its [Placement], not of its text; a column out of range in
// such a line is named by its row, as n is known only at its end.
//
// Errors name the line and the character, row or square at fault, so that
// a person can find the mistake in their file.
package board
