package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/count"
)

// startServer runs an embedded server on a free loopback port for one test.
func startServer(t *testing.T, dir string) (*server.Server, string) {
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
	nc, err := Connect(ConnOptions{URL: url, ReconnectWait: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// TestQueueInProcess runs coordinator and two workers in this process, so
// the race detector sees both sides.
func TestQueueInProcess(t *testing.T) {
	_, url := startServer(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const n = 9
	done := make(chan WorkerReport, 2)
	for range 2 {
		go func() {
			rep, err := Work(ctx, connect(t, url), WorkerOptions{Workers: 2, IdleExit: time.Second, Log: func(s string) { t.Log(s) }})
			if err != nil {
				t.Error(err)
			}
			done <- rep
		}()
	}
	r, err := Coordinate(ctx, connect(t, url), n, CoordinatorOptions{Log: func(s string) { t.Log(s) }})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, n, r.Total.String(), r.Unique.String())
	units := 0
	for range 2 {
		rep := <-done
		units += rep.Units
	}
	if units != r.Units {
		t.Errorf("workers stored %d results first, want %d", units, r.Units)
	}
}

func TestRecordResult(t *testing.T) {
	_, url := startServer(t, t.TempDir())
	nc := connect(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	run := RunFor(8)
	_, kv, _, size, err := ensureRun(ctx, js, run, CoordinatorOptions{AckWait: time.Second, MaxDeliver: 1, Replicas: 1, BlockSize: 4})
	if err != nil || size != 4 {
		t.Fatalf("block size %d, %v", size, err)
	}
	b := run.block(1, size)
	first := BlockRecord{N: 8, First: b.First, Last: b.Last, Units: unitResults(t, 8)[b.First : b.Last+1], Worker: "a", Delivered: 1}
	same := first
	same.Worker, same.Seconds, same.Delivered = "b", 3, 2
	wrong := first
	wrong.Units = append([]count.UnitResult(nil), first.Units...)
	wrong.Worker, wrong.Units[2].Total = "c", wrong.Units[2].Total+8
	tests := []struct {
		name     string
		rec      BlockRecord
		dup      bool
		conflict bool
	}{
		{"first write", first, false, false},
		{"equal duplicate", same, true, false},
		{"different duplicate", wrong, false, true},
	}
	for _, tt := range tests {
		dup, err := RecordResult(ctx, kv, tt.rec)
		var ce *ConflictError
		if dup != tt.dup || errors.As(err, &ce) != tt.conflict || (err != nil && !tt.conflict) {
			t.Errorf("%s: dup %v, error %v", tt.name, dup, err)
		}
		if tt.conflict && (ce.Unit != b.First+2 || ce.FirstAt.Path != "worker a" || ce.SecAt.Path != "worker c") {
			t.Errorf("%s: conflict %+v", tt.name, ce)
		}
	}
	// The first write still stands, and the alarm is on record.
	e, err := kv.Get(ctx, resultKey(b))
	if err != nil {
		t.Fatal(err)
	}
	var stored BlockRecord
	if err := json.Unmarshal(e.Value(), &stored); err != nil || stored.Worker != "a" || !sameCounts(stored, first) {
		t.Errorf("stored %+v, %v; want the first write", stored, err)
	}
	keys, err := kv.ListKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	alarms := 0
	for k := range keys.Keys() {
		if strings.HasPrefix(k, fmt.Sprintf("alarm.%d.", b.First)) {
			alarms++
		}
	}
	if alarms != 1 {
		t.Errorf("%d alarms for %s, want 1", alarms, b)
	}
}

func TestDefaultBlockSize(t *testing.T) {
	tests := []struct{ n, want int }{{1, 64}, {8, 64}, {14, 64}, {17, 64}, {18, 15}, {19, 3}, {20, 1}, {27, 1}}
	for _, tt := range tests {
		if got := DefaultBlockSize(tt.n); got != tt.want {
			t.Errorf("DefaultBlockSize(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
	// Blocks of any size cover every unit once.
	run := RunFor(9)
	for _, size := range []int{1, 7, 64, 4096} {
		next := 0
		for k := range run.blocks(size) {
			b := run.block(k, size)
			got, err := run.blockOf(run.blockSubject(b), size)
			if b.First != next || b.Len() < 1 || b.Len() > size || err != nil || got != b {
				t.Fatalf("size %d: block %d is %v (subject gives %v, %v), want it to start at %d", size, k, b, got, err, next)
			}
			next = b.Last + 1
		}
		if next != count.Units(9) {
			t.Errorf("size %d: blocks end at %d, want %d", size, next, count.Units(9))
		}
	}
}

// TestGiveUpReportedAndRetried holds a block message without acknowledging
// it until the server stops delivering it (MaxDeliver 1), once while the
// coordinator runs (it hears the advisory) and once before it starts (it
// finds the message stuck). Either way the coordinator reports the block
// instead of giving a total, and a second coordinator run retries it and
// gives the exact count.
func TestGiveUpReportedAndRetried(t *testing.T) {
	const n = 8
	for _, coordinatorFirst := range []bool{true, false} {
		t.Run(fmt.Sprintf("coordinator running %v", coordinatorFirst), func(t *testing.T) {
			_, url := startServer(t, t.TempDir())
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			nc := connect(t, url)
			js, err := jetstream.New(nc)
			if err != nil {
				t.Fatal(err)
			}
			run := RunFor(n)
			o := CoordinatorOptions{AckWait: time.Second, MaxDeliver: 1, BlockSize: 16, ProgressEvery: time.Second, Log: func(s string) { t.Log(s) }}
			type outcome struct {
				r   count.Result
				err error
			}
			done := make(chan outcome, 1)
			coordinate := func() {
				r, err := Coordinate(ctx, connect(t, url), n, o)
				done <- outcome{r, err}
			}
			if coordinatorFirst {
				go coordinate()
			} else {
				full := o
				full.Replicas = 1
				_, _, _, size, err := ensureRun(ctx, js, run, full)
				if err != nil {
					t.Fatal(err)
				}
				var all []Block
				for k := range run.blocks(size) {
					all = append(all, run.block(k, size))
				}
				if err := publishBlocks(ctx, js, run, all, func(b Block) string { return fmt.Sprintf("%s.%d", run.ID, b.First) }); err != nil {
					t.Fatal(err)
				}
			}
			// Take one block like a worker that dies with it.
			var held Block
			for {
				cons, err := js.Consumer(ctx, run.Stream, Consumer)
				if err == nil {
					batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
					if err == nil {
						for m := range batch.Messages() {
							held, err = run.blockOf(m.Subject(), o.BlockSize)
							if err != nil {
								t.Fatal(err)
							}
						}
						break
					}
				}
				if ctx.Err() != nil {
					t.Fatal("no block to take")
				}
				time.Sleep(50 * time.Millisecond)
			}
			if !coordinatorFirst {
				time.Sleep(2 * o.AckWait) // its one delivery runs out
				go coordinate()
			}
			wctx, stopWorker := context.WithCancel(ctx)
			workerDone := make(chan struct{})
			go func() {
				defer close(workerDone)
				_, _ = Work(wctx, connect(t, url), WorkerOptions{Workers: 2})
			}()
			defer func() { stopWorker(); <-workerDone }()

			first := <-done
			want := fmt.Sprintf("1 block(s) failed 1 times and were set aside: units %d-%d;", held.First, held.Last)
			if first.err == nil || !strings.Contains(first.err.Error(), want) {
				t.Fatalf("first run: %v; want an error containing %q", first.err, want)
			}
			go coordinate()
			second := <-done
			if second.err != nil {
				t.Fatal(second.err)
			}
			checkResult(t, n, second.r.Total.String(), second.r.Unique.String())
		})
	}
}

// TestEnsureRunKeepsBlockSize checks that a run keeps the block size it was
// created with: every unit must stay in one block for the life of the run.
func TestEnsureRunKeepsBlockSize(t *testing.T) {
	_, url := startServer(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	js, err := jetstream.New(connect(t, url))
	if err != nil {
		t.Fatal(err)
	}
	run := RunFor(9)
	o := CoordinatorOptions{AckWait: time.Second, MaxDeliver: 1, Replicas: 1}
	tests := []struct {
		blockSize, want int
		wantErr         string
	}{
		{5, 5, ""},
		{0, 5, ""},
		{5, 5, ""},
		{6, 0, "was started with blocks of 5 units, not 6"},
	}
	for _, tt := range tests {
		o.BlockSize = tt.blockSize
		_, _, _, size, err := ensureRun(ctx, js, run, o)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("block size %d: error %v, want %q", tt.blockSize, err, tt.wantErr)
			}
			continue
		}
		if err != nil || size != tt.want {
			t.Errorf("block size %d: got %d, %v; want %d", tt.blockSize, size, err, tt.want)
		}
	}
}
