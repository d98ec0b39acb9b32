// Package cluster runs an exact count of the N-Queens problem on many
// machines. The engines it runs on (Kubernetes Jobs, Slurm arrays, GNU
// parallel, a NATS JetStream work queue) only promise at-least-once
// execution, so exactness is kept here: the work is split into the numbered
// units of package count, every unit result is stored under the key (run
// fingerprint, unit), the first write wins, a later write with a different
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
//	{"fingerprint":"nqueens-count engine=1 n=14 …","n":14,"shard":"1/4",
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
// work-queue retention policy (message id run.unit, so a retried publish is
// dropped) and tallies the results from a key-value bucket. [Work] pulls
// units, counts them, stores the result with a create-only write
// ([RecordResult]) and only then acknowledges the message, telling the server
// the unit is in progress while it runs. A worker that dies loses nothing:
// its unacknowledged units are delivered again after the ack wait. A unit
// that keeps failing is reported (key failed.<unit>) and retried when the
// coordinator restarts, never dropped. The stream, bucket and durable
// consumer outlive the coordinator, so a restarted coordinator resumes.
package cluster
