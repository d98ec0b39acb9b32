// Package queue runs an exact count of the N-Queens problem on a NATS
// JetStream work queue. The queue only promises at-least-once execution,
// and the machines may be faulty or, in a volunteer pool, hostile, so
// exactness is kept here: the work is split into the numbered units of
// package count, every unit result is stored under a key naming the run's
// fingerprint and the unit, every result is checked for what its unit can
// give ([count.Check]), no total is given until every unit is present, and
// the total is checked against the published counts for N ≤ 27. Array
// jobs and their ledgers are package ledger's, which this package builds
// on. docs/security.md says what each defence catches.
//
// # Work queue
//
// [Coordinate] publishes the units of a [Run] to a JetStream stream with
// the work-queue retention policy, in [Block]s of consecutive units, one
// message per result needed, each sealed under the pool's key. Blocks
// keep messaging cheap next to counting: a message costs about a
// millisecond of CPU between client and server, while a unit of N = 17
// takes under two; the block size (about 0.1 s of work, 1 unit from
// N = 20 on) and the number of results each block needs (Replicas) are
// fixed when the run is created and kept in the stream's metadata, with
// the ID of the seal key. [Work] pulls blocks, removes one the
// coordinator did not seal, counts their units, stores the result under a
// key naming the block and the worker with a create-only write, and only
// then acknowledges the message, telling the server the block is in
// progress (at a third of the ack wait) while it runs. A worker that dies
// loses nothing: its unacknowledged blocks are delivered again after the
// ack wait. A worker publishes no block message: a copy it may not count
// (it voted on the block already) it acknowledges, and tells the
// coordinator on its own subject, which publishes a fresh copy if the
// block still lacks one. On a server with NKey users (the embedded one,
// deploy/nats) each worker's key may do just that, under its own name
// (see workerPermissions).
//
// The coordinator decides each block like BOINC validates volunteers'
// work: a block is decided when Replicas different workers agree; a block
// whose results disagree, that a random spot check picks
// (VerifyFraction), or whose result lies outside its units' random-probe
// estimate (UnitProbes, by default past the published counts) is counted
// again by the coordinator itself; a worker whose result differs from
// that count is banned, all its results are discarded, and their blocks
// are published again for others. A block that no worker finishes in
// MaxDeliver attempts is counted by the coordinator itself (key
// failed.<first> records it), never dropped: whatever keeps workers from a
// block, a worker's key among them, the run ends with the right count.
// The stream, bucket and durable consumer outlive the coordinator, so a
// restarted coordinator resumes.
//
// At its checks, whatever the workers are doing, the coordinator compares
// what each block lacks with the block messages in the stream: it
// publishes the copies a block lacks, and removes the copies of decided
// blocks. A vote names the message it was counted from, which the
// coordinator removes if it is still there (the worker acknowledges it
// after storing the vote) before it reads the stream: no copy counts
// twice, as a message and as a vote, and a banned worker's vote, which
// does not count, leaves its block short of a copy at once. When no block
// is decided for 30 s, the coordinator says what the run waits for. What
// peers can send it at will it says once a minute per kind and worker.
//
// Bucket keys: vote.<first>.<worker> holds a worker's result for a block,
// failed.<first>.<worker> a worker's report of a failure, failed.<first>
// the coordinator's sealed record of a block that ran out of deliveries,
// alarm.<first>.<worker>.<nonce> two different results of one worker for
// one block (which bans it), banned.<worker> a ban, refused.<worker> why
// the coordinator refuses a worker's results, worker.<worker> a worker's
// presence. <worker> is the voter's public key, or a hash of the label of
// a worker of the shared credential, since labels are free text.
//
// # Files
//
// coordinator.go runs a run: its loop and checks; options.go holds its
// options and their defaults, open.go creates or finds the run's stream,
// bucket and consumer and loads what they hold, and waiting.go says what
// a run waits for. publish.go puts block messages on the stream and
// removes those nobody needs, handback.go publishes copies of blocks
// workers gave back; bucket.go reads the results, failures, alarms and
// bans stored in the run's bucket; book.go decides each block from its
// votes (vote.go); recount.go counts blocks again and unitcheck.go checks
// votes against their units' estimates, on the coordinator's cores
// (pool.go). pace.go makes the timed decisions of coordinator and worker
// (how often to look at what blocks lack, probe the store, say the run
// waits; how long a declined copy rests, when a worker is idle), and
// jsio.go is every call the coordinator's loop makes to JetStream: apart,
// so that the tests of the timing run on a fake clock. worker.go finds
// runs and pulls blocks; countblock.go counts one and stores its vote,
// decline.go gives back a copy the worker may not count; name.go checks
// a worker's label. run.go and keys.go name a run's
// blocks, streams and bucket keys; connect.go and server.go are the
// client connection and the embedded nats-server; lograte.go keeps what
// peers can cause at will from flooding the log; storelock.go keeps one
// coordinator per store.
package queue
