package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens/cluster/queue"
	"github.com/nqueens/nqueens/i18n"
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
	memory  memoryFlag
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
	addMemoryFlag(cmd, &o.memory)
	natsFlagGroups(cmd)
	return command(cmd, o)
}

func (o *workerOptions) validate([]string) error {
	o.memory.apply()
	if err := checkWorkers(o.workers); err != nil {
		return err
	}
	if o.idle < 0 {
		return usageT("cli.worker.idle", i18n.Args{"Value": o.idle.String()})
	}
	if o.name == "" {
		host, _ := os.Hostname()
		o.name = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	if err := queue.CheckName(o.name); err != nil {
		return &usageError{i18n.Wrap(err, "cli.where", i18n.Args{"Name": "--name"})}
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
		fmt.Fprintln(stderr, workerSummary(o.printer(), escapeText(o.name), rep, time.Since(start)))
	}
	if len(rep.Banned) > 0 {
		if len(rep.Banned) == 1 {
			return errT("cli.worker.banned", i18n.Args{"Runs": rep.Banned[0]})
		}
		return errT("cli.worker.banned.runs", i18n.Args{"Runs": strings.Join(rep.Banned, ", ")})
	}
	if len(rep.Refused) > 0 {
		// Reasons come from the coordinator: escaped.
		r := rep.Refused[0]
		return errT("cli.worker.refused", i18n.Args{"Run": r.Run, "Reason": escapeText(r.Reason)})
	}
	var ce *queue.CredentialError
	if errors.As(err, &ce) {
		return errT("cli.worker.creds", i18n.Args{"Err": ce.Err, "Hint": o.nats.credentialHint()})
	}
	if err != nil && ctx.Err() != nil {
		return nil // stopped by a signal: units in hand were handed back
	}
	return err
}

// workerSummary is the worker's last line: what it did. Bans are alarms
// too: each came with an ALARM line.
func workerSummary(p *i18n.Printer, name string, rep queue.WorkerReport, took time.Duration) string {
	a := i18n.Args{"Name": name, "Units": p.N("cli.n.units", rep.Units, i18n.Args{"Count": strconv.Itoa(rep.Units)}), "Again": strconv.Itoa(rep.Duplicates),
		"Declined": strconv.Itoa(rep.Declined), "Alarms": p.N("cli.n.alarms", rep.Conflicts+len(rep.Banned), nil),
		"Failures": p.N("cli.n.failures", rep.Failures, nil), "Time": dur(took)}
	key := "cli.worker.summary"
	if rep.Discarded > 0 {
		key, a["Forged"] = "cli.worker.summary.forged", p.N("cli.n.forged", rep.Discarded, i18n.Args{"Count": strconv.Itoa(rep.Discarded)})
	}
	return "nqueens: " + p.T(key, a)
}

// credentialHint names the flag that gives the credential this worker
// sent, or the flags that give one when it sent none.
func (f *natsFlags) credentialHint() *i18n.Error {
	switch {
	case f.tokenFile != "":
		return i18n.NewError("cli.worker.hint.token", i18n.Args{"Path": f.tokenFile})
	case f.nkey != "":
		return i18n.NewError("cli.worker.hint.nkey", i18n.Args{"Path": f.nkey})
	case f.creds != "":
		return i18n.NewError("cli.worker.hint.creds", i18n.Args{"Path": f.creds})
	case strings.Contains(f.url, "@"):
		return i18n.NewError("cli.worker.hint.user", nil)
	}
	return i18n.NewError("cli.worker.hint.none", nil)
}
