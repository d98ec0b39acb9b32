// Package cluster runs an exact count of the N-Queens problem on many
// machines. The engines it runs on (Kubernetes Jobs, Slurm arrays, GNU
// parallel, a NATS JetStream work queue) only promise at-least-once
// execution, so exactness is kept here: the work is split into the numbered
// units of package count, every unit result is stored under a key naming
// the run's fingerprint and the unit (a ledger line, or the bucket key of
// the unit's block), the first write wins, a later write with a different
// value is an alarm, and no total is given until every unit is present.
//
// # Array jobs and ledgers
//
// A [Shard] I/K owns the units whose index is I modulo K. Interleaving
// balances the load: unit costs drift with the index (the first units, with
// the top queen near the corner, are the largest), so contiguous ranges would
// give some shards several times the work of others. [RunShard] counts the
// units of a shard that its [Ledger] does not hold yet and appends their
// results to it in batches, one JSON object per line, fsynced:
//
//	{"fingerprint":"nqueens-count engine=3 n=14 …","n":14,"shard":"1/4",
//	 "first":1,"last":1629,"subtotal":91124,"nodes":15734,"seconds":0.41,
//	 "host":"node7","units":[{"index":1,"total":712,"rot180":0,"rot90":0,"nodes":97},…]}
//
// Grammar: a ledger is a sequence of lines; each non-empty line is one such
// object, whose "first" and "last" are the smallest and largest unit index in
// "units", and whose "subtotal" and "nodes" are the sums of the units' totals
// and nodes (checked on reading, so a damaged line is caught). All lines of a
// file carry the same fingerprint. A last line cut short by a kill (no final
// newline, not valid JSON) is ignored and reported; [OpenLedger] cuts it off
// before appending. [Merge] combines ledgers: it refuses different
// fingerprints, accepts a unit found twice with equal results, reports one
// found with different results naming both files and lines, and lists the
// missing units.
//
// # Work queue
//
// [Coordinate] publishes the units of a run to a JetStream stream with the
// work-queue retention policy, in [Block]s of consecutive units, one message
// each (message id run.first, so a retried publish is dropped). Blocks keep
// messaging cheap next to counting: a message costs about a millisecond of
// CPU between client and server, while a unit of N = 17 takes under two; the
// block size ([defaultBlockSize]: about 0.1 s of work, 1 unit from N = 20
// on) is fixed when the run is created and kept in the stream's metadata, so
// every unit belongs to one block for the life of the run. [Work] pulls
// blocks, counts their units, stores the results under the block's key with
// a create-only write ([RecordResult]) and only then acknowledges the
// message, telling the server the block is in progress (at a third of the
// ack wait) while it runs. A worker that dies loses nothing: its
// unacknowledged blocks are delivered again after the ack wait. A second,
// different result for a block is stored as an alarm naming each differing
// unit, and the coordinator then gives no total. A block that keeps failing
// is reported (key failed.<first>) and retried when the coordinator
// restarts, never dropped. The stream, bucket and durable consumer outlive
// the coordinator, so a restarted coordinator resumes.
//
// Bucket keys: block.<first> holds a [BlockRecord], failed.<first> a
// [FailRecord], alarm.<first>.<nonce> an [AlarmRecord].
package cluster
