package queue

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/testkit"
)

// writePKI writes a test CA (ca.crt), a server certificate for 127.0.0.1
// (server.crt, server.key) and a client certificate (client.crt,
// client.key) signed by it into dir.
func writePKI(t *testing.T, dir string) {
	t.Helper()
	now := time.Now()
	ca, caKey := writeCert(t, dir, "ca", &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}, nil, nil)
	writeCert(t, dir, "server", &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:    x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}, ca, caKey)
	writeCert(t, dir, "client", &x509.Certificate{
		SerialNumber: big.NewInt(3), Subject: pkix.Name{CommonName: "worker"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, ca, caKey)
}

// writeCert makes a key pair signed by parent (self-signed when parent is
// nil) and writes cert and key as PEM files named base.crt and base.key.
func writeCert(t *testing.T, dir, base string, tmpl *x509.Certificate, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, base+".crt"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, base+".key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return cert, key
}

// TestConnectTLS starts a server that demands mutual TLS and checks that
// ConnOptions' TLS files reach nats.go: with the CA and a client
// certificate the connection works; without the certificate, or without
// the CA, it is refused.
func TestConnectTLS(t *testing.T) {
	dir := t.TempDir()
	writePKI(t, dir)
	file := func(name string) string { return filepath.Join(dir, name) }
	tc, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: file("server.crt"), KeyFile: file("server.key"), CaFile: file("ca.crt"), Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, TLS: true, TLSVerify: true, TLSConfig: tc, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	srv.Start()
	defer srv.Shutdown()
	if !srv.ReadyForConnections(5 * time.Second) {
		t.Fatal("TLS server did not start")
	}
	url := srv.ClientURL()
	tests := []struct {
		name    string
		o       ConnOptions
		wantErr string
	}{
		{"CA and client certificate", ConnOptions{TLSCA: file("ca.crt"), TLSCert: file("client.crt"), TLSKey: file("client.key")}, ""},
		{"no client certificate", ConnOptions{TLSCA: file("ca.crt")}, "connecting to"},
		{"no CA", ConnOptions{TLSCert: file("client.crt"), TLSKey: file("client.key")}, "connecting to"},
		{"certificate without key", ConnOptions{TLSCA: file("ca.crt"), TLSCert: file("client.crt")}, "both the certificate and the key"},
		{"missing CA file", ConnOptions{TLSCA: file("none.crt"), TLSCert: file("client.crt"), TLSKey: file("client.key")}, "none.crt"},
		{"missing credentials file", ConnOptions{Creds: file("none.creds")}, "none.creds"},
		{"missing nkey seed", ConnOptions{NKey: file("none.nk")}, "none.nk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.URL, tt.o.FailFast = strings.Replace(url, "nats://", "tls://", 1), true
			nc, err := Connect(tt.o)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				defer nc.Close()
				if err := nc.Flush(); err != nil || !nc.TLSRequired() {
					t.Errorf("flush %v, TLS required %v", err, nc.TLSRequired())
				}
				return
			}
			if err == nil {
				nc.Close()
				t.Fatal("connected; want an error")
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// TestEmbeddedServerCredentials checks who may use an embedded server: one
// that listens beyond loopback is refused without credentials; with a token
// or NKey users, a client without them is refused (CONNECT {} used to be
// accepted), one with them admitted, and the coordinator's own in-process
// connection always works.
func TestEmbeddedServerCredentials(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	seed, _ := kp.Seed()
	other, _ := nkeys.CreateUser()
	otherSeed, _ := other.Seed()
	token := file("token", "s3cret-token\n")
	users := file("users.nk", "# workers\n"+pub+"\n")
	seedFile := file("worker.nk", string(seed))
	otherFile := file("other.nk", string(otherSeed))

	if _, err := StartServer(ServerOptions{Listen: "0.0.0.0:0", StoreDir: t.TempDir()}); !errors.Is(err, ErrOpenServer) {
		t.Errorf("open server beyond loopback: %v, want ErrOpenServer", err)
	}
	if _, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), NKeysFile: file("bad.nk", "SUAxyz\n")}); err == nil || !strings.Contains(err.Error(), "bad.nk:1") {
		t.Errorf("NKeys file holding a seed: %v", err)
	}
	tests := []struct {
		name   string
		server ServerOptions
		client ConnOptions
		ok     bool
	}{
		{"token: none given", ServerOptions{TokenFile: token}, ConnOptions{}, false},
		{"token: wrong one", ServerOptions{TokenFile: token}, ConnOptions{TokenFile: file("wrong", "guess")}, false},
		{"token: right one", ServerOptions{TokenFile: token}, ConnOptions{TokenFile: token}, true},
		{"nkeys: none given", ServerOptions{NKeysFile: users}, ConnOptions{}, false},
		{"nkeys: unknown key", ServerOptions{NKeysFile: users}, ConnOptions{NKey: otherFile}, false},
		{"nkeys: listed key", ServerOptions{NKeysFile: users}, ConnOptions{NKey: seedFile}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.server
			o.Listen, o.StoreDir = "0.0.0.0:0", t.TempDir()
			srv, err := StartServer(o)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Shutdown()
			own := srv.Conn()
			own.FailFast = true
			nc, err := Connect(own)
			if err != nil {
				t.Fatalf("the coordinator's own connection: %v", err)
			}
			nc.Close()
			c := tt.client
			c.URL, c.FailFast = srv.ClientURL(), true
			nc, err = Connect(c)
			if (err == nil) != tt.ok {
				t.Fatalf("connect: %v, want success %v", err, tt.ok)
			}
			if err == nil {
				nc.Close()
			} else if !strings.Contains(strings.ToLower(err.Error()), "authorization") {
				t.Errorf("refusal %q does not say why", err)
			}
		})
	}
}

