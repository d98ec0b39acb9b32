package queue

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
)

// ConnOptions say how to reach a NATS server. The fields map onto nats.go's
// options of the same purpose; user and password can also be written in
// the URL (nats://user:pass@host:4222).
type ConnOptions struct {
	URL       string // comma-separated server URLs; "" means nats://127.0.0.1:4222
	Name      string // client name shown by the server's monitoring
	Creds     string // JWT credentials file (nats.UserCredentials)
	NKey      string // NKey seed file (nats.NkeyOptionFromSeed)
	TokenFile string // file holding the server's token (nats.Token)
	TLSCA     string // CA certificates to verify the server (nats.RootCAs)
	TLSCert   string // client certificate and key for mutual TLS (nats.ClientCert)
	TLSKey    string
	// FailFast makes Connect return an error when the first attempt
	// fails, instead of retrying in the background with backoff (from
	// half a second to 30 seconds between attempts), so that workers may
	// start before the coordinator and ride out a restarting server.
	FailFast bool
	// Log receives a record when the connection is lost, each failed
	// attempt to reach the server (at most one a minute once it keeps
	// failing), and when it is back. Nil discards them.
	Log *slog.Logger
	// InProcess connects to an embedded server without the network (no
	// TLS needed); see [EmbeddedServer.Conn].
	InProcess nats.InProcessConnProvider
	// seed is an NKey seed given in memory (the coordinator's own key for
	// an embedded server with NKey users).
	seed []byte
}

// Reconnection backoff, doubling from the first wait to the last.
const (
	reconnectFirst = 500 * time.Millisecond
	reconnectMax   = 30 * time.Second
	logFailedEvery = time.Minute
)

