package queue

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
)

// ServerOptions configure an embedded nats-server.
type ServerOptions struct {
	// Listen is host:port; "" means 127.0.0.1:4222, and port 0 picks a
	// free one.
	Listen string
	// StoreDir holds JetStream's files, so a restarted server keeps the
	// streams and buckets of unfinished runs.
	StoreDir string
	// TokenFile names a file holding a shared secret every client must
	// give; NKeysFile a file of the public NKeys (one per line, "U…") of
	// the users allowed in. At most one of them. A server that listens
	// beyond loopback must have one (see [ErrOpenServer]).
	TokenFile, NKeysFile string
	// TLSCert and TLSKey make the server require TLS from network clients.
	TLSCert, TLSKey string
}

// ErrOpenServer refuses an embedded server that anyone on the network could
// use: without credentials, any client could store forged results.
var ErrOpenServer = errors.New("an embedded server that listens beyond loopback needs credentials: give a token file (workers pass the same file with --nats-token-file) or a file of the workers' public NKeys (workers pass their seed with --nats-nkey), and preferably a TLS certificate and key; or listen on 127.0.0.1")

// EmbeddedServer is a nats-server running in this process.
type EmbeddedServer struct {
	*server.Server
	conn ConnOptions

	mu   sync.Mutex
	opts *server.Options // as started, less the keys revoked since
}

// Conn returns the options by which this process connects to the server:
// in process, with the token or an NKey of its own.
func (s *EmbeddedServer) Conn() ConnOptions { return s.conn }

// StartServer starts a nats-server with JetStream and file storage in this
// process and waits until it accepts clients. Stop it with Shutdown.
func StartServer(o ServerOptions) (*EmbeddedServer, error) {
	listen := o.Listen
	if listen == "" {
		listen = "127.0.0.1:4222"
	}
	host, portStr, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", listen, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("listen address %q: bad port", listen)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if o.StoreDir == "" {
		return nil, errors.New("the embedded server needs a store folder")
	}
	opts := &server.Options{Host: host, Port: port, JetStream: true, StoreDir: o.StoreDir, NoSigs: true, NoLog: true}
	es := &EmbeddedServer{}
	if err := es.secure(opts, o, loopbackOnly(host)); err != nil {
		return nil, err
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, err
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("embedded nats-server on %s did not start (is the port taken?)", listen)
	}
	es.Server = s
	es.conn.InProcess = s
	es.opts = opts.Clone()
	return es, nil
}

// Revoke shuts the worker user of public key pub out of the server: its
// connections are closed and it cannot connect again until the server
// restarts (the coordinator revokes a banned key again at its next start,
// from the bans in the bucket). It reports whether the server admitted
// the key: one without NKey users, or that does not know the key, is left
// as it is.
func (s *EmbeddedServer) Revoke(pub string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts == nil || len(s.opts.Nkeys) == 0 {
		return false, nil
	}
	next := s.opts.Clone()
	next.Nkeys = slices.DeleteFunc(next.Nkeys, func(u *server.NkeyUser) bool { return u.Nkey == pub })
	if len(next.Nkeys) == len(s.opts.Nkeys) {
		return false, nil
	}
	if err := s.ReloadOptions(next); err != nil {
		return false, fmt.Errorf("revoking key %s: %w", voterName(pub), err)
	}
	s.opts = next
	return true, nil
}

// StoreError returns the first write error JetStream met in the server's
// store (a full disk: "no space left on device"), or nil. After one, the
// server answers reads but no writes of that stream until it restarts:
// it gives a client that writes no reply at all, so the coordinator
// asks here why. Cost: a look at every stream of the store.
func (s *EmbeddedServer) StoreError() error {
	h := s.Healthz(&server.HealthzOptions{Details: true})
	for _, e := range h.Errors {
		if e.Type == server.HealthzErrorStream && strings.Contains(e.Error, "write error") {
			return errors.New(e.Error)
		}
	}
	return nil
}

// workerPermissions are what the user of public key pub may do on an
// embedded server: what a worker does, and write only under its own key
// token, so that one credential cannot cast, overwrite or delete a vote of
// another, raise an alarm about another, report a failure in another's
// name, or read another's results, and read replies only on its own
// inboxes (inboxPrefix), so that it cannot read the blocks the server
// hands another. The coordinator's own user has no such limits.
func workerPermissions(pub string) *server.Permissions {
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			"$JS.API.INFO",
			"$JS.API.STREAM.LIST", "$JS.API.STREAM.NAMES", "$JS.API.STREAM.INFO.*",
			"$JS.API.CONSUMER.INFO.*." + consumer, "$JS.API.CONSUMER.MSG.NEXT.*." + consumer,
			"$JS.ACK.*." + consumer + ".>", // ack, nak, in progress
			// Its own results, alarms, presence and failures; it reads its
			// own results, ban and refusal.
			"$KV.*.vote.*." + pub, "$KV.*.alarm.*." + pub + ".*", "$KV.*.worker." + pub, "$KV.*.failed.*." + pub,
			"$JS.API.DIRECT.GET.*.$KV.*.vote.*." + pub, "$JS.API.DIRECT.GET.*.$KV.*.banned." + pub, "$JS.API.DIRECT.GET.*.$KV.*.refused." + pub,
			// Its notices of copies it gave back, and no block message: when
			// workers could publish those, one key flooded the queue with
			// forged blocks and stopped the run.
			"nqueens.*.back." + pub,
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{inboxPrefix(pub) + ".>"}},
	}
}

// secure sets the server's credentials and TLS from o.
func (es *EmbeddedServer) secure(opts *server.Options, o ServerOptions, loopback bool) error {
	switch {
	case o.TokenFile != "" && o.NKeysFile != "":
		return errors.New("give a token file or an NKeys file, not both")
	case o.TokenFile != "":
		tok, err := readSecret(o.TokenFile)
		if err != nil {
			return err
		}
		opts.Authorization = tok
		es.conn.TokenFile = o.TokenFile
	case o.NKeysFile != "":
		keys, err := ReadVoters(o.NKeysFile)
		if err != nil {
			return err
		}
		var users []*server.NkeyUser
		for _, k := range keys {
			users = append(users, &server.NkeyUser{Nkey: k, Permissions: workerPermissions(k)})
		}
		// The coordinator gets a key of its own, known only in memory.
		kp, err := nkeys.CreateUser()
		if err != nil {
			return err
		}
		pub, _ := kp.PublicKey()
		seed, _ := kp.Seed()
		opts.Nkeys = append(users, &server.NkeyUser{Nkey: pub})
		es.conn.seed = seed
	case !loopback:
		return ErrOpenServer
	}
	if (o.TLSCert == "") != (o.TLSKey == "") {
		return errors.New("the server's TLS certificate needs its key, and the key its certificate")
	}
	if o.TLSCert != "" {
		cfg, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: o.TLSCert, KeyFile: o.TLSKey, Timeout: 2})
		if err != nil {
			return fmt.Errorf("TLS certificate: %w", err)
		}
		cfg.MinVersion = tls.VersionTLS12
		opts.TLSConfig, opts.TLSTimeout = cfg, 2
	}
	return nil
}

func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

// loopbackOnly reports whether host names this machine only: a loopback
// address, or a name all of whose addresses are loopback. An empty host or
// 0.0.0.0 means every interface.
func loopbackOnly(host string) bool {
	if host == "" {
		return false
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	addrs, err := net.LookupHost(host)
	if err != nil || len(addrs) == 0 {
		return false
	}
	for _, a := range addrs {
		if ip := net.ParseIP(a); ip == nil || !ip.IsLoopback() {
			return false
		}
	}
	return true
}
