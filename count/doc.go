// Package count counts the solutions of the N-Queens problem exactly, both
// all of them (OEIS A000170) and their classes under the 8 symmetries of the
// square (OEIS A002562), split into numbered work units that run on all cores,
// resume from a checkpoint, and can be farmed out to other machines.
//
// # Method
//
// Two engines count, each for the N where it is faster (measured; see
// docs/engine.md): the join of half boards for N = [JoinFrom] to [JoinTo],
// the tree search over border constellations for the others. Both give the
// unique count from Burnside's lemma, with the solutions that rotations fix
// counted by the same small search.
//
// The join. Cut the board into a left and a right half of (N−s)/2 columns
// each, with s = N mod 2 columns (the middle one) between them. A solution
// is a placement of the left half (one queen in each of its columns, on a
// set E of rows), one of the middle column, and one of the right half on
// the remaining rows, such that no two share a diagonal. For each E (and
// middle queen) the left half's placements are built by joining tables of
// the placements of its top and bottom quarters, the right half's likewise
// (mirrored), and the pairs whose 4·(N−s)/2 − 2 crossing diagonals do not
// meet are counted 512 at a time by bit-sliced tables (AVX-512 where the
// CPU has it). The mirrors in the middle column and the middle row, and
// the half turn, keep the halves apart: of the keys (E, middle queen) they
// map onto each other, one is counted and weighted by how many there are.
// Units are runs of keys, plus one unit per constellation a half turn fixes
// for the rotation counts (below). The quarter tables take memory: about
// 30 MB for N = 18, 2 GB for N = 22 and 7 GB for N = 23; a count refuses to
// start where the system has less available.
//
// Constellations. Every solution has exactly one queen in the top row, the
// bottom row, the left column and the right column (a corner queen counts
// for its row and its column). Their positions form the solution's
// [Constellation]. A symmetry g of the square moves the border to itself, so
// the constellation of g·S is g applied to the constellation of S, and g is a
// bijection between the solutions with constellation σ and those with g·σ.
// Grouping the constellations into orbits under D4 therefore gives
//
//	Total = Σ over representatives σ of |orbit(σ)| · N(σ),
//
// where N(σ) counts the completions of σ's border queens and |orbit(σ)| is
// 8, 4, 2 or 1 (8 divided by the number of symmetries fixing σ). The
// representative of an orbit is its smallest member in the order (Top,
// Bottom, Left, Right); each representative is one work unit, numbered in
// that order (3206 units for N = 16). This is exact for any choice of one
// representative per orbit: every solution is counted once through its own
// constellation's orbit, and nothing else is counted.
//
// Unique count. By Burnside's lemma the number of classes is the average,
// over the 8 symmetries, of the number of solutions each fixes. The identity
// fixes Total. No reflection fixes a solution for N > 1: a left-right mirror
// would need each queen on the middle column; a top-bottom mirror the same
// for rows; a transpose maps a queen (r, c) off the main diagonal to (c, r),
// which lies on the same anti-diagonal r+c, so every queen would be on the
// main diagonal, where at most one fits (the anti-transpose likewise). The
// quarter turns each fix Rot90 solutions and the half turn Rot180, so
//
//	Unique = (Total + Rot180 + 2·Rot90) / 8.
//
// A solution fixed by a rotation has a constellation fixed by it, so Rot180
// and Rot90 are counted inside the few units whose constellation a rotation
// fixes, by a separate search that places whole orbits of squares (a queen
// with its 2 or 4 images) and weighted by the orbit size as above; rotations
// commute with or are conjugated into each other by the symmetries, so every
// member of an orbit has the same number. The division by 8 is checked to be
// exact. N = 1 is the one board where reflections fix a solution; its unique
// count is 1.
//
// Split units. From N = [SplitFrom] to [SplitTo] a representative's
// search is cut once more: the engine's first branching row for its board
// is fixed (it depends on the board alone), and each free square of that
// row becomes a unit of its own. The completions of σ are the disjoint
// union over those squares of the completions with that queen placed, so
// the sum is unchanged; the rotation searches run once, in σ's first unit.
// This takes the largest unit from about 1/500 to 1/4000 of the work.
//
// Search. For the N the tree counts, each unit starts from its border
// queens and fills the other rows
// with the engine of internal/kernel: a depth-first search on bit masks that
// branches on the empty row with the fewest free squares (so dead ends and
// forced moves surface at once; on ties the row nearest the middle, whose
// diagonals reach furthest), prunes a node as soon as an empty row has no
// free square or a free column can no longer be taken by any empty row,
// counts the last three rows in closed form, and keeps an explicit
// fixed-size stack (no recursion, no allocation). Diagonals are kept as
// absolute sets so rows can be taken in any order. At N = 16 it visits 47
// million nodes (engine version 3) against 1141 million for the plain
// row-by-row search, and the counts of rotated boards come almost for free.
// On amd64 the same tree is searched level by level, the rows of eight nodes
// at a time in AVX2 vector instructions (or by the loop in assembly where
// the CPU lacks AVX2), node for node the Go loop; the experiments behind
// this engine, kept or not, are in docs/engine-log.md.
//
// # Units and checkpoints
//
// [Units], [Unit] and [UnitIndex] are the bijection between unit numbers and
// [UnitSpec]s (a constellation, and its split square where there is one)
// for the tree; the join's units are runs of keys of internal/join;
// [CountUnit] searches one unit and [RunUnits] many, on every core; a
// [Tally] adds [UnitResult]s up into a [Result], refusing duplicates,
// overflow (counts are 128-bit, [Uint128]) and results no correct search
// gives ([Check]: each count a multiple of its orbit size, rotation counts
// only where the rotation fixes the constellation), and checks the sum
// by Burnside's lemma constellation by constellation and against the
// published counts ([Known]) before it gives a number. [Fingerprint] names
// N, the unit scheme and [EngineVersion]; a [Checkpoint] carries it with
// the finished units and a SHA-256 checksum, and is written atomically; a
// [CheckpointFile] keeps one current while [Count] runs.
//
// # Estimates
//
// [EstimateTree] runs Knuth's random probes (Math. Comp. 29, 1975) over the same
// units and search tree: each probe picks a unit at random and follows a
// random path, and the product of the branching factors met is an unbiased
// estimate of that unit's nodes and solutions.
package count
