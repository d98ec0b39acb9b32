// Package cluster runs an exact count of the N-Queens problem on many
// machines. The engines it runs on (Kubernetes Jobs, Slurm arrays, GNU
// parallel, a NATS JetStream work queue) only promise at-least-once
// execution, and the machines may be faulty or, in a volunteer pool,
// hostile, so exactness is kept here: the work is split into the numbered
// units of package count, every unit result is stored under a key naming
// the run's fingerprint and the unit, every result is checked for what its
// unit can give ([count.Check]), no total is given until every unit is
// present, and the total is checked against the published counts for
// N ≤ 27. docs/security.md says what each defence catches.
//
// # Array jobs and ledgers
//
// A [Shard] I/K owns the units whose index is I modulo K. Interleaving
// balances the load: unit costs drift with the index (the first units, with
// the top queen near the corner, are the largest), so contiguous ranges would
// give some shards several times the work of others. [RunShard] counts the
// units of a shard that its [Ledger] does not hold yet (with the runner of
// package count) and appends their results to it in batches, one JSON
// object per line, fsynced:
//
//	{"fingerprint":"nqueens-count engine=3 n=14 …","n":14,"shard":"1/4",
//	 "first":1,"last":1629,"subtotal":91124,"nodes":15734,"seconds":0.41,
//	 "worker":"node7","units":[{"index":1,"total":712,"rot180":0,"rot90":0,"nodes":97},…],
//	 "sha256":"…"}
//
// Grammar: a ledger is a sequence of lines; each non-empty line is one such
// object, whose "first" and "last" are the smallest and largest unit index in
// "units", whose "subtotal" and "nodes" are the sums of the units' totals
// and nodes, and whose "sha256" is the SHA-256 of the same object encoded
// without it, so that a flipped bit or an edit is caught on reading and
// named by file and line. All lines of a file carry the same fingerprint. A
// last line cut short by a kill (no final newline, not valid JSON) is
// ignored and reported; [OpenLedger] cuts it off before appending. [Merge]
// combines ledgers: it refuses different fingerprints, accepts a unit found
// twice with equal results, reports one found with different results naming
// both files and lines, and lists the missing units with the shards to
// rerun.
//
// # Work queue
//
// [Coordinate] publishes the units of a [Run] to a JetStream stream with
// the work-queue retention policy, in [Block]s of consecutive units, one
// message per result needed. Blocks keep messaging cheap next to counting:
// a message costs about a millisecond of CPU between client and server,
// while a unit of N = 17 takes under two; the block size (about 0.1 s of
// work, 1 unit from N = 20 on) and the number of results each block needs
// (Replicas) are fixed when the run is created and kept in the stream's
// metadata. [Work] pulls blocks, counts their units, stores the result
// under a key naming the block and the worker with a create-only write, and
// only then acknowledges the message, telling the server the block is in
// progress (at a third of the ack wait) while it runs. A worker that dies
// loses nothing: its unacknowledged blocks are delivered again after the
// ack wait.
//
// The coordinator decides each block like BOINC validates volunteers'
// work: a block is decided when Replicas different workers agree; a block
// whose results disagree, or that a random spot check picks
// (VerifyFraction), is counted again by the coordinator itself; a worker
// whose result differs from that count is banned, all its results are
// discarded, and their blocks are published again for others. A block that
// keeps failing is reported (key failed.<first>) and retried when the
// coordinator restarts, never dropped. The stream, bucket and durable
// consumer outlive the coordinator, so a restarted coordinator resumes.
//
// Bucket keys: vote.<first>.<worker> holds a worker's result for a block,
// failed.<first> a failure, alarm.<first>.<nonce> two different results of
// one worker for one block (which bans it), banned.<worker> a ban. Worker
// names appear in keys as a hash, since names are free text.
package cluster
