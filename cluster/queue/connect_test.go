package queue

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/syncbuf"
	"github.com/nqueens/nqueens/internal/testkit"
)

// TestAsyncErrorsLogged: the errors nats.go reports outside any call (a
// subscription that fell behind, an operation the server's permissions
// refused) reach the connection's logger as one line each, however many
// come in a minute; nats.go printed each raw on stderr ("nats: slow
// consumer, messages dropped …").
func TestAsyncErrorsLogged(t *testing.T) {
	a := newIdentity(t)
	users := filepath.Join(t.TempDir(), "workers.pub")
	os.WriteFile(users, []byte(a.Public()+"\n"), 0o644)
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), NKeysFile: users})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	var logged syncbuf.Buffer
	logger := slog.New(slog.NewTextHandler(&logged, nil))
	worker, err := Connect(ConnOptions{URL: srv.ClientURL(), NKey: seedFile(t, a), FailFast: true, Log: logger})
	if err != nil {
		t.Fatal(err)
	}
	defer worker.Close()
	for range 3 {
		worker.Publish("$KV.nqueens-x.banned."+a.Public(), []byte("{}"))
	}
	testkit.WaitFor(t, "the refusal in the log", func() bool {
		return strings.Contains(logged.String(), `msg="the NATS server refused an operation of this client (permissions violation)`)
	})

	own := srv.Conn()
	own.FailFast, own.Log = true, logger
	coord, err := Connect(own)
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()
	sub, err := coord.SubscribeSync("flood")
	if err != nil {
		t.Fatal(err)
	}
	sub.SetPendingLimits(1, -1)
	for range 100 {
		coord.Publish("flood", []byte("x"))
	}
	coord.Flush()
	testkit.WaitFor(t, "the slow subscription in the log", func() bool {
		return strings.Contains(logged.String(), `msg="this process fell behind the messages of a subscription, and the NATS client dropped some (slow consumer)`)
	})
	for _, kind := range []string{`msg="the NATS server refused`, `msg="this process fell behind`} {
		if n := strings.Count(logged.String(), kind); n != 1 {
			t.Errorf("%d lines of %s, want one:\n%s", n, kind, logged.String())
		}
	}
}
