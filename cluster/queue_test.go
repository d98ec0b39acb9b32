package cluster

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
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
