package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/nqueens/nqueens/cluster/queue"
	"github.com/spf13/cobra"
)

// natsFlags are the connection options shared by coordinator and worker;
// they map onto nats.go's options.
type natsFlags struct {
	url, creds, nkey, tokenFile, tlsCA, tlsCert, tlsKey string
}

func addNATSFlags(cmd *cobra.Command, f *natsFlags, urlHelp string) {
	fl := cmd.Flags()
	fl.StringVar(&f.url, "nats", "", urlHelp)
	fl.StringVar(&f.creds, "nats-creds", "", "NATS credentials file (JWT and NKey seed)")
	fl.StringVar(&f.nkey, "nats-nkey", "", "NATS NKey seed file")
	fl.StringVar(&f.tokenFile, "nats-token-file", "", "file holding the NATS server's token")
	fl.StringVar(&f.tlsCA, "tls-ca", "", "CA certificate file to verify the NATS server")
	fl.StringVar(&f.tlsCert, "tls-cert", "", "client certificate file for TLS (with --tls-key)")
	fl.StringVar(&f.tlsKey, "tls-key", "", "client key file for TLS (with --tls-cert)")
}

// natsFlagGroups declares the combinations of the NATS flags that nats.go
// would refuse later.
func natsFlagGroups(cmd *cobra.Command) {
	cmd.MarkFlagsRequiredTogether("tls-cert", "tls-key")
	cmd.MarkFlagsMutuallyExclusive("nats-token-file", "nats-nkey", "nats-creds")
}

// any reports whether a client credential or TLS flag is set.
func (f *natsFlags) any() bool {
	return f.creds != "" || f.nkey != "" || f.tokenFile != "" || f.tlsCA != "" || f.tlsCert != ""
}

func (f *natsFlags) options(name string) queue.ConnOptions {
	return queue.ConnOptions{URL: f.url, Name: name, Creds: f.creds, NKey: f.nkey, TokenFile: f.tokenFile,
		TLSCA: f.tlsCA, TLSCert: f.tlsCert, TLSKey: f.tlsKey}
}

const workerLong = `worker connects to the NATS server of one or more "nqueens coordinator" runs,
pulls blocks of work units, counts them on --workers cores (one block per
core at a time), stores each block's result in the run's key-value bucket
under a key naming the block and the worker (create-only), and only then
acknowledges the block. While a block runs it tells the server it is in
progress, so it is not handed to another worker. If the worker dies, its
unacknowledged blocks go to other workers after the ack wait.

Every result is sealed under the pool's seal key (the user's, or
--key-file: a copy of the coordinator's) and, when the worker connects with
an NKey (--nats-nkey, or the seed in --nats-creds), signed by it: that key
is the worker's identity as a voter. A run with --replicas needs each block
counted by that many distinct keys; --name is a label shown in messages,
and workers without an NKey all vote as one shared credential, whatever
their names. A worker whose result the coordinator finds wrong is banned
from the run: it says ALARM, leaves that run, goes on with any other, and
when it stops (Ctrl-C, --exit-when-idle) it exits 1 naming the runs that
banned it. A worker whose results the coordinator refuses (sealed under
another key than the coordinator's, or signed by an NKey that is not among
its voters) says why, leaves that run, and exits 1 too.

--name is at most 128 printable characters of valid UTF-8.

It waits for runs and survives server restarts, saying on stderr when it
cannot reach the server (it retries with backoff, up to every 30 s), and
exits 1 when the server refuses its credentials a few times in a row;
Ctrl-C or SIGTERM hands the blocks in progress back at once.
--exit-when-idle makes it stop once the queue has said for that long that
it holds no work (an unreachable server is not an idle one).`

// workerOptions are the flags of worker.
type workerOptions struct {
	streams
	nats    natsFlags
	workers int
	name    string
	idle    time.Duration
	verbose bool
	key     sealKey
}

