package solve

import "fmt"

// Rule says in words how the construction places the queens for this n, by
// n mod 6 (the case that decides it).
func (p Pattern) Rule() string {
	n := p.n
	if n == 1 {
		return "n = 1: the one queen stands on the one square."
	}
	base := fmt.Sprintf("n = %d and n mod 6 = %d (the remainder of n divided by 6), so ", n, p.rest)
	switch p.rest {
	case 2:
		return base + "the columns are read in the order 2, 4, 6, …, then 3, 1, then 7, 9, …, and 5 last: the two staircases of the plain rule, with the odd one reordered at its ends so that no two queens share a diagonal."
	case 3:
		return base + "the columns are read in the order 4, 6, …, n − 1, then 2, then 5, 7, …, n, then 1 and 3: the two staircases start one step further on and wrap their first steps to the end."
	}
	return base + "the plain rule works: the first half of the rows take the even columns 2, 4, 6, … and the second half the odd columns 1, 3, 5, …: two staircases of knight's moves, one row down and two columns right, which never share a diagonal."
}

// Run is a staircase of the construction: count queens from (Row, Col),
// 0-based, each one row down and two columns right of the one before.
type Run struct {
	Row   int `json:"row"`
	Col   int `json:"col"`
	Count int `json:"count"`
}

// Runs cuts the pattern into its staircases, in row order: every queen is
// in exactly one run. Cost O(n) time, O(runs) memory (at most 7 runs).
func (p Pattern) Runs() []Run {
	var runs []Run
	for r := range p.n {
		c := p.Col(r)
		if k := len(runs) - 1; k >= 0 && runs[k].Row+runs[k].Count == r && runs[k].Col+2*runs[k].Count == c {
			runs[k].Count++
			continue
		}
		runs = append(runs, Run{Row: r, Col: c, Count: 1})
	}
	return runs
}