// TestStoreLockIsTheSystems: a second lock on a store folder is refused
// while the first holds it, also after the file that names the holder is
// deleted (the lock was that file's, so a new file let a second
// coordinator in), and granted once the first lets go.
func TestStoreLockIsTheSystems(t *testing.T) {
	dir := t.TempDir()
	unlock, err := LockStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockStore(dir); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("in use by another coordinator (pid %d on host ", os.Getpid())) {
		t.Fatalf("second lock: %v", err)
	}
	if err := os.Remove(filepath.Join(dir, storeLockName)); err != nil {
		t.Fatal(err)
	}
	if _, err := LockStore(dir); err == nil || !strings.Contains(err.Error(), "in use by another coordinator") {
		t.Fatalf("second lock after the holder's file was deleted: %v", err)
	}
	unlock()
	again, err := LockStore(dir)
	if err != nil {
		t.Fatalf("lock after the first let go: %v", err)
	}
	again()
}

// TestWorkerWrongCredentials: a worker whose token the server refuses
// stops with an error naming the credential problem (it used to retry
// forever without saying so).
func TestWorkerWrongCredentials(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the server to refuse three connections")
	}
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "token"), filepath.Join(dir, "wrong")
	os.WriteFile(good, []byte("the token\n"), 0o600)
	os.WriteFile(bad, []byte("another\n"), 0o600)
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), TokenFile: good})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	nc, err := Connect(ConnOptions{URL: srv.ClientURL(), TokenFile: bad})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	_, err = Work(ctx, nc, WorkerOptions{Key: testKey})
	var ce *CredentialError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "refused this client's credentials (nats: Authorization Violation)") || ctx.Err() != nil {
		t.Fatalf("Work with a wrong token: %v", err)
	}
}

// TestIdleExitNeedsAnAnswer: with IdleExit a worker stops once the queue
// says it has no work, but not while the server cannot be reached (it
// used to take an unreachable server for an idle one).
func TestIdleExitNeedsAnAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("watches a worker for five idle times")
	}
	srv, url := startServer(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	const idle = 200 * time.Millisecond
	if _, err := Work(ctx, connect(t, url), WorkerOptions{Key: testKey, IdleExit: idle}); err != nil {
		t.Fatalf("an idle worker: %v, want it to stop with no error", err)
	}
	nc := connect(t, url)
	srv.Shutdown()
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := Work(wctx, nc, WorkerOptions{Key: testKey, IdleExit: idle})
		done <- err
	}()
	// Five idle times with the server gone: the worker must still wait (a
	// negative, so a wait: 20 looks in which it could leave;
	// TestIdleExitOnTheFakeClock times the rule exactly).
	select {
	case err := <-done:
		t.Fatalf("the worker stopped while the server was unreachable: %v", err)
	case <-time.After(5 * idle):
	}
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped worker: %v", err)
	}
}

