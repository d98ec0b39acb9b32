package cluster

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// ConnOptions say how to reach a NATS server. The fields map onto nats.go's
// options of the same purpose; user and password or a token can also be
// written in the URL (nats://user:pass@host:4222).
type ConnOptions struct {
	URL     string // comma-separated server URLs; "" means nats://127.0.0.1:4222
	Name    string // client name shown by the server's monitoring
	Creds   string // JWT credentials file (nats.UserCredentials)
	NKey    string // NKey seed file (nats.NkeyOptionFromSeed)
	TLSCA   string // CA certificates to verify the server (nats.RootCAs)
	TLSCert string // client certificate and key for mutual TLS (nats.ClientCert)
	TLSKey  string
	// ReconnectWait is the pause between reconnection attempts (default
	// 500 ms); a client keeps trying forever, so workers ride out a
	// restarting server.
	ReconnectWait time.Duration
	// FailFast makes Connect return an error when the first attempt
	// fails, instead of retrying in the background.
	FailFast bool
}

// Connect opens a connection with o. Unless o.FailFast, it retries in the
// background when no server is up yet, so workers may start before the
// coordinator.
func Connect(o ConnOptions) (*nats.Conn, error) {
	url := o.URL
	if url == "" {
		url = nats.DefaultURL
	}
	wait := o.ReconnectWait
	if wait <= 0 {
		wait = 500 * time.Millisecond
	}
	opts := []nats.Option{
		nats.Name(o.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(wait),
		nats.RetryOnFailedConnect(!o.FailFast),
	}
	if o.Creds != "" {
		opts = append(opts, nats.UserCredentials(o.Creds))
	}
	if o.NKey != "" {
		opt, err := nats.NkeyOptionFromSeed(o.NKey)
		if err != nil {
			return nil, fmt.Errorf("nkey seed %s: %w", o.NKey, err)
		}
		opts = append(opts, opt)
	}
	if o.TLSCA != "" {
		opts = append(opts, nats.RootCAs(o.TLSCA))
	}
	if (o.TLSCert == "") != (o.TLSKey == "") {
		return nil, errors.New("a TLS client certificate needs both the certificate and the key file")
	}
	if o.TLSCert != "" {
		opts = append(opts, nats.ClientCert(o.TLSCert, o.TLSKey))
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", url, err)
	}
	return nc, nil
}

// ServerOptions configure an embedded nats-server.
type ServerOptions struct {
	// Listen is host:port; "" means 127.0.0.1:4222, and port 0 picks a
	// free one. Listening beyond loopback is the caller's explicit choice.
	Listen string
	// StoreDir holds JetStream's files, so a restarted server keeps the
	// streams and buckets of unfinished runs.
	StoreDir string
}

// StartServer starts a nats-server with JetStream and file storage in this
// process and waits until it accepts clients. Stop it with Shutdown.
func StartServer(o ServerOptions) (*server.Server, error) {
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
	s, err := server.NewServer(&server.Options{
		Host:      host,
		Port:      port,
		JetStream: true,
		StoreDir:  o.StoreDir,
		NoSigs:    true,
		NoLog:     true,
	})
	if err != nil {
		return nil, err
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("embedded nats-server on %s did not start (is the port taken?)", listen)
	}
	return s, nil
}
