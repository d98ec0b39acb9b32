package main

import (
	"fmt"
	"os"
	"time"

	"github.com/nqueens/nqueens/cluster"
	"github.com/spf13/cobra"
)

// natsFlags are the connection options shared by coordinator and worker;
// they map onto nats.go's options.
type natsFlags struct {
	url, creds, nkey, tlsCA, tlsCert, tlsKey string
}

func addNATSFlags(cmd *cobra.Command, f *natsFlags, urlHelp string) {
	fl := cmd.Flags()
	fl.StringVar(&f.url, "nats", "", urlHelp)
	fl.StringVar(&f.creds, "nats-creds", "", "NATS credentials file (JWT and NKey seed)")
	fl.StringVar(&f.nkey, "nats-nkey", "", "NATS NKey seed file")
	fl.StringVar(&f.tlsCA, "tls-ca", "", "CA certificate file to verify the NATS server")
	fl.StringVar(&f.tlsCert, "tls-cert", "", "client certificate file for TLS (with --tls-key)")
	fl.StringVar(&f.tlsKey, "tls-key", "", "client key file for TLS (with --tls-cert)")
}

// check reports flag combinations nats.go would refuse later.
func (f *natsFlags) check() error {
	if (f.tlsCert == "") != (f.tlsKey == "") {
		return usagef("--tls-cert and --tls-key go together")
	}
	return nil
}

func (f *natsFlags) options(name string) cluster.ConnOptions {
	return cluster.ConnOptions{URL: f.url, Name: name, Creds: f.creds, NKey: f.nkey,
		TLSCA: f.tlsCA, TLSCert: f.tlsCert, TLSKey: f.tlsKey}
}

func newWorkerCmd() *cobra.Command {
	var nf natsFlags
	var workers int
	var name string
	var idle time.Duration
	var verbose bool
	cmd := &cobra.Command{
		Use:   "worker --nats URL",
		Short: "Count blocks of work units from a NATS JetStream queue for a coordinator",
		Long: `worker connects to the NATS server of one or more "nqueens coordinator" runs,
pulls blocks of work units, counts them on --workers cores (one block per
core at a time), stores each block's results in the run's key-value bucket
with a create-only write and only then acknowledges the block. While a
block runs it tells the server it is in progress, so it is not handed to
another worker. If the worker dies, its unacknowledged blocks go to other
workers after the ack wait; a block counted twice must give the same
results, or the coordinator raises an alarm and gives no total.

It waits for runs and survives server restarts; Ctrl-C or SIGTERM hands the
blocks in progress back at once. --exit-when-idle makes it stop when there
has been no work for that long.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkWorkers(workers); err != nil {
				return err
			}
			if idle < 0 {
				return usagef("--exit-when-idle must not be negative, got %s", idle)
			}
			if err := nf.check(); err != nil {
				return err
			}
			// A test hook (see cluster.HoldEnv), read from the environment so
			// that it stays out of the documented flags.
			var hold time.Duration
			if v := os.Getenv(cluster.HoldEnv); v != "" {
				d, err := time.ParseDuration(v)
				if err != nil || d < 0 {
					return usagef("%s=%q is not a duration", cluster.HoldEnv, v)
				}
				hold = d
			}
			stderr := cmd.ErrOrStderr()
			if name == "" {
				host, _ := os.Hostname()
				name = fmt.Sprintf("%s:%d", host, os.Getpid())
			}
			nc, err := cluster.Connect(nf.options("nqueens worker " + name))
			if err != nil {
				return err
			}
			defer nc.Close()
			start := time.Now()
			rep, err := cluster.Work(cmd.Context(), nc, cluster.WorkerOptions{
				Workers:       workers,
				Name:          name,
				IdleExit:      idle,
				Verbose:       verbose,
				HoldFirstUnit: hold,
				Log:           func(s string) { fmt.Fprintln(stderr, "nqueens: worker: "+s) },
			})
			fmt.Fprintf(stderr, "nqueens: worker %s: %d unit(s) counted, %d counted again with the same result, %d alarm(s), %d failure(s) in %s\n",
				name, rep.Units, rep.Duplicates, rep.Conflicts, rep.Failures, formatDuration(time.Since(start)))
			if err != nil && cmd.Context().Err() != nil {
				return nil // stopped by a signal: units in hand were handed back
			}
			return err
		},
	}
	addNATSFlags(cmd, &nf, "NATS server URL(s), comma-separated (default nats://127.0.0.1:4222)")
	fl := cmd.Flags()
	fl.IntVarP(&workers, "workers", "w", 0, "blocks counted at once (default: all cores)")
	fl.StringVar(&name, "name", "", "name of this worker in results (default host:pid)")
	fl.DurationVar(&idle, "exit-when-idle", 0, "exit after this long without work (0: never)")
	fl.BoolVarP(&verbose, "verbose", "v", false, "log every block")
	return cmd
}
