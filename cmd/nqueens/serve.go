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

func newServeCmd(p *i18n.Printer) *cobra.Command {
	o := &serveOptions{cfg: web.DefaultConfig()}
	cfg := &o.cfg
	cmd := &cobra.Command{
		Use:   "serve",
		Short: p.T("help.serve.short", nil),
		Long:  p.T("help.serve.long", nil),
		Example: `  nqueens serve
  nqueens serve --addr 127.0.0.1:9000 --max-count-n 17
  nqueens serve --addr :8080 --max-jobs 8   # ` + p.T("help.serve.example.any", nil) + `
  nqueens serve --addr :8080 --allow-host queens.example.org   # ` + p.T("help.serve.example.host", nil),
		Args: exactArgs(0, "no arguments"),
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", p.T("help.serve.flag.addr", nil))
	f.IntVar(&cfg.MaxTraceN, "max-trace-n", cfg.MaxTraceN, p.T("help.serve.flag.max-trace-n", nil))
	f.IntVar(&cfg.MaxGalleryN, "max-gallery-n", cfg.MaxGalleryN, p.T("help.serve.flag.max-gallery-n", nil))
	f.IntVar(&cfg.MaxCountN, "max-count-n", cfg.MaxCountN, p.T("help.serve.flag.max-count-n", nil))
	f.IntVar(&cfg.MaxSolveN, "max-solve-n", cfg.MaxSolveN, p.T("help.serve.flag.max-solve-n", nil))
	f.IntVar(&cfg.MaxRenderN, "max-render-n", cfg.MaxRenderN, p.T("help.serve.flag.max-render-n", nil))
	f.IntVar(&cfg.MaxCompleteN, "max-complete-n", cfg.MaxCompleteN, p.T("help.serve.flag.max-complete-n", nil))
	f.IntVar(&cfg.MaxVerifyN, "max-verify-n", cfg.MaxVerifyN, p.T("help.serve.flag.max-verify-n", nil))
	f.IntVar(&cfg.MaxTraceEvents, "max-trace-events", cfg.MaxTraceEvents, p.T("help.serve.flag.max-trace-events", nil))
	f.Int64Var(&cfg.MaxBodyBytes, "max-body", cfg.MaxBodyBytes, p.T("help.serve.flag.max-body", nil))
	f.Int64Var(&o.maxBuffered, "max-buffered", 0, p.T("help.serve.flag.max-buffered", nil))
	f.Int64Var(&cfg.MaxRenderBytes, "max-render-bytes", cfg.MaxRenderBytes, p.T("help.serve.flag.max-render-bytes", nil))
	f.DurationVar(&cfg.RequestTimeout, "timeout", cfg.RequestTimeout, p.T("help.serve.flag.timeout", nil))
	f.DurationVar(&cfg.StreamTimeout, "stream-timeout", cfg.StreamTimeout, p.T("help.serve.flag.stream-timeout", nil))
	f.DurationVar(&cfg.SlowClientTimeout, "slow-client-timeout", cfg.SlowClientTimeout, p.T("help.serve.flag.slow-client-timeout", nil))
	f.StringSliceVar(&cfg.AllowedHosts, "allow-host", nil, p.T("help.serve.flag.allow-host", nil))
	f.DurationVar(&cfg.CompareTimeout, "compare-timeout", cfg.CompareTimeout, p.T("help.serve.flag.compare-timeout", nil))
	f.DurationVar(&cfg.CountTimeout, "count-timeout", cfg.CountTimeout, p.T("help.serve.flag.count-timeout", nil))
	f.DurationVar(&cfg.CountIdle, "count-idle", cfg.CountIdle, p.T("help.serve.flag.count-idle", nil))
	f.IntVar(&cfg.CountWorkers, "count-workers", 0, p.T("help.serve.flag.count-workers", nil))
	f.IntVar(&cfg.MaxJobs, "max-jobs", cfg.MaxJobs, p.T("help.serve.flag.max-jobs", nil))
	f.DurationVar(&o.grace, "grace", 5*time.Second, p.T("help.serve.flag.grace", nil))
	f.BoolVarP(&o.quiet, "quiet", "q", false, p.T("help.serve.flag.quiet", nil))
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
