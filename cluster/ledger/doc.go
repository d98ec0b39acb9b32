// Package ledger runs an exact count of the N-Queens problem as an array
// job (Kubernetes Indexed Jobs, Slurm job arrays, GNU parallel) and adds up
// the results. Those engines promise at-least-once execution only, and the
// machines may be faulty, so exactness is kept here: the work is split into
// the numbered units of package count, every unit result is stored under
// the run's fingerprint and its unit, every result is checked for what its
// unit can give ([count.Check]), no total is given until every unit is
// present, and the total is checked against the published counts for
// N ≤ 27. It imports no networking code; package queue, the NATS JetStream
// work queue, builds on it. docs/security.md says what each defence
// catches.
//
// # Shards
//
// A [Shard] I/K owns the units whose index is I modulo K. Interleaving
// balances the load: unit costs drift with the index (the first units, with
// the top queen near the corner, are the largest), so contiguous ranges would
// give some shards several times the work of others. [RunShard] counts the
// units of a shard that its [Ledger] does not hold yet (with the runner of
// package count) and appends their results to it in batches, one JSON
// object per line, fsynced.
//
// # Ledgers
//
// A ledger line looks like
//
//	{"fingerprint":"nqueens-count engine=3 n=14 …","n":14,"shard":"1/4",
//	 "first":1,"last":1629,"subtotal":91124,"nodes":15734,"seconds":0.41,
//	 "worker":"node7","units":[{"index":1,"total":712,"rot180":0,"rot90":0,"nodes":97},…],
//	 "seal":"3f9a0c17be42.5d0e…"}
//
// Grammar: a ledger is a sequence of lines; each non-empty line is one such
// object, whose "first" and "last" are the smallest and largest unit index in
// "units", whose "subtotal" and "nodes" are the sums of the units' totals
// and nodes, and whose "seal" is the keyed seal of package seal: the ID of
// the key and the HMAC-SHA-256 under it of the same object without the
// seal. A line edited, damaged, or sealed under another key than the one
// in use is refused, named by file and line, for every N: no one without
// the key can make a line that reads. All lines of a file carry the same
// fingerprint. A last line cut short while it was written (by a kill, a
// crash or a full disk: no final newline, not valid JSON) is ignored and
// reported; [Open] cuts it off before appending, and holds an
// operating-system lock on the file while it appends (internal/flock).
//
// # Merge
//
// [Merge] combines ledgers: it refuses different fingerprints, accepts a
// unit found twice with equal results, reports one found with different
// results naming both files and lines ([ConflictError], [Source]), and
// lists the missing units with the shards to rerun ([MissingError]).
package ledger
