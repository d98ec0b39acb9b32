package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"time"

	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/web"
	"github.com/spf13/cobra"
)

// serveOptions are the flags of serve.
type serveOptions struct {
	streams
	cfg         web.Config
	maxBuffered int64
	addr        string
	quiet       bool
	grace       time.Duration
}

func newServeCmd() *cobra.Command {
	o := &serveOptions{cfg: web.DefaultConfig()}
	cfg := &o.cfg
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the web page and the JSON API",
		Long: `serve runs the web page of nqueens and its JSON API (docs/api.md): the board
view that plays a classic search step by step, the gallery of all solutions by
symmetry class, the counting engine with live progress, huge boards, and
completion of partial boards. The page is built into the binary and loads
nothing from elsewhere.

It listens on 127.0.0.1 only unless --addr says otherwise. Every request has
a body-size and a time limit; N is bounded per endpoint by the --max-* flags;
at most --max-jobs heavy jobs run at once and further ones get 429, and
requests together buffer at most --max-buffered bytes (each 6 times its body's
size: the body and what it decodes to), beyond which they get 503 before
their bodies are read; the Go runtime's soft memory limit is --max-buffered
plus 64 MiB (unless GOMEMLIMIT is set). Heavy and state-changing requests that a
browser says come from another site (Sec-Fetch-Site, Origin) are refused,
so that a page elsewhere cannot start work here. Requests
must name this server in their Host header (its address, localhost on
loopback, the name given to --addr, or a name given with --allow-host), so
that another site cannot reach it through DNS rebinding. Request logs go to
stderr. Ctrl-C or SIGTERM shuts down gracefully.`,
		Example: `  nqueens serve
  nqueens serve --addr 127.0.0.1:9000 --max-count-n 17
  nqueens serve --addr :8080 --max-jobs 8   # every interface: mind who can reach it
  nqueens serve --addr :8080 --allow-host queens.example.org   # reached by that name`,
		Args: exactArgs(0, "no arguments"),
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	f.IntVar(&cfg.MaxTraceN, "max-trace-n", cfg.MaxTraceN, "largest N for /api/trace (board view)")
	f.IntVar(&cfg.MaxGalleryN, "max-gallery-n", cfg.MaxGalleryN, "largest N for /api/solutions (gallery)")
	f.IntVar(&cfg.MaxCountN, "max-count-n", cfg.MaxCountN, "largest N for /api/count")
	f.IntVar(&cfg.MaxSolveN, "max-solve-n", cfg.MaxSolveN, "largest N for /api/solve")
	f.IntVar(&cfg.MaxRenderN, "max-render-n", cfg.MaxRenderN, "largest N for /api/render")
	f.IntVar(&cfg.MaxCompleteN, "max-complete-n", cfg.MaxCompleteN, "largest N for /api/complete")
	f.IntVar(&cfg.MaxVerifyN, "max-verify-n", cfg.MaxVerifyN, "largest N for /api/verify")
	f.IntVar(&cfg.MaxTraceEvents, "max-trace-events", cfg.MaxTraceEvents, "most events in one trace stream")
	f.Int64Var(&cfg.MaxBodyBytes, "max-body", cfg.MaxBodyBytes, "largest request body in bytes")
	f.Int64Var(&o.maxBuffered, "max-buffered", 0, "bytes all requests in progress may buffer and decode together, 6 times each body's size; more get 503 (default 256 MiB, or 12 times --max-body if more)")
	f.Int64Var(&cfg.MaxRenderBytes, "max-render-bytes", cfg.MaxRenderBytes, "largest /api/render answer in bytes (PNG excepted)")
	f.DurationVar(&cfg.RequestTimeout, "timeout", cfg.RequestTimeout, "time limit of a request (streams excepted)")
	f.DurationVar(&cfg.StreamTimeout, "stream-timeout", cfg.StreamTimeout, "time limit of an event stream")
	f.DurationVar(&cfg.SlowClientTimeout, "slow-client-timeout", cfg.SlowClientTimeout, "time for a request body to arrive, and for each write of an answer")
	f.StringSliceVar(&cfg.AllowedHosts, "allow-host", nil, "host name that requests may give in Host besides this server's addresses (repeatable; '*' allows any)")
	f.DurationVar(&cfg.CompareTimeout, "compare-timeout", cfg.CompareTimeout, "time /api/compare allows each strategy")
	f.DurationVar(&cfg.CountTimeout, "count-timeout", cfg.CountTimeout, "time limit of a count job")
	f.DurationVar(&cfg.CountIdle, "count-idle", cfg.CountIdle, "cancel a count job when nobody has watched it this long")
	f.IntVar(&cfg.CountWorkers, "count-workers", 0, "worker goroutines of one count job (default: all cores)")
	f.IntVar(&cfg.MaxJobs, "max-jobs", cfg.MaxJobs, "heavy jobs at once (solve, render, complete, gallery, trace, count); more get 429")
	f.DurationVar(&o.grace, "grace", 5*time.Second, "on shutdown, time given to requests in flight")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "log warnings only, not every request")
	return command(cmd, o)
}

func (o *serveOptions) validate([]string) error { return nil }

func (o *serveOptions) run(ctx context.Context) error {
	level := slog.LevelInfo
	if o.quiet {
		level = slog.LevelWarn
	}
	o.cfg.Logger = newLineLogger(o.stderr, "serve", level)
	o.cfg.MaxBufferedBytes = o.maxBuffered
	if host, _, err := net.SplitHostPort(o.addr); err == nil && host != "" && net.ParseIP(host) == nil {
		o.cfg.AllowedHosts = append(o.cfg.AllowedHosts, host) // the name it listens on is its own
	}
	srv, err := web.New(o.cfg)
	if err != nil {
		return &usageError{err}
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(srv.Config().MemoryLimit())
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.stderr, "nqueens: %s\n", o.printer().T("cli.serve.on", i18n.Args{"URL": fmt.Sprintf("http://%s/", ln.Addr())}))
	err = srv.Serve(ctx, ln, o.grace)
	fmt.Fprintf(o.stderr, "nqueens: %s\n", o.printer().T("cli.serve.stopped", nil))
	return err
}
