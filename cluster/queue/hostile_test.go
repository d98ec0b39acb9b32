package queue

// Hostile tests: the forgeries of issue 22 replayed against the queue, past
// the published counts, where nothing but the queue's own checks can tell a
// forged total from a true one.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/syncbuf"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/seal"
)

// forgedTotal is a made-up result of every unit of N = 28, a multiple of 8
// whose sum lies within a few percent of the estimate of the true count
// (2.49e18): it passes every check of one result and the estimate's spread.
const forgedTotal = 2_837_465_890_000

// forge stores, for the first blocks of run (all when blocks is 0), a
// made-up vote sealed under key and signed as id, each under a label of its
// own ("forger-k"), as the attacker did with 430 fresh worker names.
func forge(ctx context.Context, t *testing.T, kv jetstream.KeyValue, run Run, key *seal.Key, id Identity, blocks int) {
	t.Helper()
	for k := range run.blocks() {
		if blocks > 0 && k >= blocks {
			return
		}
		b := run.block(k)
		v := vote{N: run.N, First: b.First, Last: b.Last, Worker: fmt.Sprintf("forger-%d", k), Delivered: 1}
		for u := b.First; u <= b.Last; u++ {
			v.Units = append(v.Units, count.UnitResult{Index: u, Total: forgedTotal, Nodes: 10 * forgedTotal})
		}
		val, err := signVote(v, key, id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := kv.Put(ctx, voteKey(b, id.token(v.Worker)), val); err != nil {
			t.Fatal(err)
		}
	}
}

// TestForgedRunPastTheTable forges a whole run of N = 28 through the
// queue: every block voted with a plausible made-up result under rotating
// names, by a client without credentials (the shared credential) or with
// one NKey of the voters list. No case gives a total: a run with no
// independent check (no recount, one replica) is refused at start, as is
// --replicas 2 of the shared credential; one credential never makes a
// quorum of two (the coordinator says why it waits, naming the worker),
// and results not sealed under the pool's key are refused. The forger
// votes on the first blocks only: the coordinator answers the first ones.
func TestForgedRunPastTheTable(t *testing.T) {
	if testing.Short() {
		t.Skip("stores tens of MB of forged results of N = 28")
	}
	const n = 28
	forger := newIdentity(t)
	stranger, _ := seal.FromSecret(bytes.Repeat([]byte{0x66}, 32))
	tests := []struct {
		name     string
		replicas int
		voters   []string
		id       Identity
		key      *seal.Key
		presence bool     // the forger says it is at work
		want     any      // the error Coordinate returns: *UnbackedError or *QuorumError; nil: it must not end
		log      []string // in the coordinator's log
	}{
		{"no credentials", 1, nil, SharedIdentity(), testKey, false, &UnbackedError{}, nil},
		{"no credentials, --replicas 2", 2, nil, SharedIdentity(), testKey, false, &QuorumError{}, nil},
		{"one credential", 1, []string{forger.Public()}, forger, testKey, false, &UnbackedError{}, nil},
		{"one credential, --replicas 2", 2, []string{forger.Public(), newIdentity(t).Public()}, forger, testKey, true, nil,
			[]string{"waiting: the run's --replicas needs", "replicas=2 credentials_at_work=1", `workers="forger (` + voterName(forger.Public()) + `)"`}},
		{"without the pool's key", 2, []string{forger.Public(), newIdentity(t).Public()}, forger, stranger, false, nil,
			[]string{"a worker's results are refused, and do not count", "its results are sealed under key " + stranger.ID()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, url := startServer(t, t.TempDir())
			ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
			defer cancel()
			var logged syncbuf.Buffer
			o := CoordinatorOptions{Key: testKey, Voters: tt.voters, Replicas: tt.replicas, BlockSize: MaxBlockSize, AckWait: time.Second,
				Log: slog.New(slog.NewTextHandler(&logged, nil))}
			if tt.want != nil {
				// Refused before anything is made: no run, no stream.
				_, err := Coordinate(ctx, connect(t, url), n, o)
				var qe *QuorumError
				var ue *UnbackedError
				switch tt.want.(type) {
				case *QuorumError:
					if !errors.As(err, &qe) || !strings.Contains(err.Error(), "--replicas 2 needs every block counted by 2 distinct credentials") {
						t.Fatalf("Coordinate = %v; want a QuorumError", err)
					}
				case *UnbackedError:
					if !errors.As(err, &ue) || !ue.AtStart || !strings.Contains(err.Error(), "would rest on no check independent of the workers: nothing was started") {
						t.Fatalf("Coordinate = %v; want an UnbackedError at start", err)
					}
				}
				js, _ := jetstream.New(connect(t, url))
				if _, err := js.Stream(ctx, runFor(n, MaxBlockSize, 2).Stream); !errors.Is(err, jetstream.ErrStreamNotFound) {
					t.Errorf("the refused run's stream: %v, want none", err)
				}
				return
			}
			c := openRun(ctx, t, url, n, o)
			if tt.presence {
				p, _ := testKey.Seal(presence{Worker: "forger", Voter: forger.Public(), At: time.Now()})
				go func() {
					for ctx.Err() == nil {
						c.kv.Put(ctx, presenceKey(forger.token("forger")), p)
						time.Sleep(presenceEvery) // the pace of a worker's presence records, which the forger imitates
					}
				}()
			}
			forge(ctx, t, c.kv, c.run, tt.key, tt.id, 4)
			rctx, stop := context.WithCancel(ctx)
			var wg sync.WaitGroup
			var r RunResult
			var err error
			wg.Go(func() { r, err = Coordinate(rctx, connect(t, url), n, o) })
			testkit.WaitFor(t, "the coordinator to say why no total comes", func() bool {
				for _, s := range tt.log {
					if !strings.Contains(logged.String(), s) {
						return false
					}
				}
				return true
			})
			stop()
			wg.Wait()
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Coordinate = %v, %v; want it still waiting when stopped", r.Total, err)
			}
			if r.Total != (count.Uint128{}) {
				t.Errorf("a forged total came out: %v", r.Total)
			}
		})
	}
}

