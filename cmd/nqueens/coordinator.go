package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	neturl "net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens/cluster/queue"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// coordinatorOptions are the flags and arguments of coordinator.
type coordinatorOptions struct {
	streams
	n                     int
	nats                  natsFlags
	listen, store         string
	tokenFile, nkeysFile  string
	serverCert, serverKey string
	ackWait, every        time.Duration
	maxDeliver, blockSize int
	replicas, streamReps  int
	verifyFraction        float64
	verifyWorkers         int
	jsonOut               bool
	key                   sealKey
}

func newCoordinatorCmd(p *i18n.Printer) *cobra.Command {
	o := &coordinatorOptions{}
	cmd := &cobra.Command{
		Use:   "coordinator N [--nats URL]",
		Short: p.T("help.coordinator.short", nil),
		Long:  p.T("help.coordinator.long", nil),
		Args:  exactArgs(1, "N"),
	}
	addNATSFlags(cmd, p, &o.nats, p.T("help.coordinator.flag.nats", nil))
	fl := cmd.Flags()
	fl.StringVar(&o.listen, "listen", "127.0.0.1:4222", p.T("help.coordinator.flag.listen", nil))
	fl.StringVar(&o.store, "store", "nqueens-jetstream", p.T("help.coordinator.flag.store", nil))
	fl.StringVar(&o.tokenFile, "auth-token-file", "", p.T("help.coordinator.flag.auth-token-file", nil))
	fl.StringVar(&o.nkeysFile, "auth-nkeys", "", p.T("help.coordinator.flag.auth-nkeys", nil))
	fl.StringVar(&o.serverCert, "server-tls-cert", "", p.T("help.coordinator.flag.server-tls-cert", nil))
	fl.StringVar(&o.serverKey, "server-tls-key", "", p.T("help.coordinator.flag.server-tls-key", nil))
	fl.DurationVar(&o.ackWait, "ack-wait", time.Minute, p.T("help.coordinator.flag.ack-wait", nil))
	fl.IntVar(&o.maxDeliver, "max-deliver", 5, p.T("help.coordinator.flag.max-deliver", nil))
	fl.IntVar(&o.blockSize, "block-size", 0, p.T("help.coordinator.flag.block-size", nil))
	fl.IntVar(&o.replicas, "replicas", 1, p.T("help.coordinator.flag.replicas", nil))
	fl.Float64Var(&o.verifyFraction, "verify-fraction", 0.01, p.T("help.coordinator.flag.verify-fraction", nil))
	fl.IntVar(&o.verifyWorkers, "verify-workers", 1, p.T("help.coordinator.flag.verify-workers", nil))
	fl.IntVar(&o.streamReps, "stream-replicas", 1, p.T("help.coordinator.flag.stream-replicas", nil))
	fl.DurationVar(&o.every, "progress-every", 5*time.Second, p.T("help.coordinator.flag.progress-every", nil))
	fl.BoolVar(&o.jsonOut, "json", false, p.T("help.flag.json", nil))
	addKeyFlag(cmd, p, &o.key)
	cmd.Flags().BoolP("quiet", "q", false, p.T("help.coordinator.flag.quiet", nil))
	cmd.MarkFlagsMutuallyExclusive("auth-token-file", "auth-nkeys")
	cmd.MarkFlagsRequiredTogether("server-tls-cert", "server-tls-key")
	natsFlagGroups(cmd)
	return command(cmd, o)
}

