package deploy

// The NATS work queue as an operator runs it across machines, here on
// loopback: a standalone nats-server (built from the nats-server module
// nqueens uses) started with deploy/nats/nats-server.conf and the users
// nats/users.sh writes, a test CA and certificates made here, a
// coordinator logging in with a password and two workers with an NKey
// each, every block counted by both (--replicas 2), all over mutual TLS;
// the workers run the arguments of deploy/kubernetes/queue-workers.yaml.
// Then the server's door is tried without each credential in turn. What a
// worker's key may do there is checked by TestDeployServerPermissions of
// package cluster/queue, which has a NATS client.

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nkeys"
	"golang.org/x/crypto/bcrypt"
	appsv1 "k8s.io/api/apps/v1"
)

// pki is a test CA and the files of the certificates it signed.
type pki struct {
	dir    string
	caCert *x509.Certificate
	caKey  *ecdsa.PrivateKey
}

func newPKI(t *testing.T, dir, name string) *pki {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	p := &pki{dir, cert, key}
	writePEM(t, p.file(name+".pem"), "CERTIFICATE", der)
	return p
}

func (p *pki) file(name string) string { return filepath.Join(p.dir, name) }

// issue makes name.pem and name-key.pem, a certificate for 127.0.0.1 and
// localhost with the given use.
func (p *pki) issue(t *testing.T, name string, usage x509.ExtKeyUsage) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.caCert, &key.PublicKey, p.caKey)
	if err != nil {
		t.Fatal(err)
	}
	writePEM(t, p.file(name+".pem"), "CERTIFICATE", der)
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	writePEM(t, p.file(name+"-key.pem"), "EC PRIVATE KEY", kder)
}

func writePEM(t *testing.T, file, kind string, der []byte) {
	t.Helper()
	if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

// process is a program running in the background for one test.
type process struct {
	cmd            *exec.Cmd
	stdout, stderr lockedBuffer
	done           chan struct{}
	err            error
}

// lockedBuffer collects a process's output while a test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startProcess(t *testing.T, env []string, prog string, args ...string) *process {
	t.Helper()
	p := &process{done: make(chan struct{})}
	p.cmd = exec.Command(prog, args...)
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("%s %s stderr:\n%s", filepath.Base(prog), strings.Join(args, " "), p.errors())
		}
	})
	return p
}

func (p *process) errors() string { return p.stderr.String() }

func (p *process) output() string { return p.stdout.String() }

// wait returns the exit code once the process ends.
func (p *process) wait(t *testing.T, timeout time.Duration, what string) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(timeout):
		t.Fatalf("%s still runs after %s; stderr:\n%s", what, timeout, p.errors())
	}
	if p.cmd.ProcessState == nil {
		t.Fatalf("%s: %v", what, p.err)
	}
	return p.cmd.ProcessState.ExitCode()
}

// waitFor polls cond until it holds, failing the test after timeout.
func waitFor(t *testing.T, timeout time.Duration, cond func() bool, format string, args ...any) {
	t.Helper()
	for deadline := time.Now().Add(timeout); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for "+format, append([]any{timeout}, args...)...)
		}
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// queueWorkerArgs returns the worker arguments of queue-workers.yaml with
// the server URL and the seal key's file replaced.
func queueWorkerArgs(t *testing.T, url, key string) []string {
	t.Helper()
	for _, o := range manifests(t) {
		d, ok := o.obj.(*appsv1.Deployment)
		if !ok {
			continue
		}
		args := slices.Clone(d.Spec.Template.Spec.Containers[0].Args)
		i := slices.Index(args, "--nats")
		if len(args) == 0 || args[0] != "worker" || i < 0 || i+1 == len(args) {
			t.Fatalf("%s: the workers run %v, want worker --nats URL …", o, args)
		}
		args[i+1] = url
		k := slices.Index(args, "--key-file")
		if k < 0 || k+1 == len(args) {
			t.Fatalf("%s: the workers need the coordinator's seal key, --key-file: %v", o, args)
		}
		args[k+1] = key
		return args
	}
	t.Fatal("no Deployment of workers in kubernetes/")
	return nil
}

// securedServer is a running nats-server with deploy/nats/nats-server.conf
// and the files its clients need.
type securedServer struct {
	proc         *process
	addr         string   // host:port
	ca, other    *pki     // the server's CA, and one nobody trusts
	password     string   // the coordinator's
	seedFiles    []string // the workers' NKey seeds, one each
	workersPub   string   // their public keys (the coordinator's --auth-nkeys)
	strangerFile string   // an NKey seed the server does not know
}

