package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/nqueens/nqueens/cluster"
	"github.com/nqueens/nqueens/count"
	"github.com/spf13/cobra"
)

func newCoordinatorCmd() *cobra.Command {
	var nf natsFlags
	var listen, store string
	var ackWait, every time.Duration
	var maxDeliver, replicas, blockSize int
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "coordinator N [--nats URL]",
		Short: "Run a count of N on a pool of workers through NATS JetStream",
		Long: `coordinator publishes the work units of a count of N to a JetStream
work-queue stream, in blocks of consecutive units (one message each, sized
so that messaging stays cheap next to counting: up to 64 units for small N,
one unit from N = 20 on), and tallies the results the workers ("nqueens
worker") store in a key-value bucket, then prints total and unique exactly
as count does. Each block's result is stored once (create-only); a
different second result is an alarm and no total is printed.

Without --nats it runs an embedded nats-server listening on --listen
(127.0.0.1:4222 unless told otherwise) with its files in --store, so workers
on the same machine connect with the default URL; to serve other machines,
listen on a reachable address or use your own NATS server.

Interrupting the coordinator loses nothing: run the same command again to
resume from the stream and bucket. A block that fails --max-deliver times
is reported and retried at the next start, never dropped.`,
		Args: exactArgs(1, "N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseN(args[0], "coordinator", count.MaxN)
			if err != nil {
				return err
			}
			if ackWait < time.Second {
				return usagef("--ack-wait must be at least 1s, got %s", ackWait)
			}
			if maxDeliver < 1 {
				return usagef("--max-deliver must be at least 1, got %d", maxDeliver)
			}
			if blockSize < 0 || blockSize > cluster.MaxBlockSize {
				return usagef("--block-size must be 1 to %d (or 0 for automatic), got %d", cluster.MaxBlockSize, blockSize)
			}
			if replicas < 1 || replicas > 5 {
				return usagef("--replicas must be 1 to 5, got %d", replicas)
			}
			if every <= 0 {
				return usagef("--progress-every must be positive, got %s", every)
			}
			if err := nf.check(); err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			opts := nf.options("nqueens coordinator")
			if nf.url == "" && (nf.creds != "" || nf.nkey != "" || nf.tlsCA != "" || nf.tlsCert != "") {
				return usagef("--nats-creds, --nats-nkey and the --tls flags go with --nats; the embedded server has neither accounts nor TLS")
			}
			if nf.url == "" {
				srv, err := cluster.StartServer(cluster.ServerOptions{Listen: listen, StoreDir: store})
				if err != nil {
					return err
				}
				defer srv.Shutdown()
				opts.URL = srv.ClientURL()
				abs, _ := filepath.Abs(store)
				fmt.Fprintf(stderr, "nqueens: coordinator: embedded NATS server at %s, files in %s; start workers with: nqueens worker --nats %s\n",
					opts.URL, abs, opts.URL)
			} else if cmd.Flags().Changed("listen") || cmd.Flags().Changed("store") {
				return usagef("--listen and --store are for the embedded server; with --nats the server is yours")
			}
			// Unlike workers, which wait for a server, a coordinator with no
			// server to talk to says so at once.
			opts.FailFast = true
			nc, err := cluster.Connect(opts)
			if err != nil {
				return err
			}
			defer nc.Close()
			logf := func(s string) { fmt.Fprintln(stderr, "nqueens: coordinator: "+s) }
			r, err := cluster.Coordinate(cmd.Context(), nc, n, cluster.CoordinatorOptions{
				AckWait:       ackWait,
				MaxDeliver:    maxDeliver,
				Replicas:      replicas,
				BlockSize:     blockSize,
				ProgressEvery: every,
				Log:           logf,
				Progress: func(p cluster.RunProgress) {
					rate := "?"
					if secs := p.Elapsed.Seconds(); secs > 0 {
						rate = fmt.Sprintf("%.3g nodes/s", p.Nodes.Float64()/secs)
					}
					etaText := "?"
					if here := p.Done - p.Resumed; here > 0 {
						etaText = formatDuration(time.Duration(float64(p.Elapsed) / float64(here) * float64(p.Units-p.Done)))
					}
					line := fmt.Sprintf("N = %d: %d/%d units done (%.1f%%), %d worker(s), %s, ETA %s",
						n, p.Done, p.Units, 100*float64(p.Done)/float64(max(1, p.Units)), p.Workers, rate, etaText)
					if len(p.Failed) > 0 {
						line += fmt.Sprintf(", %d block(s) set aside after failing", len(p.Failed))
					}
					if p.Alarms > 0 {
						line += fmt.Sprintf(", %d ALARM(S)", p.Alarms)
					}
					logf(line)
				},
			})
			if err != nil {
				return err
			}
			return printCountResult(cmd.OutOrStdout(), r, jsonOut)
		},
	}
	addNATSFlags(cmd, &nf, "URL(s) of your NATS server with JetStream (default: run an embedded one)")
	fl := cmd.Flags()
	fl.StringVar(&listen, "listen", "127.0.0.1:4222", "address of the embedded NATS server")
	fl.StringVar(&store, "store", "nqueens-jetstream", "folder for the embedded server's files")
	fl.DurationVar(&ackWait, "ack-wait", time.Minute, "time a worker may hold a block without reporting progress")
	fl.IntVar(&maxDeliver, "max-deliver", 5, "attempts before a failing block is set aside and reported")
	fl.IntVar(&blockSize, "block-size", 0, "units per message (default: automatic, about 0.1 s of work; fixed for the life of a run)")
	fl.IntVar(&replicas, "replicas", 1, "copies of the run's stream and bucket on a clustered NATS server")
	fl.DurationVar(&every, "progress-every", 5*time.Second, "time between progress lines")
	fl.BoolVar(&jsonOut, "json", false, "print a JSON object")
	return cmd
}
