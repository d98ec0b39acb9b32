package queue

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/seal"
)

// CoordinatorOptions tune [Coordinate]. The zero value is usable.
type CoordinatorOptions struct {
	// AckWait is how long a worker may hold a block without reporting
	// progress before the server delivers it to another (default 1 min;
	// workers report progress at a third of it).
	AckWait time.Duration
	// MaxDeliver is the number of attempts after which a failing block is
	// reported instead of delivered again (default 5).
	MaxDeliver int
	// BlockSize is the number of units per message; 0 means about 0.1 s of
	// work a block. Replicas is the number of distinct voters (credentials,
	// see Voters) that must agree on each block (default 1). Both are fixed
	// when the run is created: resuming a run with other explicit values is
	// an error.
	BlockSize int
	Replicas  int
	// Key seals and opens every result: the pool's seal key, which every
	// worker holds (required).
	Key *seal.Key
	// Voters are the public user NKeys whose signed results count as
	// distinct voters (the keys an embedded server admits, or the users of
	// your server). Without them every worker votes with one shared
	// credential, and Replicas must be 1.
	Voters []string
	// UnitProbes is the number of random probes down each unit's search
	// tree by which the coordinator checks every result against its
	// unit's estimate ([count.UnitEstimate]): a result far outside it is
	// counted again by the coordinator before it counts, and a worker
	// whose result differs is banned. 0 means [count.UnitProbes] past the
	// published counts, where nothing else checks a unit's size, and none
	// within them (the table checks the total); negative means none. The
	// N counted by the join of half boards have no such estimate (all are
	// within the table). The checks run on VerifyWorkers cores.
	UnitProbes int
	// VerifyFraction is the share of blocks (0 to 1) that the coordinator
	// counts again itself, chosen at random after a worker's result
	// arrives; a worker whose result differs is banned and all its results
	// are counted again. VerifyWorkers is the number of cores it uses for
	// that (default 1).
	VerifyFraction float64
	VerifyWorkers  int
	// StreamReplicas is the number of copies of the run's stream and
	// bucket on a clustered NATS server (default 1).
	StreamReplicas int
	// Revoke, if set, shuts the key of each banned voter out of the
	// server, and reports whether the server admitted it
	// ([EmbeddedServer.Revoke]): a key caught lying may not go on to
	// spend the run's deliveries or flood it.
	Revoke func(voter string) (bool, error)
	// StoreHealth, if set, reports a write error of the server's store,
	// such as a full disk ([EmbeddedServer.StoreError]): the coordinator
	// asks it when nothing was decided between two checks.
	StoreHealth func() error
	// Progress, if set, is called about every ProgressEvery (default 5 s)
	// and once at the end, from one goroutine.
	Progress      func(RunProgress)
	ProgressEvery time.Duration
	// Log receives one record per notable event: resuming, blocks
	// published, failures, alarms, bans. Nil discards them.
	Log *slog.Logger
}

// RunProgress reports the state of a run.
type RunProgress struct {
	Run      Run
	Done     int           // units with a decided result
	Resumed  int           // of those, decided from results found at the start
	Failed   []Block       // blocks the server gave up delivering
	Banned   []string      // labels of the workers whose results were found wrong
	Checking int           // blocks waiting for the coordinator's own count
	Workers  int           // distinct voters (credentials, or labels of the shared one) whose results count
	Nodes    count.Uint128 // search nodes of the results stored since the start
	Elapsed  time.Duration
}

// RunResult is a finished run: its count, and what backs it.
type RunResult struct {
	count.Result
	Backing Backing
}

// QuorumError refuses a run whose Replicas its voters can never meet.
type QuorumError struct {
	Replicas int
	Voters   int // keys of the voters list; 0 when every worker shares one credential
}

func (e *QuorumError) Error() string {
	if e.Voters == 0 {
		return fmt.Sprintf("--replicas %d needs every block counted by %d distinct credentials, and without NKeys all workers vote with one shared credential (loopback without credentials, or a token), however they are named: "+
			"give each worker its own NKey and list the public keys with --auth-nkeys (see docs/security.md), or run with --replicas 1 and --verify-fraction above 0", e.Replicas, e.Replicas)
	}
	return fmt.Sprintf("--replicas %d needs every block counted by %d distinct credentials, and --auth-nkeys lists %d: add keys, or run with fewer replicas", e.Replicas, e.Replicas, e.Voters)
}

// withDefaults fills in and checks o.
func (o CoordinatorOptions) withDefaults(n int) (CoordinatorOptions, error) {
	if err := board.CheckSize(n, "a run", count.MaxN); err != nil {
		return o, err
	}
	if o.AckWait <= 0 {
		o.AckWait = time.Minute
	}
	if o.MaxDeliver <= 0 {
		o.MaxDeliver = 5
	}
	if o.StreamReplicas <= 0 {
		o.StreamReplicas = 1
	}
	if o.VerifyWorkers <= 0 {
		o.VerifyWorkers = 1
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 5 * time.Second
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	switch {
	case o.BlockSize < 0 || o.BlockSize > MaxBlockSize:
		return o, fmt.Errorf("block size %d is outside 1..%d", o.BlockSize, MaxBlockSize)
	case o.Replicas < 0 || o.Replicas > MaxReplicas:
		return o, fmt.Errorf("replicas %d is outside 1..%d", o.Replicas, MaxReplicas)
	case !(o.VerifyFraction >= 0 && o.VerifyFraction <= 1):
		return o, fmt.Errorf("verify fraction %g is outside 0..1", o.VerifyFraction)
	case o.Key == nil:
		return o, errors.New("a run needs the pool's seal key")
	}
	_, _, known := count.Known(n)
	join := n >= count.JoinFrom && n <= count.JoinTo
	switch {
	case o.UnitProbes > 0 && join:
		return o, fmt.Errorf("unit probes: the board of %d rows is counted by the join of half boards, whose units have no probe estimate to check results against", n)
	case o.UnitProbes == 0 && !known && !join:
		o.UnitProbes = count.UnitProbes
	case o.UnitProbes < 0:
		o.UnitProbes = 0
	}
	return o, nil
}
