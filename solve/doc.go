// Package solve finds solutions: one by the closed-form construction in O(n)
// ([Construct], streamed row by row so that 10^9 rows need no memory), random
// ones by local search ([Random]), and all of them, or one per symmetry
// class, in lexicographic order: [List], [ListEach] and [WriteList] search
// on every core and deliver in order (list.go, order.go, finish.go), [All]
// and [Unique] are the plain one-core enumerations they are tested
// against.
//
// The construction is the classical explicit solution (Ahrens 1910,
// Hoffman, Loessi and Moore 1969) with cases on n mod 6. Write the even
// columns 2, 4, … followed by the odd columns 1, 3, … (1-based): this list,
// read as the column of each row in turn, is a solution unless n mod 6 is 2
// or 3. For n mod 6 = 2 the odd part becomes 3, 1, 7, 9, …, n-1, 5; for
// n mod 6 = 3 the even part becomes 4, 6, …, n-1, 2 and the odd part
// 5, 7, …, n, 1, 3. There is no solution for n = 2 and n = 3.
package solve