func (o *coordinatorOptions) validate(args []string) error {
	n, err := parseN(args[0], "coordinator", count.MaxN)
	if err != nil {
		return err
	}
	o.n = n
	switch {
	case o.ackWait < time.Second:
		return usageT("cli.flag.atleast", i18n.Args{"Flag": "--ack-wait", "Min": "1s", "Value": o.ackWait.String()})
	case o.maxDeliver < 1:
		return usageT("cli.flag.atleast", i18n.Args{"Flag": "--max-deliver", "Min": "1", "Value": strconv.Itoa(o.maxDeliver)})
	case o.blockSize < 0 || o.blockSize > queue.MaxBlockSize:
		return usageT("cli.coord.blocksize", i18n.Args{"Max": strconv.Itoa(queue.MaxBlockSize), "Value": strconv.Itoa(o.blockSize)})
	case o.replicas < 1 || o.replicas > queue.MaxReplicas:
		return usageT("cli.flag.range", i18n.Args{"Flag": "--replicas", "Min": "1", "Max": strconv.Itoa(queue.MaxReplicas), "Value": strconv.Itoa(o.replicas)})
	case o.streamReps < 1 || o.streamReps > 5:
		return usageT("cli.flag.range", i18n.Args{"Flag": "--stream-replicas", "Min": "1", "Max": "5", "Value": strconv.Itoa(o.streamReps)})
	case !(o.verifyFraction >= 0 && o.verifyFraction <= 1):
		return usageT("cli.flag.range", i18n.Args{"Flag": "--verify-fraction", "Min": "0", "Max": "1", "Value": strconv.FormatFloat(o.verifyFraction, 'g', -1, 64)})
	case o.verifyWorkers < 1:
		return usageT("cli.flag.atleast", i18n.Args{"Flag": "--verify-workers", "Min": "1", "Value": strconv.Itoa(o.verifyWorkers)})
	case o.every <= 0:
		return usageT("cli.count.every", i18n.Args{"Flag": "--progress-every", "Value": o.every.String()})
	}
	embedded := o.tokenFile != "" || o.serverCert != "" || o.given("listen") || o.given("store")
	if o.nats.url != "" && embedded {
		return usageT("cli.coord.embedded", nil)
	}
	if o.nats.url == "" && o.nats.any() {
		return usageT("cli.coord.external", nil)
	}
	return nil
}

func (o *coordinatorOptions) run(ctx context.Context) error {
	stderr := o.stderr
	logger := newLineLogger(stderr, "coordinator", quietLevel(o.quiet))
	key, err := o.key.get(stderr, o.quiet)
	if err != nil {
		return err
	}
	var voters []string
	if o.nkeysFile != "" {
		if voters, err = queue.ReadVoters(o.nkeysFile); err != nil {
			return err
		}
	}
	conn := o.nats.options("nqueens coordinator")
	var storeHealth func() error
	var revoke func(string) (bool, error)
	if o.nats.url == "" {
		unlock, err := queue.LockStore(o.store)
		if err != nil {
			return err
		}
		defer unlock()
		srv, err := queue.StartServer(queue.ServerOptions{Listen: o.listen, StoreDir: o.store,
			TokenFile: o.tokenFile, NKeysFile: o.nkeysFile, TLSCert: o.serverCert, TLSKey: o.serverKey})
		if errors.Is(err, queue.ErrOpenServer) {
			return &usageError{i18n.Wrap(err, "cli.where", i18n.Args{"Name": "--listen " + o.listen})}
		}
		if err != nil {
			return err
		}
		defer srv.Shutdown()
		storeHealth, revoke = srv.StoreError, srv.Revoke
		conn = srv.Conn()
		conn.Name = "nqueens coordinator"
		if !o.quiet {
			fmt.Fprintf(stderr, "nqueens: coordinator: %s\n", say(ctx).T("cli.coord.embedded.note", i18n.Args{"URL": srv.ClientURL(),
				"Store": o.store, "Command": o.workerCommand(srv.ClientURL(), key.Path())}))
		}
	}
	// Unlike workers, which wait for a server, a coordinator with no
	// server to talk to says so at once.
	conn.FailFast = true
	conn.Log = logger
	nc, err := queue.Connect(conn)
	if err != nil {
		return err
	}
	defer nc.Close()
	// On a terminal a bar, else the lines every --progress-every.
	tty := isTerminal(stderr)
	view := newProgressView(stderr, say(ctx), fmt.Sprintf("N = %d", o.n), "units", !tty)
	progress := func(p queue.RunProgress) {
		if o.quiet {
			return
		}
		if tty {
			view.update(runState(say(ctx), p))
			return
		}
		fmt.Fprintln(stderr, view.line(runState(say(ctx), p)))
	}
	qo := o.queueOptions()
	qo.Key, qo.Voters, qo.Log, qo.Progress, qo.StoreHealth, qo.Revoke = key, voters, logger, progress, storeHealth, revoke
	r, err := queue.Coordinate(ctx, nc, o.n, qo)
	view.finish(err == nil)
	if qe := (*queue.QuorumError)(nil); errors.As(err, &qe) {
		return &usageError{err}
	}
	if err != nil && ctx.Err() != nil {
		if o.nats.url == "" {
			return interruptedT("cli.coord.int", i18n.Args{"How": howStopped{err}, "Store": o.store})
		}
		return interruptedT("cli.coord.int.nats", i18n.Args{"How": howStopped{err}})
	}
	if err != nil {
		return err
	}
	if _, _, known := count.Known(o.n); !known && !o.quiet {
		fmt.Fprintf(stderr, "nqueens: coordinator: %s\n", say(ctx).T("cli.coord.pastknown", i18n.Args{"N": o.n, "Backing": r.Backing}))
	}
	return printCountResult(o.stdout, r.Result, o.jsonOut)
}