// TestEmbeddedServerPermissions: on an embedded server with NKey users,
// a worker's credential may write results, alarms, presence and failure
// reports only under its own key, and read only its own results, ban and
// refusal, and its own inboxes; it cannot write a ban or the
// coordinator's record of a block set aside, nor purge the run's stream.
// A worker counts blocks there as usual.
func TestEmbeddedServerPermissions(t *testing.T) {
	a, b := newIdentity(t), newIdentity(t)
	dir := t.TempDir()
	users := filepath.Join(dir, "workers.pub")
	os.WriteFile(users, []byte(a.Public()+"\n"+b.Public()+"\n"), 0o644)
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), NKeysFile: users})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	checkWorkerPermissions(t, srv.Conn(), ConnOptions{URL: srv.ClientURL(), NKey: seedFile(t, a)}, a, b)
}

// seedFile writes id's NKey seed to a file, as its worker's --nats-nkey.
func seedFile(t *testing.T, id Identity) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "worker.nk")
	seed, _ := id.kp.Seed()
	if err := os.WriteFile(path, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkWorkerPermissions checks what worker a may do on a server whose
// users a and b are workers: coord connects without limits, as a
// coordinator; worker as a's worker does. A coordinator of N = 8 runs
// meanwhile, and a's worker counts it to its end.
func checkWorkerPermissions(t *testing.T, coord, worker ConnOptions, a, b Identity) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	coord.FailFast, worker.FailFast = true, true
	coordConn, err := Connect(coord)
	if err != nil {
		t.Fatal(err)
	}
	defer coordConn.Close()
	const n = 8
	done := make(chan error, 1)
	go func() {
		_, err := Coordinate(ctx, coordConn, n, CoordinatorOptions{Key: testKey, Voters: []string{a.Public(), b.Public()}, BlockSize: 16})
		done <- err
	}()
	run := runFor(n, 16, 1)
	nc, err := Connect(worker)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	var kv jetstream.KeyValue
	testkit.WaitFor(t, "the run's bucket", func() bool {
		kv, err = js.KeyValue(ctx, run.Bucket)
		return err == nil
	})
	blk := run.block(0)
	v := vote{N: n, First: blk.First, Last: blk.Last, Units: testkit.AllUnits(t, n, count.Units, count.CountUnit)[blk.First : blk.Last+1], Worker: "a"}
	own, _ := signVote(v, testKey, a)
	// The server answers a refused publish with no reply, only with a
	// permissions violation on the connection, which names the subject.
	violations := make(chan error, 16)
	nc.SetErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if errors.Is(err, nats.ErrPermissionViolation) {
			violations <- err
		}
	})
	kvSubject := func(key string) string { return "$KV." + run.Bucket + "." + key }
	for _, tc := range []struct {
		what    string
		do      func(ctx context.Context) error
		refused string // the subject the server refuses; "" for none
	}{
		{"its own vote", func(ctx context.Context) error { _, err := kv.Create(ctx, voteKey(blk, a.Public()), own); return err }, ""},
		{"reading its own vote", func(ctx context.Context) error { _, err := kv.Get(ctx, voteKey(blk, a.Public())); return err }, ""},
		{"a vote under b's key", func(ctx context.Context) error {
			_, err := kv.Create(ctx, voteKey(run.block(1), b.Public()), own)
			return err
		}, kvSubject(voteKey(run.block(1), b.Public()))},
		{"a vote under a label of the shared credential", func(ctx context.Context) error {
			_, err := kv.Create(ctx, voteKey(run.block(1), "s0011"), own)
			return err
		}, kvSubject(voteKey(run.block(1), "s0011"))},
		{"an alarm about b", func(ctx context.Context) error {
			_, err := kv.Put(ctx, alarmKey(blk, b.Public(), 1), []byte("{}"))
			return err
		}, kvSubject(alarmKey(blk, b.Public(), 1))},
		{"a ban of b", func(ctx context.Context) error {
			_, err := kv.Put(ctx, bannedKey(b.Public()), []byte("{}"))
			return err
		}, kvSubject(bannedKey(b.Public()))},
		{"b's presence", func(ctx context.Context) error {
			_, err := kv.Put(ctx, presenceKey(b.Public()), []byte("{}"))
			return err
		}, kvSubject(presenceKey(b.Public()))},
		{"reading a vote of b", func(ctx context.Context) error { _, err := kv.Get(ctx, voteKey(run.block(2), b.Public())); return err },
			"$JS.API.DIRECT.GET.KV_" + run.Bucket + "." + kvSubject(voteKey(run.block(2), b.Public()))},
		{"its own failure report", func(ctx context.Context) error {
			_, err := kv.Put(ctx, failureKey(blk, a.Public()), []byte(`{"first":0}`))
			return err
		}, ""},
		{"the coordinator's record of a block set aside", func(ctx context.Context) error {
			_, err := kv.Put(ctx, failedKey(blk), []byte(`{"gave_up":true}`))
			return err
		}, kvSubject(failedKey(blk))},
		{"a failure report in b's name", func(ctx context.Context) error {
			_, err := kv.Put(ctx, failureKey(blk, b.Public()), []byte(`{"first":0}`))
			return err
		}, kvSubject(failureKey(blk, b.Public()))},
		{"a notice of a copy it gave back", func(context.Context) error {
			return nc.Publish(run.backSubject(a.Public()), []byte("0"))
		}, ""},
		{"a notice in b's name", func(ctx context.Context) error {
			if err := nc.Publish(run.backSubject(b.Public()), []byte("0")); err != nil {
				return err
			}
			<-ctx.Done() // a refused publish is answered only by a violation
			return ctx.Err()
		}, run.backSubject(b.Public())},
		{"a block message", func(ctx context.Context) error {
			_, err := js.Publish(ctx, run.blockSubject(blk), []byte(`{"run":"forged"}`))
			return err
		}, run.blockSubject(blk)},
		{"reading every inbox", subscribeUntil(nc, "_INBOX.>"), "_INBOX.>"},
		{"reading b's inboxes", subscribeUntil(nc, inboxPrefix(b.Public())+".>"), inboxPrefix(b.Public()) + ".>"},
		{"purging the run's stream", func(ctx context.Context) error {
			s, err := js.Stream(ctx, run.Stream)
			if err == nil {
				err = s.Purge(ctx)
			}
			return err
		}, "$JS.API.STREAM.PURGE." + run.Stream},
	} {
		if tc.refused == "" {
			if err := tc.do(ctx); err != nil {
				t.Errorf("%s: %v", tc.what, err)
			}
			continue
		}
		// A refused call waits for a reply that never comes: it ends
		// when the violation arrives.
		rctx, rcancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- tc.do(rctx) }()
		for {
			err := testkit.Receive(t, "the server's refusal of "+tc.what, violations)
			if strings.Contains(err.Error(), `"`+tc.refused+`"`) {
				break
			}
		}
		rcancel()
		if err := <-done; err == nil {
			t.Errorf("%s: done, want it refused", tc.what)
		}
	}
	// And a's worker, under these permissions, counts the run to its end.
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go Work(wctx, nc, WorkerOptions{Key: testKey, Identity: a, Name: "a", Workers: 2})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// subscribeUntil subscribes nc to subject until ctx ends: a refused
// subscription is answered only by a violation on the connection.
func subscribeUntil(nc *nats.Conn, subject string) func(context.Context) error {
	return func(ctx context.Context) error {
		sub, err := nc.SubscribeSync(subject)
		if err != nil {
			return err
		}
		defer sub.Unsubscribe()
		<-ctx.Done()
		return ctx.Err()
	}
}

