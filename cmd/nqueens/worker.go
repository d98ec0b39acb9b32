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

func addNATSFlags(cmd *cobra.Command, p *i18n.Printer, f *natsFlags, urlHelp string) {
	fl := cmd.Flags()
	fl.StringVar(&f.url, "nats", "", urlHelp)
	fl.StringVar(&f.creds, "nats-creds", "", p.T("help.flag.nats-creds", nil))
	fl.StringVar(&f.nkey, "nats-nkey", "", p.T("help.flag.nats-nkey", nil))
	fl.StringVar(&f.tokenFile, "nats-token-file", "", p.T("help.flag.nats-token-file", nil))
	fl.StringVar(&f.tlsCA, "tls-ca", "", p.T("help.flag.tls-ca", nil))
	fl.StringVar(&f.tlsCert, "tls-cert", "", p.T("help.flag.tls-cert", nil))
	fl.StringVar(&f.tlsKey, "tls-key", "", p.T("help.flag.tls-key", nil))
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

func newWorkerCmd(p *i18n.Printer) *cobra.Command {
	o := &workerOptions{}
	cmd := &cobra.Command{
		Use:   "worker --nats URL",
		Short: p.T("help.worker.short", nil),
		Long:  p.T("help.worker.long", nil),
		Args:  exactArgs(0, "no arguments"),
	}
	addNATSFlags(cmd, p, &o.nats, p.T("help.worker.flag.nats", nil))
	fl := cmd.Flags()
	fl.IntVarP(&o.workers, "workers", "w", 0, p.T("help.worker.flag.workers", nil))
	fl.StringVar(&o.name, "name", "", p.T("help.worker.flag.name", nil))
	fl.DurationVar(&o.idle, "exit-when-idle", 0, p.T("help.worker.flag.exit-when-idle", nil))
	fl.BoolVarP(&o.verbose, "verbose", "v", false, p.T("help.worker.flag.verbose", nil))
	fl.BoolP("quiet", "q", false, p.T("help.worker.flag.quiet", nil))
	cmd.MarkFlagsMutuallyExclusive("quiet", "verbose")
	addKeyFlag(cmd, p, &o.key)
	addMemoryFlag(cmd, p, &o.memory)
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
