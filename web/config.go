package web

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/count"
)

// Config holds every limit of the server. The zero value of a field means
// its default (see [DefaultConfig]); a negative value is an error.
type Config struct {
	// Largest N per endpoint.
	MaxTraceN    int `json:"max_trace_n"`    // /api/trace (classic search, step by step)
	MaxGalleryN  int `json:"max_gallery_n"`  // /api/solutions (every solution, by class)
	MaxCountN    int `json:"max_count_n"`    // /api/count (the counting engine)
	MaxSolveN    int `json:"max_solve_n"`    // /api/solve
	MaxRenderN   int `json:"max_render_n"`   // /api/render
	MaxCompleteN int `json:"max_complete_n"` // /api/complete
	MaxVerifyN   int `json:"max_verify_n"`   // /api/verify

	// MaxTraceEvents bounds the events of one /api/trace stream; a request
	// may ask for fewer with ?limit=.
	MaxTraceEvents int `json:"max_trace_events"`
	// MaxBodyBytes bounds every request body.
	MaxBodyBytes int64 `json:"max_body_bytes"`
	// RequestTimeout bounds every request that is not a stream: the work
	// and the writing of the response.
	RequestTimeout time.Duration `json:"request_timeout_ns"`
	// StreamTimeout bounds a server-sent event stream (trace, count events).
	StreamTimeout time.Duration `json:"stream_timeout_ns"`
	// CountTimeout bounds one count job from start to end.
	CountTimeout time.Duration `json:"count_timeout_ns"`
	// CountIdle is how long a count job runs on with nobody listening to
	// its events before it is cancelled; see docs/api.md.
	CountIdle time.Duration `json:"count_idle_ns"`
	// CountWorkers is the goroutines one count job uses; 0 means all cores.
	CountWorkers int `json:"count_workers"`
	// MaxJobs is how many heavy jobs (solve, render, complete, solutions,
	// trace streams, count jobs) run at once; more get 429.
	MaxJobs int `json:"max_jobs"`

	// Logger receives one line per request; nil means slog.Default().
	Logger *slog.Logger `json:"-"`
}

// DefaultConfig is the configuration of `nqueens serve` without flags.
func DefaultConfig() Config {
	return Config{
		MaxTraceN:      20,
		MaxGalleryN:    12,
		MaxCountN:      16,
		MaxSolveN:      10_000_000,
		MaxRenderN:     10_000_000,
		MaxCompleteN:   64,
		MaxVerifyN:     1_000_000,
		MaxTraceEvents: 200_000,
		MaxBodyBytes:   1 << 20,
		RequestTimeout: 60 * time.Second,
		StreamTimeout:  10 * time.Minute,
		CountTimeout:   10 * time.Minute,
		CountIdle:      15 * time.Second,
		MaxJobs:        4,
	}
}

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
		switch {
		case *f.v < 0:
			return c, fmt.Errorf("%s must not be negative, got %d", f.name, *f.v)
		case *f.v == 0:
			*f.v = f.def
		case *f.v > f.max:
			return c, fmt.Errorf("%s = %d is over what the engine supports (%d)", f.name, *f.v, f.max)
		}
	}
	durs := []struct {
		name string
		v    *time.Duration
		def  time.Duration
	}{
		{"request timeout", &c.RequestTimeout, d.RequestTimeout},
		{"stream timeout", &c.StreamTimeout, d.StreamTimeout},
		{"count timeout", &c.CountTimeout, d.CountTimeout},
		{"count idle time", &c.CountIdle, d.CountIdle},
	}
	for _, f := range durs {
		switch {
		case *f.v < 0:
			return c, fmt.Errorf("%s must not be negative, got %v", f.name, *f.v)
		case *f.v == 0:
			*f.v = f.def
		}
	}
	switch {
	case c.MaxBodyBytes < 0:
		return c, fmt.Errorf("max body bytes must not be negative, got %d", c.MaxBodyBytes)
	case c.MaxBodyBytes == 0:
		c.MaxBodyBytes = d.MaxBodyBytes
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c, nil
}