// Connect opens a connection with o.
func Connect(o ConnOptions) (*nats.Conn, error) {
	url := o.URL
	if url == "" {
		url = nats.DefaultURL
	}
	logger := o.Log
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	opts := []nats.Option{
		nats.Name(o.Name),
		nats.MaxReconnects(-1),
		nats.CustomReconnectDelay(func(attempts int) time.Duration {
			d := reconnectFirst << min(attempts, 6)
			return min(d, reconnectMax)
		}),
		nats.RetryOnFailedConnect(!o.FailFast),
		nats.ConnectHandler(func(nc *nats.Conn) {
			if o.InProcess == nil { // in process, the URL means nothing
				logger.Info("connected", "url", nc.ConnectedUrlRedacted())
			}
		}),
		nats.DisconnectErrHandler(func(nc *nats.Conn, err error) {
			if err != nil {
				logger.Warn("lost the connection to the NATS server; reconnecting", "error", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			logger.Info("reconnected", "url", nc.ConnectedUrlRedacted())
		}),
	}
	var lastLogged time.Time
	refused := 0 // attempts in a row the server refused the credentials
	opts = append(opts, nats.ReconnectErrHandler(func(nc *nats.Conn, err error) {
		if credentialError(err) {
			// Credentials do not mend by waiting: after a few refusals the
			// connection is closed, and its users say why.
			if refused++; refused >= credentialTries {
				nc.Close()
				return
			}
		} else {
			refused = 0
		}
		if time.Since(lastLogged) >= logFailedEvery {
			lastLogged = time.Now()
			logger.Warn("cannot reach the NATS server; retrying", "url", redact(url), "error", err, "retry_every_at_most", reconnectMax)
		}
	}))
	opts = append(opts, nats.ErrorHandler(asyncErrors(logger)))
	more, err := o.authOptions()
	if err != nil {
		return nil, err
	}
	opts = append(opts, more...)
	// A client with a key of its own gets its replies on inboxes under
	// that key, the only ones a worker may read (workerPermissions):
	// with every inbox open, one worker could read the blocks the server
	// hands another, and their acknowledgement subjects.
	if id, err := LoadIdentity(o); err == nil && id.Public() != "" {
		opts = append(opts, nats.CustomInboxPrefix(inboxPrefix(id.Public())))
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", redact(url), err)
	}
	return nc, nil
}

// credentialTries is how many refusals of its credentials in a row a
// connection takes before it is closed.
const credentialTries = 3

// credentialError reports whether err is the server refusing the
// client's credentials.
func credentialError(err error) bool {
	if err == nil {
		return false
	}
	for _, e := range []error{nats.ErrAuthorization, nats.ErrAuthExpired, nats.ErrAuthRevoked, nats.ErrNkeysNotSupported} {
		if errors.Is(err, e) {
			return true
		}
	}
	return strings.Contains(strings.ToLower(err.Error()), "authorization violation")
}

// CredentialError is a connection closed because the server refused its
// credentials.
type CredentialError struct{ Err error }

func (e *CredentialError) Error() string {
	return fmt.Sprintf("the NATS server refused this client's credentials (%v), %d times in a row: check --nats-nkey, --nats-creds, --nats-token-file, or the user and password in --nats", e.Err, credentialTries)
}

func (e *CredentialError) Unwrap() error { return e.Err }

// closedError says why nc, closed, can serve no more.
func closedError(nc *nats.Conn) error {
	if err := nc.LastError(); credentialError(err) {
		return &CredentialError{Err: err}
	}
	return fmt.Errorf("the connection to the NATS server is closed: %v", nc.LastError())
}

// authOptions turns o's credentials and TLS files into nats.go options.
func (o ConnOptions) authOptions() ([]nats.Option, error) {
	var opts []nats.Option
	if o.InProcess != nil {
		opts = append(opts, nats.InProcessServer(o.InProcess))
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
	if o.seed != nil {
		kp, err := nkeys.FromSeed(o.seed)
		if err != nil {
			return nil, err
		}
		pub, _ := kp.PublicKey()
		opts = append(opts, nats.Nkey(pub, kp.Sign))
	}
	if o.TokenFile != "" {
		tok, err := readSecret(o.TokenFile)
		if err != nil {
			return nil, err
		}
		opts = append(opts, nats.Token(tok))
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
	return opts, nil
}

// redact hides a password or token written in URLs.
func redact(urls string) string {
	var out []string
	for _, u := range strings.Split(urls, ",") {
		if at := strings.LastIndexByte(u, '@'); at >= 0 {
			scheme, _, ok := strings.Cut(u[:at], "://")
			if ok {
				u = scheme + "://***" + u[at:]
			} else {
				u = "***" + u[at:]
			}
		}
		out = append(out, u)
	}
	return strings.Join(out, ",")
}

// readSecret reads a token file: its first line, without spaces.
func readSecret(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	tok := strings.TrimSpace(line)
	if tok == "" {
		return "", fmt.Errorf("token file %s is empty", path)
	}
	return tok, nil
}

// storageError reports whether err is the server refusing a write for lack
// of room: a full disk, or JetStream's limits reached, or JetStream
// stopped (which a server does when its disk fills).
func storageError(err error) bool {
	var api *jetstream.APIError
	switch {
	case err == nil:
		return false
	case errors.As(err, &api) && (api.ErrorCode == jetstream.JSErrCodeJetStreamNotEnabled || api.ErrorCode == 10023 || api.ErrorCode == 10047):
		// 10023 insufficient resources, 10047 storage resources exceeded
		return true
	case errors.Is(err, jetstream.ErrJetStreamNotEnabled), errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount):
		return true
	}
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "insufficient resources") || strings.Contains(msg, "no space left") || strings.Contains(msg, "resources exceeded")
}

// StoreFullError ends a run whose server can store no more results: it
// says what is full, from the server's answer (Err), and how to go on.
type StoreFullError struct {
	Run         string
	Done, Units int
	Err         error
}

func (e *StoreFullError) Error() string {
	return fmt.Sprintf("run %s stopped with %d of %d units counted: the NATS server can store no more: %s. "+
		"Free space on the disk of its store (an embedded server's is the --store folder) or raise the limit; a server of your own also needs a restart after its disk was full. "+
		"Then run the same command again: every result stored so far is kept (the server said: %s)", e.Run, e.Done, e.Units, e.what(), e.said())
}

// said is the server's answer: JetStream's description and code, without
// the client's prefixes, or the error as it came.
func (e *StoreFullError) said() string {
	var api *jetstream.APIError
	if errors.As(e.Err, &api) {
		return fmt.Sprintf("%s, JetStream error %d", api.Description, api.ErrorCode)
	}
	return fmt.Sprint(e.Err)
}

// what says what is full, from the server's answer.
func (e *StoreFullError) what() string {
	msg := strings.ToLower(fmt.Sprint(e.Err))
	var api *jetstream.APIError
	switch {
	case strings.Contains(msg, "no space left"), strings.Contains(msg, "write error"):
		return "the disk that holds its store is full"
	case errors.As(e.Err, &api) && api.ErrorCode == jetstream.JSErrCodeJetStreamNotEnabled,
		errors.Is(e.Err, jetstream.ErrJetStreamNotEnabled), errors.Is(e.Err, jetstream.ErrJetStreamNotEnabledForAccount):
		return "it has stopped JetStream, as it does when the disk of its store fills"
	case errors.Is(e.Err, errSilentStore):
		return "it answers reads and no writes, as JetStream does when the disk of its store is full"
	}
	return "its JetStream storage limit is reached (the server's max_store, or its account's)"
}

// errSilentStore is the cause of a StoreFullError whose server answered
// no write at several probes in a row.
var errSilentStore = errors.New("no answer to a write")

func (e *StoreFullError) Unwrap() error { return e.Err }

// inboxPrefix is the prefix of the inboxes of the user of public key pub.
func inboxPrefix(pub string) string { return "_INBOX." + pub }

// asyncErrors logs the errors that nats.go reports outside any call,
// which it would otherwise print raw on stderr ("nats: slow consumer, …"):
// a subscription that fell behind (a flood, or an overloaded process), an
// operation the server's permissions refused. One line per kind, at most
// every rateLogEvery.
func asyncErrors(logger *slog.Logger) nats.ErrHandler {
	var r rateLog
	return func(_ *nats.Conn, sub *nats.Subscription, err error) {
		msg := "the NATS connection reported an error"
		switch {
		case errors.Is(err, nats.ErrSlowConsumer):
			msg = "this process fell behind the messages of a subscription, and the NATS client dropped some (slow consumer): the machine is overloaded, or a peer floods the subject"
		case errors.Is(err, nats.ErrPermissionViolation):
			msg = "the NATS server refused an operation of this client (permissions violation): its permissions for this credential may be older than this program (deploy/nats/users.sh writes them)"
		}
		args := []any{"error", err}
		if sub != nil {
			args = append(args, "subject", sub.Subject)
		}
		r.log(logger, slog.LevelWarn, msg, msg, args...)
	}
}