// TestDeployServerPermissions: deploy/nats/nats-server.conf, with the
// users deploy/nats/users.sh writes from the workers' public keys, gives
// each worker's key just the permissions the embedded server gives it
// (workerPermissions), and on a server started from that file a worker may
// do what TestEmbeddedServerPermissions checks, and no more.
func TestDeployServerPermissions(t *testing.T) {
	a, b := newIdentity(t), newIdentity(t)
	dir := t.TempDir()
	file := func(name string) string { return filepath.Join(dir, name) }
	deploy := filepath.Join("..", "..", "deploy", "nats")
	conf, err := os.ReadFile(filepath.Join(deploy, "nats-server.conf"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file("nats-server.conf"), conf, 0o644)
	os.WriteFile(file("workers.pub"), []byte("# the pool\n"+a.Public()+"\n"+b.Public()+"\n"), 0o644)
	users, err := exec.Command("sh", filepath.Join(deploy, "users.sh"), file("workers.pub")).Output()
	if err != nil {
		t.Fatalf("users.sh: %v", err)
	}
	os.WriteFile(file("users.conf"), users, 0o644)
	writePKI(t, dir)
	addr := fmt.Sprintf("127.0.0.1:%d", testkit.FreePort(t))
	const password = "the coordinator's"
	for k, v := range map[string]string{"NQ_LISTEN": addr, "NQ_STORE": file("store"), "NQ_TLS_CERT": file("server.crt"),
		"NQ_TLS_KEY": file("server.key"), "NQ_TLS_CA": file("ca.crt"), "NQ_COORDINATOR_PASSWORD": `"` + password + `"`} {
		t.Setenv(k, v)
	}
	opts, err := server.ProcessConfigFile(file("nats-server.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(opts.Nkeys) != 2 || len(opts.Users) != 1 {
		t.Fatalf("users %d, NKey users %d; want the coordinator and two workers", len(opts.Users), len(opts.Nkeys))
	}
	for _, u := range opts.Nkeys {
		want := workerPermissions(u.Nkey)
		if got := u.Permissions; got == nil || got.Publish == nil || got.Subscribe == nil ||
			!slices.Equal(got.Publish.Allow, want.Publish.Allow) || len(got.Publish.Deny) != 0 ||
			!slices.Equal(got.Subscribe.Allow, want.Subscribe.Allow) || len(got.Subscribe.Deny) != 0 || got.Response != nil {
			t.Fatalf("worker %s may publish %+v and subscribe %+v; the embedded server gives it %v and %v", u.Nkey, got.Publish, got.Subscribe, want.Publish.Allow, want.Subscribe.Allow)
		}
	}
	opts.NoSigs, opts.NoLog = true, true
	srv, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv.Start()
	defer srv.Shutdown()
	if !srv.ReadyForConnections(10 * time.Second) {
		t.Fatal("the server of deploy/nats did not start")
	}
	tls := ConnOptions{TLSCA: file("ca.crt"), TLSCert: file("client.crt"), TLSKey: file("client.key")}
	coord, worker := tls, tls
	coord.URL = "tls://" + url.UserPassword("coordinator", password).String() + "@" + addr
	worker.URL, worker.NKey = "tls://"+addr, seedFile(t, a)
	checkWorkerPermissions(t, coord, worker, a, b)
}

// TestRevoke: a key the embedded server revokes is shut out at once (its
// connection closed, a new one refused), and the others stay in; a key
// it does not admit, or one revoked already, is no change.
func TestRevoke(t *testing.T) {
	a, b := newIdentity(t), newIdentity(t)
	users := filepath.Join(t.TempDir(), "workers.pub")
	os.WriteFile(users, []byte(a.Public()+"\n"+b.Public()+"\n"), 0o644)
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), NKeysFile: users})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	conn := func(id Identity) (*nats.Conn, error) {
		return Connect(ConnOptions{URL: srv.ClientURL(), NKey: seedFile(t, id), FailFast: true})
	}
	nc, err := conn(a)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if revoked, err := srv.Revoke(a.Public()); !revoked || err != nil {
		t.Fatalf("Revoke(a) = %v, %v", revoked, err)
	}
	testkit.WaitFor(t, "a's connection to be dropped", func() bool { return !nc.IsConnected() })
	if again, err := conn(a); err == nil || !strings.Contains(strings.ToLower(err.Error()), "authorization") {
		if again != nil {
			again.Close()
		}
		t.Errorf("a connects again: %v", err)
	}
	other, err := conn(b)
	if err != nil {
		t.Fatalf("b, not revoked: %v", err)
	}
	other.Close()
	for _, pub := range []string{a.Public(), newIdentity(t).Public()} {
		if revoked, err := srv.Revoke(pub); revoked || err != nil {
			t.Errorf("Revoke(%s) = %v, %v; want no change", voterName(pub), revoked, err)
		}
	}
	own := srv.Conn()
	own.FailFast = true
	if nc, err := Connect(own); err != nil {
		t.Errorf("the coordinator's own connection: %v", err)
	} else {
		nc.Close()
	}
}