func newWorkerCmd() *cobra.Command {
	o := &workerOptions{}
	cmd := &cobra.Command{
		Use:   "worker --nats URL",
		Short: "Count blocks of work units from a NATS JetStream queue for a coordinator",
		Long:  workerLong,
		Args:  exactArgs(0, "no arguments"),
	}
	addNATSFlags(cmd, &o.nats, "NATS server URL(s), comma-separated (default nats://127.0.0.1:4222)")
	fl := cmd.Flags()
	fl.IntVarP(&o.workers, "workers", "w", 0, "blocks counted at once (default: all cores)")
	fl.StringVar(&o.name, "name", "", "label of this worker in results and messages (default host:pid); its identity as a voter is its NKey")
	fl.DurationVar(&o.idle, "exit-when-idle", 0, "exit once the queue has had no work for this long (0: never)")
	fl.BoolVarP(&o.verbose, "verbose", "v", false, "log every block (the debug level)")
	fl.BoolP("quiet", "q", false, "print only warnings and errors on stderr (no notes, no summary)")
	cmd.MarkFlagsMutuallyExclusive("quiet", "verbose")
	addKeyFlag(cmd, &o.key)
	natsFlagGroups(cmd)
	return command(cmd, o)
}

func (o *workerOptions) validate([]string) error {
	if err := checkWorkers(o.workers); err != nil {
		return err
	}
	if o.idle < 0 {
		return usagef("--exit-when-idle must not be negative, got %s", o.idle)
	}
	if o.name == "" {
		host, _ := os.Hostname()
		o.name = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	if err := queue.CheckName(o.name); err != nil {
		return usagef("--name: %v", err)
	}
	return nil
}

func (o *workerOptions) run(ctx context.Context) error {
	stderr := o.stderr
	level := quietLevel(o.quiet)
	if o.verbose {
		level = slog.LevelDebug
	}
	logger := newLineLogger(stderr, "worker", level)
	key, err := o.key.get(stderr, o.quiet)
	if err != nil {
		return err
	}
	conn := o.nats.options("nqueens worker " + o.name)
	conn.Log = logger
	id, err := queue.LoadIdentity(conn)
	if err != nil {
		return err
	}
	nc, err := queue.Connect(conn)
	if err != nil {
		return err
	}
	defer nc.Close()
	start := time.Now()
	rep, err := queue.Work(ctx, nc, queue.WorkerOptions{
		Workers: o.workers, Name: o.name, IdleExit: o.idle, Log: logger, Key: key, Identity: id,
	})
	if !o.quiet {
		fmt.Fprintln(stderr, workerSummary(escapeText(o.name), rep, time.Since(start)))
	}
	if len(rep.Banned) > 0 {
		runs := "run " + rep.Banned[0]
		if len(rep.Banned) > 1 {
			runs = "runs " + strings.Join(rep.Banned, ", ")
		}
		return fmt.Errorf("the coordinator banned this worker from %s: its results were wrong; check this machine", runs)
	}
	if len(rep.Refused) > 0 {
		// Reasons come from the coordinator: escaped.
		r := rep.Refused[0]
		return fmt.Errorf("the coordinator of run %s refused this worker's results, which can never count there: %s", r.Run, escapeText(r.Reason))
	}
	var ce *queue.CredentialError
	if errors.As(err, &ce) {
		return fmt.Errorf("the NATS server refused this worker's credentials (%v): %s", ce.Err, o.nats.credentialHint())
	}
	if err != nil && ctx.Err() != nil {
		return nil // stopped by a signal: units in hand were handed back
	}
	return err
}

// workerSummary is the worker's last line: what it did. Bans are alarms
// too: each came with an ALARM line.
func workerSummary(name string, rep queue.WorkerReport, took time.Duration) string {
	forged := ""
	if rep.Discarded > 0 {
		forged = ", " + plural(rep.Discarded, "forged block message") + " removed"
	}
	return fmt.Sprintf("nqueens: worker %s: %s counted, %d counted again with the same result, %d declined, %s, %s%s in %s",
		name, plural(rep.Units, "unit"), rep.Duplicates, rep.Declined, plural(rep.Conflicts+len(rep.Banned), "alarm"),
		plural(rep.Failures, "failure"), forged, formatDuration(took))
}

// credentialHint names the flag that gives the credential this worker
// sent, or the flags that give one when it sent none.
func (f *natsFlags) credentialHint() string {
	switch {
	case f.tokenFile != "":
		return "check the token in --nats-token-file " + f.tokenFile
	case f.nkey != "":
		return "check that the coordinator admits the key of --nats-nkey " + f.nkey + " (an embedded server also shuts out a key the coordinator banned for wrong results)"
	case f.creds != "":
		return "check --nats-creds " + f.creds
	case strings.Contains(f.url, "@"):
		return "check the user and password in --nats"
	}
	return "the server wants credentials: give --nats-token-file, --nats-nkey or --nats-creds"
}