// TestOneVoterWaits runs --replicas 2 with one worker's credential: the
// coordinator says, within seconds, that it waits for another credential,
// naming --replicas and the worker, and the worker's copies of the blocks
// it already voted on slow down to a round every 2 s (they went round some
// twenty times a second, for ever): by the time the coordinator says it
// waits, no copy has gone round more often than the back-off allows in
// that time (TestDeclinedCopiesBackOff times each rest on the fake clock).
func TestOneVoterWaits(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the coordinator's grace of ten seconds")
	}
	const n, size = 8, 16
	a, b := newIdentity(t), newIdentity(t)
	_, url := startServer(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	var logged syncbuf.Buffer
	o := CoordinatorOptions{Key: testKey, Voters: []string{a.Public(), b.Public()}, Replicas: 2, BlockSize: size, AckWait: 30 * time.Second,
		Log: slog.New(slog.NewTextHandler(&logged, nil))}
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	start := time.Now()
	go Coordinate(rctx, connect(t, url), n, o)
	go Work(rctx, connect(t, url), WorkerOptions{Key: testKey, Identity: a, Name: "w-a", Workers: 2})
	run := runFor(n, size, 2)
	js, _ := jetstream.New(connect(t, url))
	testkit.WaitFor(t, "the coordinator to say why it waits", func() bool {
		return strings.Contains(logged.String(), `replicas=2 credentials_at_work=1 workers="w-a (`+voterName(a.Public())+`)"`)
	})
	elapsed := time.Since(start)
	s, err := js.Stream(ctx, run.Stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Two copies of each block at first, one of which a counts; the
	// other goes round once per rest, the rests doubling from
	// declineFirst to declineMax, each drawn between half of that and
	// all of it (spreadRest): the back-off allows the rounds of the
	// shortest rests.
	var rounds uint64
	for rest, t := declineFirst, time.Duration(0); t <= elapsed; rest = min(2*rest, declineMax) {
		t += spreadRestMin(rest)
		rounds++
	}
	if limit := uint64(run.blocks()) * (2 + rounds); info.State.LastSeq > limit {
		t.Errorf("%d messages in %s (%d blocks): more than the back-off allows (%d); the worker spins", info.State.LastSeq, elapsed.Round(time.Millisecond), run.blocks(), limit)
	}
	t.Logf("%d messages in %s for %d blocks", info.State.LastSeq, elapsed.Round(time.Millisecond), run.blocks())
}

// TestLazyWorkerRecounted: a worker with an NKey of its own stores, for
// every block of N = 12, results it made up without counting (totals of
// 0 and few nodes, which every check of a single result lets pass), before
// the coordinator starts. With the estimate checks (UnitProbes) the
// coordinator finds them outside their units' estimates, counts those
// blocks itself, bans the worker, and an honest worker's results give the
// exact count, with no spot check and one replica. Without them, the
// published table refuses the total.
func TestLazyWorkerRecounted(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the coordinator's check to publish the banned worker's blocks again")
	}
	const n = 12
	lazy, honest := newIdentity(t), newIdentity(t)
	for _, probes := range []int{count.UnitProbes, -1} {
		t.Run(fmt.Sprintf("probes %d", probes), func(t *testing.T) {
			_, url := startServer(t, t.TempDir())
			ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
			defer cancel()
			var logged syncbuf.Buffer
			var revoked []string // by the coordinator's loop, read once it has returned
			o := CoordinatorOptions{Key: testKey, Voters: []string{lazy.Public(), honest.Public()}, BlockSize: 64, AckWait: time.Second,
				UnitProbes: probes, Log: slog.New(slog.NewTextHandler(&logged, nil)),
				Revoke: func(voter string) (bool, error) { revoked = append(revoked, voter); return true, nil }}
			c := openRun(ctx, t, url, n, o)
			for k := range c.run.blocks() {
				b := c.run.block(k)
				v := vote{N: n, First: b.First, Last: b.Last, Worker: "lazy", Delivered: 1}
				for u := b.First; u <= b.Last; u++ {
					v.Units = append(v.Units, count.UnitResult{Index: u, Nodes: 1})
				}
				if _, _, err := storeVote(ctx, c.kv, v, testKey, lazy); err != nil {
					t.Fatal(err)
				}
			}
			wctx, stop := context.WithCancel(ctx)
			defer stop()
			go Work(wctx, connect(t, url), WorkerOptions{Key: testKey, Identity: honest, Name: "honest", Workers: 2})
			r, err := Coordinate(ctx, connect(t, url), n, o)
			if probes < 0 {
				var me *count.MismatchError
				if !errors.As(err, &me) {
					t.Fatalf("without estimate checks: %v, %v; want the table to refuse the total", r.Total, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := reference.Check(n, r.Total.String(), r.Unique.String()); err != nil {
				t.Error(err)
			}
			if !slices.Equal(revoked, []string{lazy.Public()}) {
				t.Errorf("keys shut out of the server: %v, want the lazy worker's", revoked)
			}
			for _, want := range []string{`msg="a result lies outside its units' estimate; the coordinator counts it again" units=0-63 worker=lazy`,
				`msg="ALARM: a worker is banned; its results are discarded and counted again" worker=lazy`,
				`msg="the banned key can no longer connect to the server" voter=` + voterName(lazy.Public())} {
				if !strings.Contains(logged.String(), want) {
					t.Errorf("the coordinator's log lacks %q:\n%s", want, logged.String())
				}
			}
		})
	}
	if _, err := (CoordinatorOptions{Key: testKey, UnitProbes: 10}).withDefaults(16); err == nil || !strings.Contains(err.Error(), "no probe estimate") {
		t.Errorf("estimate checks of a run of the join: %v", err)
	}
}

// TestForgedBlocksDiscarded starts a coordinator over a queue that holds
// forged block messages on the run's real subjects, as a client without
// credentials can publish on loopback: bodies unsealed, sealed under
// another key, and a genuine body under another block's subject. Each is
// removed by the worker that takes it (it used to be handed back until it
// ran out of deliveries, and then set its genuine block aside: the run
// ended with exit 1, and a restart made no progress); the run gives the
// exact count, and no block is set aside.
func TestForgedBlocksDiscarded(t *testing.T) {
	const n, forgeries = 8, 300
	_, url := startServer(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	o := CoordinatorOptions{Key: testKey, BlockSize: 8, MaxDeliver: 2, AckWait: time.Second, Log: testLogger(t)}
	c := openRun(ctx, t, url, n, o)
	stranger, _ := seal.FromSecret(bytes.Repeat([]byte{0x66}, 32))
	js, _ := jetstream.New(connect(t, url))
	for i := range forgeries {
		b := c.run.block(i % c.run.blocks())
		job := blockJob{Run: c.run.ID, N: n, First: b.First, Last: b.Last, Replicas: 1}
		var body []byte
		switch i % 3 {
		case 0:
			body, _ = json.Marshal(job)
		case 1:
			body, _ = stranger.Seal(job)
		case 2:
			other := c.run.block((i + 1) % c.run.blocks())
			body, _ = testKey.Seal(blockJob{Run: c.run.ID, N: n, First: other.First, Last: other.Last, Replicas: 1})
		}
		if _, err := js.PublishAsync(c.run.blockSubject(b), body); err != nil {
			t.Fatal(err)
		}
	}
	<-js.PublishAsyncComplete()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	reports := make(chan WorkerReport, 1)
	go func() {
		rep, _ := Work(wctx, connect(t, url), WorkerOptions{Key: testKey, Workers: 2, Name: "honest"})
		reports <- rep
	}()
	r, err := Coordinate(ctx, connect(t, url), n, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := reference.Check(n, r.Total.String(), r.Unique.String()); err != nil {
		t.Error(err)
	}
	stop()
	if rep := <-reports; rep.Discarded != forgeries || rep.Failures != 0 {
		t.Errorf("the worker removed %d forged messages and failed %d blocks; want %d and none", rep.Discarded, rep.Failures, forgeries)
	}
}
