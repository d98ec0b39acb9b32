package queue

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
	"github.com/nqueens/nqueens/cluster/ledger"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/syncbuf"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/seal"
)

// testKey seals the results of the in-process tests.
var testKey, _ = seal.FromSecret(bytes.Repeat([]byte{0x9e}, 32))

// newIdentity makes an NKey of a worker of the tests: its identity, and
// its public key for the voters list.
func newIdentity(t testing.TB) Identity {
	t.Helper()
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := kp.Seed()
	id, err := IdentityFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// startServer runs an embedded server on a free loopback port for one test.
func startServer(t *testing.T, dir string) (*EmbeddedServer, string) {
	t.Helper()
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	return srv, srv.ClientURL()
}

func connect(t *testing.T, url string) *nats.Conn {
	t.Helper()
	nc, err := Connect(ConnOptions{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// testWriter sends log lines to t.Log while the test runs.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, nil))
}

// openRun creates the JetStream objects of a run as a coordinator would,
// without running one.
func openRun(ctx context.Context, t *testing.T, url string, n int, o CoordinatorOptions) *coordinator {
	t.Helper()
	js, err := jetstream.New(connect(t, url))
	if err != nil {
		t.Fatal(err)
	}
	if o.Key == nil {
		o.Key = testKey
	}
	o, err = o.withDefaults(n)
	if err != nil {
		t.Fatal(err)
	}
	c := newCoordinator(o)
	c.js = js
	if err := c.ensureRun(ctx, n); err != nil {
		t.Fatal(err)
	}
	c.io = &jsIO{run: c.run, key: o.Key, js: c.js, stream: c.stream, cons: c.cons, kv: c.kv}
	return c
}

// TestQueueInProcess runs coordinator and two workers in this process, so
// the race detector sees both sides: once plainly (both workers without an
// NKey: one shared voter), once with every block counted by both workers,
// each signing with its own NKey (quorum), and checked by the coordinator.
func TestQueueInProcess(t *testing.T) {
	for _, tc := range []struct {
		name     string
		replicas int
		fraction float64
	}{{"plain", 1, 0}, {"quorum and spot checks", 2, 0.5}} {
		t.Run(tc.name, func(t *testing.T) {
			_, url := startServer(t, t.TempDir())
			// A run of 9 queens takes seconds; the bound only tells a hang.
			ctx, cancel := context.WithTimeout(context.Background(), testkit.Patient(testkit.WaitLimit))
			defer cancel()
			const n = 9
			// The workers stop when the coordinator is done: every vote it
			// counted is stored by then.
			wctx, stopWorkers := context.WithCancel(ctx)
			defer stopWorkers()
			done := make(chan WorkerReport, 2)
			ids := []Identity{SharedIdentity(), SharedIdentity()}
			var voters []string
			if tc.replicas > 1 {
				ids = []Identity{newIdentity(t), newIdentity(t)}
				voters = []string{ids[0].Public(), ids[1].Public()}
			}
			for i := range 2 {
				go func() {
					rep, err := Work(wctx, connect(t, url), WorkerOptions{Workers: 2, Name: fmt.Sprint("w", i), Log: testLogger(t), Key: testKey, Identity: ids[i]})
					if err != nil && !errors.Is(err, context.Canceled) {
						t.Error(err)
					}
					done <- rep
				}()
			}
			r, err := Coordinate(ctx, connect(t, url), n, CoordinatorOptions{BlockSize: 8, Replicas: tc.replicas,
				VerifyFraction: tc.fraction, AckWait: time.Second, Log: testLogger(t), Key: testKey, Voters: voters})
			stopWorkers()
			if err != nil {
				t.Fatal(err)
			}
			if err := reference.Check(n, r.Total.String(), r.Unique.String()); err != nil {
				t.Error(err)
			}
			for range 2 {
				<-done
			}
			// Every block has a worker's result in the bucket (a block the
			// spot check picked is decided by the coordinator's own count
			// and may have one only). The workers' reports may count fewer:
			// a worker stopped while the server's answer to its store was
			// on the way counts none for that block.
			run := runFor(n, 8, tc.replicas)
			kv, err := jetstream.New(connect(t, url))
			if err != nil {
				t.Fatal(err)
			}
			bucket, err := kv.KeyValue(ctx, run.Bucket)
			if err != nil {
				t.Fatal(err)
			}
			for k := range run.blocks() {
				if vs, err := votesFor(ctx, bucket, run.block(k).First, testKey); err != nil || len(vs) == 0 {
					t.Errorf("%s has no result of a worker in the bucket (%v)", run.block(k), err)
				}
			}
		})
	}
}

func TestStoreVote(t *testing.T) {
	_, url := startServer(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	c := openRun(ctx, t, url, 8, CoordinatorOptions{BlockSize: 4})
	b := c.run.block(1)
	first := vote{N: 8, First: b.First, Last: b.Last, Units: testkit.AllUnits(t, 8, count.Units, count.CountUnit)[b.First : b.Last+1], Worker: "a", Delivered: 1}
	same := first
	same.Seconds, same.Delivered = 3, 2
	wrong := first
	wrong.Units = slices.Clone(first.Units)
	wrong.Units[2].Total += 8
	other := wrong
	other.Worker = "b"
	a, b2 := newIdentity(t), newIdentity(t)
	tests := []struct {
		name     string
		v        vote
		id       Identity
		dup      bool
		conflict bool
	}{
		{"first write", first, a, false, false},
		{"equal duplicate", same, a, true, false},
		{"a different result of the same worker", wrong, a, false, true},
		{"another worker's vote", other, b2, false, false},
	}
	for _, tt := range tests {
		_, dup, err := storeVote(ctx, c.kv, tt.v, testKey, tt.id)
		var ce *ledger.ConflictError
		if dup != tt.dup || errors.As(err, &ce) != tt.conflict || (err != nil && !tt.conflict) {
			t.Errorf("%s: dup %v, error %v", tt.name, dup, err)
		}
		if tt.conflict && (ce.Unit != b.First+2 || ce.FirstAt.Path != `worker "a"` || ce.SecAt.Path != `worker "a"`) {
			t.Errorf("%s: conflict %+v", tt.name, ce)
		}
	}
	// The first write stands, signed, and the alarm is on record.
	e, err := c.kv.Get(ctx, voteKey(b, a.Public()))
	if err != nil {
		t.Fatal(err)
	}
	stored, err := openVote(e.Value(), testKey, a.Public())
	if err != nil || !sameUnits(stored.Units, first.Units) || stored.Voter != a.Public() {
		t.Errorf("stored %+v, %v; want the first write, by %s", stored, err, a.Public())
	}
	keys, err := c.kv.ListKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var alarms, votes int
	for k := range keys.Keys() {
		alarms += boolInt(strings.HasPrefix(k, fmt.Sprintf("alarm.%d.", b.First)))
		votes += boolInt(strings.HasPrefix(k, fmt.Sprintf("vote.%d.", b.First)))
	}
	if alarms != 1 || votes != 2 {
		t.Errorf("%d alarms and %d votes for %s, want 1 and 2", alarms, votes, b)
	}
}

// TestGiveBack: a worker gives a copy it declined back by acknowledging
// it and telling the coordinator on its own hand-back subject; the
// coordinator publishes a fresh copy only if the block still lacks one:
// not when it is decided, nor when another copy is queued (a quorum of
// two with one copy left gets one). Workers used to publish the copy
// again themselves, and so could flood the queue with forged blocks.
func TestGiveBack(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	for _, tc := range []struct {
		name     string
		replicas int
		copies   int  // of the block in the stream; the worker holds the first
		decided  bool // the block is decided meanwhile
		want     int  // copies in the stream in the end
	}{
		{"the only copy", 1, 1, false, 1},
		{"a decided block", 1, 1, true, 0},
		{"another copy queued", 1, 2, false, 1},
		{"a quorum's second copy", 2, 2, false, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, url := startServer(t, t.TempDir())
			voters := []string{newIdentity(t).Public(), newIdentity(t).Public()}
			c := openRun(ctx, t, url, 8, CoordinatorOptions{BlockSize: 16, Replicas: tc.replicas, Voters: voters})
			c.begin(ctx)
			defer c.close()
			b := c.run.block(0)
			if err := c.publishCopies(ctx, slices.Repeat([]Block{b}, tc.copies)); err != nil {
				t.Fatal(err)
			}
			batch, err := c.cons.Fetch(1, jetstream.FetchMaxWait(testkit.WaitLimit))
			if err != nil {
				t.Fatal(err)
			}
			msg := testkit.Receive(t, "the block's first copy", batch.Messages())
			if tc.decided {
				c.book.recounted(0, testkit.AllUnits(t, 8, count.Units, count.CountUnit)[b.First:b.Last+1])
			}
			listener := connect(t, url)
			notices, err := listener.SubscribeSync(c.run.backSubject("*"))
			if err != nil || listener.Flush() != nil {
				t.Fatal(err)
			}
			js, _ := jetstream.New(connect(t, url))
			w := &worker{js: js, token: "s0123", o: WorkerOptions{Log: slog.New(slog.DiscardHandler)}}
			w.giveBack(&runHandle{run: c.run}, msg)
			m, err := notices.NextMsg(testkit.WaitLimit)
			if err != nil || m.Subject != c.run.backSubject("s0123") {
				t.Fatalf("notice %v, %v; want one on the worker's own subject", m, err)
			}
			c.noteHandBack(m, time.Now())
			if err := c.handBackRound(ctx, time.Now()); err != nil {
				t.Fatal(err)
			}
			if q, err := c.io.queuedBlock(ctx, b); err != nil || q != tc.want {
				t.Errorf("%d copies in the stream (%v), want %d", q, err, tc.want)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestDefaultBlockSize: blocks of about 0.1 s of one core by
// count.UnitSeconds, the CPU seconds of a count over its units. N = 19
// takes 11 s in 4042 units (2.7 ms a unit: 36 units a block), N = 20 41 s
// in 3957 (10.4 ms: 9); from N = 21 (0.09 s a unit) one unit is a block.
// (They were 40 and 3 when N = 19 was put at 10 s and N = 20 at ten
// times that.)
func TestDefaultBlockSize(t *testing.T) {
	tests := []struct{ n, want int }{{1, 64}, {8, 64}, {14, 64}, {17, 64}, {18, 64}, {19, 36}, {20, 9}, {21, 1}, {27, 1}, {32, 1}}
	for _, tt := range tests {
		if got := defaultBlockSize(tt.n); got != tt.want {
			t.Errorf("defaultBlockSize(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
	// Blocks of any size cover every unit once.
	for _, size := range []int{1, 7, 64, 4096} {
		run := runFor(9, size, 1)
		next := 0
		for k := range run.blocks() {
			b := run.block(k)
			gk, got, err := run.blockOf(run.blockSubject(b))
			if b.First != next || b.Len() < 1 || b.Len() > size || err != nil || got != b || gk != k {
				t.Fatalf("size %d: block %d is %v (subject gives %d %v, %v), want it to start at %d", size, k, b, gk, got, err, next)
			}
			next = b.Last + 1
		}
		if next != count.Units(9) {
			t.Errorf("size %d: blocks end at %d, want %d", size, next, count.Units(9))
		}
	}
}

// TestGiveUpCounted holds a block message without acknowledging it
// until the server stops delivering it (MaxDeliver 1), once while the
// coordinator runs (it hears the advisory) and once before it starts (it
// finds the message stuck). Either way the coordinator counts the block
// itself, says so, and gives the exact count: a block no worker finishes
// does not stop the run (it used to end with an error, and a worker that
// held every copy it could get stopped the run that way).
func TestGiveUpCounted(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the server's ack wait to run out")
	}
	const n = 8
	for _, coordinatorFirst := range []bool{true, false} {
		t.Run(fmt.Sprintf("coordinator running %v", coordinatorFirst), func(t *testing.T) {
			_, url := startServer(t, t.TempDir())
			// A run of 9 queens takes seconds; the bound only tells a hang.
			ctx, cancel := context.WithTimeout(context.Background(), testkit.Patient(testkit.WaitLimit))
			defer cancel()
			var logged syncbuf.Buffer
			o := CoordinatorOptions{AckWait: time.Second, MaxDeliver: 1, BlockSize: 16, ProgressEvery: time.Second, Key: testKey,
				Log: slog.New(slog.NewTextHandler(&logged, nil))}
			type outcome struct {
				r   RunResult
				err error
			}
			done := make(chan outcome, 1)
			coordinate := func() {
				r, err := Coordinate(ctx, connect(t, url), n, o)
				done <- outcome{r, err}
			}
			c := openRun(ctx, t, url, n, o)
			if coordinatorFirst {
				go coordinate()
			} else {
				if err := c.publishAll(ctx); err != nil {
					t.Fatal(err)
				}
			}
			// The server announces a message that used up its deliveries.
			gaveUp, err := connect(t, url).SubscribeSync("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + c.run.Stream + "." + consumer)
			if err != nil {
				t.Fatal(err)
			}
			held := takeBlock(ctx, t, c)
			if !coordinatorFirst {
				if _, err := gaveUp.NextMsg(testkit.WaitLimit); err != nil { // its one delivery ran out
					t.Fatal(err)
				}
				go coordinate()
			}
			wctx, stopWorker := context.WithCancel(ctx)
			workerDone := make(chan struct{})
			go func() {
				defer close(workerDone)
				_, _ = Work(wctx, connect(t, url), WorkerOptions{Workers: 2, Key: testKey})
			}()
			defer func() { stopWorker(); <-workerDone }()

			run := <-done
			if run.err != nil {
				t.Fatal(run.err)
			}
			if err := reference.Check(n, run.r.Total.String(), run.r.Unique.String()); err != nil {
				t.Error(err)
			}
			want := fmt.Sprintf(`msg="a block ran out of deliveries; the coordinator counts it itself" units=%d-%d attempts=1`, held.First, held.Last)
			if !strings.Contains(logged.String(), want) {
				t.Errorf("the coordinator's log lacks %s:\n%s", want, logged.String())
			}
		})
	}
}

// publishAll publishes one message per block, as a coordinator's first
// start does.
func (c *coordinator) publishAll(ctx context.Context) error {
	var all []Block
	for k := range c.run.blocks() {
		all = append(all, c.run.block(k))
	}
	return c.io.publish(ctx, all, func(b Block) string { return fmt.Sprintf("%s.%d", c.run.ID, b.First) })
}

// takeBlock takes one block message like a worker that dies with it.
func takeBlock(ctx context.Context, t *testing.T, c *coordinator) Block {
	t.Helper()
	for {
		cons, err := c.js.Consumer(ctx, c.run.Stream, consumer)
		if err == nil {
			batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
			if err == nil {
				for m := range batch.Messages() {
					_, b, err := c.run.blockOf(m.Subject())
					if err != nil {
						t.Fatal(err)
					}
					return b
				}
			}
		}
		if ctx.Err() != nil {
			t.Fatal("no block to take")
		}
		time.Sleep(50 * time.Millisecond) // polling; ctx bounds the wait
	}
}

// TestEnsureRunKeepsSettings checks that a run keeps the block size and
// replicas it was created with: every unit must stay in one block, and
// every block need the same agreement, for the life of the run.
func TestEnsureRunKeepsSettings(t *testing.T) {
	_, url := startServer(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	tests := []struct {
		blockSize, replicas int
		wantSize, wantReps  int
		wantErr             string
	}{
		{5, 2, 5, 2, ""},
		{0, 0, 5, 2, ""},
		{5, 2, 5, 2, ""},
		{6, 0, 0, 0, "was started with blocks of 5 units, not 6"},
		{0, 3, 0, 0, "was started with 2 replica(s), not 3"},
	}
	// Three voters, so that any of these replicas could be met.
	voters := []string{newIdentity(t).Public(), newIdentity(t).Public(), newIdentity(t).Public()}
	for _, tt := range tests {
		js, err := jetstream.New(connect(t, url))
		if err != nil {
			t.Fatal(err)
		}
		o, _ := CoordinatorOptions{BlockSize: tt.blockSize, Replicas: tt.replicas, Key: testKey, Voters: voters}.withDefaults(9)
		c := &coordinator{o: o, js: js}
		err = c.ensureRun(ctx, 9)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%+v: error %v, want %q", tt, err, tt.wantErr)
			}
			continue
		}
		if err != nil || c.run.BlockSize != tt.wantSize || c.run.Replicas != tt.wantReps {
			t.Errorf("%+v: got %d, %d, %v", tt, c.run.BlockSize, c.run.Replicas, err)
		}
	}
}

// startLimited runs a nats-server whose JetStream may store maxStore bytes
// in dir, as a full disk would leave it (0: no limit).
func startLimited(t *testing.T, dir string, maxStore int64) *server.Server {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: dir, JetStreamMaxStore: maxStore, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	t.Cleanup(s.Shutdown)
	return s
}

// TestStoreFull fills the server's store in the middle of a run: the
// coordinator stops with an error that says so (it used to stall without
// a word), and a run on the same store, with room again, resumes from
// every result stored and gives the exact count.
func TestStoreFull(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the coordinator to probe a full store twice")
	}
	const n = 12
	dir := t.TempDir()
	o := CoordinatorOptions{Key: testKey, BlockSize: 4, AckWait: time.Second, Log: testLogger(t)}
	run := func(url string) (RunResult, error) {
		ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
		defer cancel()
		wctx, stop := context.WithCancel(ctx)
		defer stop()
		go Work(wctx, connect(t, url), WorkerOptions{Key: testKey, Workers: 1})
		return Coordinate(ctx, connect(t, url), n, o)
	}
	s := startLimited(t, dir, 64<<10)
	_, err := run(s.ClientURL())
	var full *StoreFullError
	if !errors.As(err, &full) || full.Done == 0 || full.Done == full.Units {
		t.Fatalf("a run on a full store: %v, want a StoreFullError part of the way", err)
	}
	t.Log(err)
	s.Shutdown()
	r, err := run(startLimited(t, dir, 0).ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	if err := reference.Check(n, r.Total.String(), r.Unique.String()); err != nil {
		t.Error(err)
	}
}

// TestStoreFullWhilePublishing: a store that fills up while the
// coordinator publishes the blocks ends the run with an error that says
// what is full and how to go on (it was the server's raw answer:
// "publishing unit 30: nats: nats: API error: code=503 err_code=10023
// description=insufficient resources"); with room again, the same run
// resumes and gives the exact count.
func TestStoreFullWhilePublishing(t *testing.T) {
	const n = 12
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	o := CoordinatorOptions{Key: testKey, BlockSize: 1, AckWait: time.Second, Log: testLogger(t)}
	s := startLimited(t, dir, 8<<10)
	_, err := Coordinate(ctx, connect(t, s.ClientURL()), n, o)
	var full *StoreFullError
	if !errors.As(err, &full) || full.Done != 0 {
		t.Fatalf("a run whose store fills while it publishes: %v, want a StoreFullError", err)
	}
	for _, want := range []string{fmt.Sprintf("stopped with 0 of %d units counted: the NATS server can store no more: its JetStream storage limit is reached (the server's max_store, or its account's). ", count.Units(n)),
		"Then run the same command again: every result stored so far is kept (the server said: insufficient resources, JetStream error 10023)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	s.Shutdown()
	url := startLimited(t, dir, 0).ClientURL()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go Work(wctx, connect(t, url), WorkerOptions{Key: testKey, Workers: 1})
	r, err := Coordinate(ctx, connect(t, url), n, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := reference.Check(n, r.Total.String(), r.Unique.String()); err != nil {
		t.Error(err)
	}
}