// startSecuredServer makes a test CA, certificates, a bcrypt password hash
// and an NKey for each of two workers, writes the users with
// nats/users.sh, and starts nats-server with the configuration in nats/
// (copied beside the users, which it includes).
func startSecuredServer(t *testing.T) *securedServer {
	t.Helper()
	server := binary(t, "nats-server", "github.com/nats-io/nats-server/v2")
	dir := t.TempDir()
	s := &securedServer{
		addr:         net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t))),
		ca:           newPKI(t, dir, "ca"),
		other:        newPKI(t, dir, "other-ca"),
		seedFiles:    []string{filepath.Join(dir, "worker1.nk"), filepath.Join(dir, "worker2.nk")},
		workersPub:   filepath.Join(dir, "workers.pub"),
		strangerFile: filepath.Join(dir, "stranger.nk"),
	}
	s.ca.issue(t, "server", x509.ExtKeyUsageServerAuth)
	s.ca.issue(t, "client", x509.ExtKeyUsageClientAuth)
	s.other.issue(t, "stranger", x509.ExtKeyUsageClientAuth)

	pw := make([]byte, 16)
	if _, err := rand.Read(pw); err != nil {
		t.Fatal(err)
	}
	s.password = hex.EncodeToString(pw)
	hash, err := bcrypt.GenerateFromPassword([]byte(s.password), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	pubs := "# the workers of the test\n"
	for _, f := range s.seedFiles {
		pubs += writeNKey(t, f) + "\n"
	}
	writeNKey(t, s.strangerFile)
	if err := os.WriteFile(s.workersPub, []byte(pubs), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("nats", "users.sh"))
	if err != nil {
		t.Fatal(err)
	}
	users := run(t, 10*time.Second, dir, nil, "sh", script, s.workersPub)
	if users.code != 0 {
		t.Fatalf("nats/users.sh: exit %d: %s", users.code, users.stderr)
	}
	conf, err := os.ReadFile(filepath.Join("nats", "nats-server.conf"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"nats-server.conf": string(conf), "users.conf": users.stdout} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	s.proc = startProcess(t, []string{
		"NQ_LISTEN=" + s.addr,
		"NQ_STORE=" + filepath.Join(dir, "jetstream"),
		"NQ_TLS_CERT=" + s.ca.file("server.pem"),
		"NQ_TLS_KEY=" + s.ca.file("server-key.pem"),
		"NQ_TLS_CA=" + s.ca.file("ca.pem"),
		"NQ_COORDINATOR_PASSWORD=" + string(hash),
	}, server, "-c", filepath.Join(dir, "nats-server.conf"))
	waitFor(t, 20*time.Second, func() bool {
		select {
		case <-s.proc.done:
			t.Fatalf("nats-server exited: %v\n%s", s.proc.err, s.proc.errors())
		default:
		}
		return strings.Contains(s.proc.errors(), "Server is ready")
	}, "nats-server to be ready")
	for _, want := range []string{"TLS required for client connections", "Starting JetStream"} {
		if !strings.Contains(s.proc.errors(), want) {
			t.Errorf("nats-server log lacks %q:\n%s", want, s.proc.errors())
		}
	}
	return s
}

// writeNKey makes a user NKey, writes its seed to file and returns its
// public key.
func writeNKey(t *testing.T, file string) string {
	t.Helper()
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	seed, err := kp.Seed()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	return pub
}

func TestQueueOnStandaloneServerWithTLSAndCredentials(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a nats-server, a coordinator and two workers")
	}
	bin := nqueensBin(t)
	s := startSecuredServer(t)

	clientTLS := []string{"--tls-ca", s.ca.file("ca.pem"), "--tls-cert", s.ca.file("client.pem"), "--tls-key", s.ca.file("client-key.pem")}
	url := "tls://" + s.addr
	const n = 15
	key := filepath.Join(t.TempDir(), "seal.key")
	writeSealKey(t, key)
	// Each worker has an NKey of its own, listed with --auth-nkeys: every
	// block is counted by both. --verify-fraction 0: a block the
	// coordinator had counted itself as a spot check was decided by its
	// count and one worker's, and the other worker declined its copy (the
	// test failed 2 runs in 3 on the quiet machine, wanting each block
	// counted by both workers).
	coord := startProcess(t, nil, bin, append([]string{"coordinator", strconv.Itoa(n), "--key-file", key,
		"--nats", "tls://coordinator:" + s.password + "@" + s.addr, "--progress-every", "1s",
		"--auth-nkeys", s.workersPub, "--replicas", "2", "--verify-fraction", "0"}, clientTLS...)...)
	// The workers start once the blocks are published: started first, on a
	// loaded machine --exit-when-idle could end them before there was work.
	waitFor(t, time.Minute, func() bool { return strings.Contains(coord.errors(), "published") }, "the coordinator to publish the blocks")
	var workers []*process
	for i := range 2 {
		args := append(queueWorkerArgs(t, url, key), "--nats-nkey", s.seedFiles[i], "--name", fmt.Sprintf("w%d", i+1), "--exit-when-idle", "3s")
		workers = append(workers, startProcess(t, nil, bin, append(args, clientTLS...)...))
	}
	if code := coord.wait(t, 2*time.Minute, "coordinator"); code != 0 || coord.output() != published(t, n) {
		t.Fatalf("coordinator: exit %d, stdout %q, want %q", code, coord.output(), published(t, n))
	}
	summary := regexp.MustCompile(`worker (w\d): (\d+) units? counted, .*\b(\d+) alarms?, (\d+) failures?`)
	units := 0
	for i, w := range workers {
		if code := w.wait(t, 30*time.Second, fmt.Sprintf("worker %d", i+1)); code != 0 {
			t.Fatalf("worker %d: exit %d", i+1, code)
		}
		m := summary.FindStringSubmatch(w.errors())
		if m == nil || m[3] != "0" || m[4] != "0" {
			t.Fatalf("worker %d: no clean summary in:\n%s", i+1, w.errors())
		}
		u, _ := strconv.Atoi(m[2])
		units += u
		t.Logf("worker %s: %s unit(s)", m[1], m[2])
	}
	var whole struct{ Units int }
	r := run(t, time.Minute, t.TempDir(), nil, bin, "count", strconv.Itoa(n), "--json")
	if err := json.Unmarshal([]byte(r.stdout), &whole); err != nil || whole.Units == 0 {
		t.Fatalf("nqueens count %d --json: %q: %v", n, r.stdout, err)
	}
	if units != 2*whole.Units {
		t.Errorf("the workers counted %d units in all, want the %d units of N = %d twice (--replicas 2)", units, whole.Units, n)
	}

	// The door is closed to whoever lacks one of the credentials. A
	// coordinator gives up at once (workers would keep trying).
	const tlsRefused = `tls: certificate required|connection closed by remote after TLS handshake`
	refused := []struct {
		what      string
		args      []string
		want      string // a regular expression
		serverLog string // what the server says about it, when the client cannot tell
	}{
		{"no user", append([]string{"--nats", url}, clientTLS...), "Authorization Violation", ""},
		{"wrong password", append([]string{"--nats", "tls://coordinator:x" + s.password + "@" + s.addr}, clientTLS...), "Authorization Violation", ""},
		{"an NKey the server does not know", append([]string{"--nats", url, "--nats-nkey", s.strangerFile}, clientTLS...), "Authorization Violation", ""},
		{"a server it does not trust", []string{"--nats", url, "--nats-nkey", s.seedFiles[0], "--tls-cert", s.ca.file("client.pem"), "--tls-key", s.ca.file("client-key.pem"), "--tls-ca", s.other.file("other-ca.pem")},
			"certificate signed by unknown authority", ""},
		// With TLS 1.3 the client may learn only that the server hung up.
		{"no client certificate", []string{"--nats", url, "--nats-nkey", s.seedFiles[0], "--tls-ca", s.ca.file("ca.pem")},
			tlsRefused, "client didn't provide a certificate"},
		// Go's TLS client holds back a certificate from a CA the server does
		// not name as acceptable, so the server sees none.
		{"a client certificate of another CA", []string{"--nats", url, "--nats-nkey", s.seedFiles[0], "--tls-ca", s.ca.file("ca.pem"), "--tls-cert", s.other.file("stranger.pem"), "--tls-key", s.other.file("stranger-key.pem")},
			tlsRefused, "client didn't provide a certificate"},
	}
	for _, c := range refused {
		before := len(s.proc.errors())
		r := run(t, 30*time.Second, t.TempDir(), nil, bin, append([]string{"coordinator", "10"}, c.args...)...)
		if r.code != 1 || !regexp.MustCompile(c.want).MatchString(r.stderr) {
			t.Errorf("coordinator with %s: exit %d, stderr %q; want exit 1 and %q", c.what, r.code, r.stderr, c.want)
		}
		if c.serverLog == "" {
			continue
		}
		waitFor(t, 5*time.Second, func() bool { return strings.Contains(s.proc.errors()[before:], c.serverLog) },
			"nats-server to log %q for a coordinator with %s", c.serverLog, c.what)
	}
}
