// Package board holds the n×n board with at most one queen a row
// ([Placement]), its text and picture formats, verification of solutions
// with the exact reason when a board is not one, and the 8 symmetries of the
// square (D4) with orbits and canonical representatives.
//
// Every other package of nqueens imports this one and nothing flows back.
// Rows and columns are 0-based in code and 1-based wherever a person reads
// them.
package board
