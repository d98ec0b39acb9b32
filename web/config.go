package web

import (
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/count"
)

// Config holds every limit of the server. The zero value of a field means
// its default (see [DefaultConfig]); a negative value is an error. GET
// /api/limits answers with these fields (see limitsJSON), Logger and
// AllowedHosts excepted.
type Config struct {
	// Largest N per endpoint.
	MaxTraceN    int // /api/trace (classic search, step by step)
	MaxGalleryN  int // /api/solutions (every solution, by class)
	MaxCountN    int // /api/count (the counting engine)
	MaxSolveN    int // /api/solve
	MaxRenderN   int // /api/render
	MaxCompleteN int // /api/complete
	MaxVerifyN   int // /api/verify

	// MaxTraceEvents bounds the events of one /api/trace stream; a request
	// may ask for fewer with ?limit=.
	MaxTraceEvents int
	// MaxBodyBytes bounds every request body.
	MaxBodyBytes int64
	// MaxBufferedBytes bounds the memory of all requests in progress
	// together: each takes its headers and 6 times its declared body size
	// (the body and what it decodes to, parseFactor) before a byte of the
	// body is read, and a request beyond the budget gets 503. Default: 256
	// MiB, or 12 times MaxBodyBytes if that is more. [Config.MemoryLimit]
	// is the process's memory with this budget spent.
	MaxBufferedBytes int64
	// MaxRenderBytes bounds the answer of /api/render, whose size grows
	// with the blocked squares drawn, not only with N; a PNG, whose size
	// is bounded by its pixels, is not held to it.
	MaxRenderBytes int64
	// RequestTimeout bounds every request that is not a stream: the work
	// and the writing of the response.
	RequestTimeout time.Duration
	// StreamTimeout bounds a server-sent event stream (trace, count events).
	StreamTimeout time.Duration
	// SlowClientTimeout is how long the server waits on a slow client: a
	// request body must arrive in full within it (before a job slot is
	// taken), and each write of an answer must go through within it.
	SlowClientTimeout time.Duration
	// CompareTimeout is the time /api/compare allows each strategy (as
	// `nqueens compare --timeout` does); a brute-force method that would
	// need longer is marked skipped.
	CompareTimeout time.Duration
	// CountTimeout bounds one count job from start to end.
	CountTimeout time.Duration
	// CountIdle is how long a count job runs on with nobody listening to
	// its events before it is cancelled; see docs/api.md.
	CountIdle time.Duration
	// CountWorkers is the goroutines one count job uses; 0 means all cores.
	CountWorkers int
	// MaxJobs is how many heavy jobs (solve, render, complete, solutions,
	// trace streams, count jobs) run at once; more get 429.
	MaxJobs int

	// AllowedHosts are the host names, besides the server's own address
	// and, on loopback, localhost, 127.0.0.1 and [::1], that a request may
	// name in its Host header; "*" allows any. Others get 421, so that a
	// site whose name was rebound to this address cannot use the API
	// (DNS rebinding).
	AllowedHosts []string

	// Logger receives one line per request; nil means slog.Default().
	Logger *slog.Logger
}

// DefaultConfig is the configuration of `nqueens serve` without flags.
func DefaultConfig() Config {
	return Config{
		MaxTraceN:         20,
		MaxGalleryN:       12,
		MaxCountN:         16,
		MaxSolveN:         10_000_000,
		MaxRenderN:        10_000_000,
		MaxCompleteN:      64,
		MaxVerifyN:        1_000_000,
		MaxTraceEvents:    200_000,
		MaxBodyBytes:      1 << 20,
		MaxBufferedBytes:  256 << 20,
		MaxRenderBytes:    16 << 20,
		RequestTimeout:    60 * time.Second,
		StreamTimeout:     10 * time.Minute,
		SlowClientTimeout: 10 * time.Second,
		CompareTimeout:    time.Second,
		CountTimeout:      10 * time.Minute,
		CountIdle:         15 * time.Second,
		MaxJobs:           4,
	}
}