// queueOptions are the run's options from the flags. A run keeps the
// replicas it was created with: without --replicas the stored number holds
// (the flag's default, 1, made resuming a run of --replicas 2 fail with
// advice to drop the flag, which did not help).
func (o *coordinatorOptions) queueOptions() queue.CoordinatorOptions {
	replicas := o.replicas
	if o.given == nil || !o.given("replicas") {
		replicas = 0
	}
	return queue.CoordinatorOptions{
		AckWait:        o.ackWait,
		MaxDeliver:     o.maxDeliver,
		BlockSize:      o.blockSize,
		Replicas:       replicas,
		VerifyFraction: o.verifyFraction,
		VerifyWorkers:  o.verifyWorkers,
		StreamReplicas: o.streamReps,
		ProgressEvery:  o.every,
	}
}

// workerCommand is the command line a worker of this coordinator runs,
// for a server at url. A server on every interface (0.0.0.0, ::) is named
// by this machine's host name, which a worker can dial; workers on other
// machines need a copy of the seal key.
func (o *coordinatorOptions) workerCommand(url string, key string) string {
	if u, err := neturl.Parse(url); err == nil {
		if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsUnspecified() {
			host, _ := os.Hostname()
			u.Host = net.JoinHostPort(cmp.Or(host, "HOST"), u.Port())
			url = u.String()
		}
	}
	parts := []string{"nqueens worker --nats", url}
	switch {
	case o.tokenFile != "":
		parts = append(parts, "--nats-token-file", o.tokenFile)
	case o.nkeysFile != "":
		parts = append(parts, "--nats-nkey", "SEED-FILE")
	}
	if o.serverCert != "" {
		parts = append(parts, "--tls-ca", "CA-FILE")
	}
	if host, _, _ := net.SplitHostPort(o.listen); !loopbackHost(host) {
		parts = append(parts, "--key-file", "COPY-OF-"+filepath.Base(key))
	}
	return strings.Join(parts, " ")
}

// loopbackHost reports whether host is a loopback address or localhost.
func loopbackHost(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

// runState is the coordinator's progress.
func runState(pr *i18n.Printer, p queue.RunProgress) progressState {
	a := i18n.Args{"Workers": pr.N("cli.n.workers", p.Workers, nil), "Blocks": pr.N("cli.n.blocks", p.Checking, nil), "Failed": len(p.Failed)}
	note := pr.T("cli.coord.note", a)
	if p.Checking > 0 {
		note = pr.T("cli.coord.note.checking", a)
		if len(p.Failed) > 0 {
			// Blocks no worker finished are counted here too.
			note = pr.T("cli.coord.note.failed", a)
		}
	}
	if len(p.Banned) > 0 {
		// Worker names are the workers' own choice: escaped.
		note = pr.T("cli.coord.note.banned", i18n.Args{"Note": note, "Names": escapeText(strings.Join(p.Banned, ", "))})
	}
	return progressState{Done: p.Done, Units: p.Run.Units, Resumed: p.Resumed, Nodes: p.Nodes, Elapsed: p.Elapsed, Note: note}
}