// BrowserConfig is the configuration of the page's static build (nqueens
// site), where the server runs in the browser on one thread at about a
// seventh of a server core's speed: limits that keep each answer within a
// few seconds there. In Chromium on the project machine counting N = 15
// takes 1 s (N = 16 would take about 6), the gallery of N = 12 0.6 s, a
// drawn random solution of 10^6 queens 1.6 s.
func BrowserConfig() Config {
	c := DefaultConfig()
	c.MaxCountN = 15
	c.MaxSolveN = 1_000_000
	c.MaxRenderN = 1_000_000
	c.CountWorkers = 1
	return c
}

// MemoryOverhead is the memory a server takes besides its budget of
// buffered bytes: the Go runtime, the connections (about 20 kB each) and
// the heavy jobs' own data.
const MemoryOverhead = 64 << 20

// MemoryLimit is MaxBufferedBytes plus [MemoryOverhead]: `nqueens serve`
// gives it to the Go runtime as its soft memory limit
// ([runtime/debug.SetMemoryLimit]), since the collector, left to itself,
// lets the heap grow to twice the live bytes before it collects, and the
// budget counts live bytes.
func (c Config) MemoryLimit() int64 { return c.MaxBufferedBytes + MemoryOverhead }

// withDefaults fills zero fields from DefaultConfig and checks the rest.
func (c Config) withDefaults() (Config, error) {
	d := DefaultConfig()
	ints := []struct {
		name string
		v    *int
		def  int
		max  int // hard ceiling set by the library that does the work
	}{
		{"max trace N", &c.MaxTraceN, d.MaxTraceN, classic.MaxN},
		{"max gallery N", &c.MaxGalleryN, d.MaxGalleryN, 16},
		{"max count N", &c.MaxCountN, d.MaxCountN, count.MaxN},
		{"max solve N", &c.MaxSolveN, d.MaxSolveN, board.MaxN},
		{"max render N", &c.MaxRenderN, d.MaxRenderN, board.MaxN},
		{"max complete N", &c.MaxCompleteN, d.MaxCompleteN, board.MaxN},
		{"max verify N", &c.MaxVerifyN, d.MaxVerifyN, board.MaxN},
		{"max trace events", &c.MaxTraceEvents, d.MaxTraceEvents, 1 << 30},
		{"count workers", &c.CountWorkers, 0, 1 << 16},
		{"max jobs", &c.MaxJobs, d.MaxJobs, 1 << 16},
	}
	for _, f := range ints {
		if err := orDefault(f.name, f.v, f.def); err != nil {
			return c, err
		}
		if *f.v > f.max {
			return c, fmt.Errorf("%s = %d is over what the engine supports (%d)", f.name, *f.v, f.max)
		}
	}
	for _, err := range []error{
		orDefault("request timeout", &c.RequestTimeout, d.RequestTimeout),
		orDefault("stream timeout", &c.StreamTimeout, d.StreamTimeout),
		orDefault("slow client timeout", &c.SlowClientTimeout, d.SlowClientTimeout),
		orDefault("compare timeout", &c.CompareTimeout, d.CompareTimeout),
		orDefault("count timeout", &c.CountTimeout, d.CountTimeout),
		orDefault("count idle time", &c.CountIdle, d.CountIdle),
		orDefault("max body bytes", &c.MaxBodyBytes, d.MaxBodyBytes),
		orDefault("max render bytes", &c.MaxRenderBytes, d.MaxRenderBytes),
	} {
		if err != nil {
			return c, err
		}
	}
	// After MaxBodyBytes, whose default it depends on.
	if err := orDefault("max buffered bytes", &c.MaxBufferedBytes, max(d.MaxBufferedBytes, 2*parseFactor*c.MaxBodyBytes)); err != nil {
		return c, err
	}
	if least := parseFactor*c.MaxBodyBytes + maxHeaderBytes; c.MaxBufferedBytes < least {
		return c, fmt.Errorf("max buffered bytes = %d cannot hold one request of the largest body (%d bytes: %d times the body, and its headers)", c.MaxBufferedBytes, least, parseFactor)
	}
	if _, err := allowedHosts(c.AllowedHosts); err != nil {
		return c, err
	}
	c.AllowedHosts = slices.Clone(c.AllowedHosts)
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c, nil
}

// orDefault sets *v to def when it is zero, and refuses a negative *v.
func orDefault[T int | int64 | time.Duration](name string, v *T, def T) error {
	switch {
	case *v < 0:
		return fmt.Errorf("%s must not be negative, got %v", name, *v)
	case *v == 0:
		*v = def
	}
	return nil
}
