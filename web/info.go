package web

import (
	"math/big"
	"net/http"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
)

// limitsJSON is the answer of GET /api/limits: what this server accepts, so
// that the page can bound its inputs. It has a field for each field of
// Config, of the same name, durations in seconds (TestLimitsMirrorConfig
// keeps them in step); Logger and AllowedHosts are no limits.
type limitsJSON struct {
	MaxTraceN         int     `json:"max_trace_n"`
	MaxGalleryN       int     `json:"max_gallery_n"`
	MaxCountN         int     `json:"max_count_n"`
	MaxSolveN         int     `json:"max_solve_n"`
	MaxRenderN        int     `json:"max_render_n"`
	MaxCompleteN      int     `json:"max_complete_n"`
	MaxVerifyN        int     `json:"max_verify_n"`
	MaxTraceEvents    int     `json:"max_trace_events"`
	MaxBodyBytes      int64   `json:"max_body_bytes"`
	MaxBufferedBytes  int64   `json:"max_buffered_bytes"`
	MaxRenderBytes    int64   `json:"max_render_bytes"`
	RequestTimeout    float64 `json:"request_timeout_s"`
	StreamTimeout     float64 `json:"stream_timeout_s"`
	SlowClientTimeout float64 `json:"slow_client_timeout_s"`
	CompareTimeout    float64 `json:"compare_timeout_s"`
	CountTimeout      float64 `json:"count_timeout_s"`
	CountIdle         float64 `json:"count_idle_s"`
	CountWorkers      int     `json:"count_workers"`
	MaxJobs           int     `json:"max_jobs"`
	// EngineMaxN is no limit of the server's but of the counting engine:
	// the largest N the command line counts, which the page names it for.
	EngineMaxN int `json:"engine_max_n"`
	// CountEngines is no limit either: which engine counts which N
	// (count.Engine), as runs of N from 1 to EngineMaxN, so that the page
	// says how each N is counted without a table of its own.
	CountEngines []engineRange `json:"count_engines"`
}

// engineRange is a run of N, From to To, that one engine counts.
type engineRange struct {
	Engine string `json:"engine"`
	From   int    `json:"from"`
	To     int    `json:"to"`
}

// countEngines cuts 1 … count.MaxN into the runs of N of one engine.
func countEngines() []engineRange {
	var out []engineRange
	for n := 1; n <= count.MaxN; n++ {
		e := count.Engine(n)
		if k := len(out) - 1; k >= 0 && out[k].Engine == e && out[k].To == n-1 {
			out[k].To = n
			continue
		}
		out = append(out, engineRange{Engine: e, From: n, To: n})
	}
	return out
}

// handlePing answers 204 with no body: the page's heartbeat, which tells it
// within a second or two that the server has gone (or is back).
func (s *Server) handlePing(w http.ResponseWriter, r *http.Request) error {
	if _, err := query(r); err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) handleLimits(w http.ResponseWriter, r *http.Request) error {
	if _, err := query(r); err != nil {
		return err
	}
	c := s.cfg
	return writeJSON(w, http.StatusOK, limitsJSON{
		MaxTraceN: c.MaxTraceN, MaxGalleryN: c.MaxGalleryN, MaxCountN: c.MaxCountN,
		MaxSolveN: c.MaxSolveN, MaxRenderN: c.MaxRenderN, MaxCompleteN: c.MaxCompleteN,
		MaxVerifyN: c.MaxVerifyN, MaxTraceEvents: c.MaxTraceEvents, MaxBodyBytes: c.MaxBodyBytes,
		MaxBufferedBytes: c.MaxBufferedBytes,
		MaxRenderBytes:   c.MaxRenderBytes, RequestTimeout: c.RequestTimeout.Seconds(),
		StreamTimeout: c.StreamTimeout.Seconds(), SlowClientTimeout: c.SlowClientTimeout.Seconds(),
		CompareTimeout: c.CompareTimeout.Seconds(), CountTimeout: c.CountTimeout.Seconds(), CountIdle: c.CountIdle.Seconds(),
		CountWorkers: c.CountWorkers, MaxJobs: c.MaxJobs, EngineMaxN: count.MaxN, CountEngines: countEngines(),
	})
}

// algorithmJSON is one strategy, as `nqueens algorithms --json` prints it,
// with its lesson (title, summary, pseudocode) for the page.
type algorithmJSON struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Traceable   bool   `json:"traceable"`
	Enumerates  bool   `json:"enumerates"`
	// Completes says that the strategy backtracks row by row and that its
	// trace can start from a partial board (classic.Completer, the board
	// of /api/trace).
	Completes bool `json:"completes"`
	// Candidates is the number of candidate boards of a brute-force
	// strategy for ?n=, an exact JSON number however large.
	Candidates *big.Int `json:"candidates,omitempty"`
	*classic.Lesson
}

// handleAlgorithms lists the strategies; with ?n= each brute-force one
// carries its number of candidates for that n.
func (s *Server) handleAlgorithms(w http.ResponseWriter, r *http.Request) error {
	q, err := query(r, "n")
	if err != nil {
		return err
	}
	n := 0
	if q["n"] != "" {
		if n, err = nParam(q, "algorithms", classic.MaxN); err != nil {
			return err
		}
	}
	p := i18n.Ctx(r.Context())
	var out []algorithmJSON
	for _, a := range classic.All() {
		_, traceable := classic.TraceOf(a)
		_, completes := a.(classic.Completer)
		j := algorithmJSON{Name: a.Name(), Description: classic.Describe(p, a), Traceable: traceable, Enumerates: classic.Enumerates(a), Completes: completes}
		if l, ok := classic.LessonIn(p, a); ok {
			j.Lesson = &l
		}
		if e, ok := a.(classic.Estimator); ok && n > 0 {
			j.Candidates = e.Candidates(n)
		}
		out = append(out, j)
	}
	return writeJSON(w, http.StatusOK, out)
}

// referenceJSON is one row of GET /api/reference: the published counts of
// N, all solutions (OEIS A000170) and their symmetry classes (A002562).
type referenceJSON struct {
	N      int           `json:"n"`
	Total  count.Uint128 `json:"total"`
	Unique count.Uint128 `json:"unique"`
}

// handleReference answers the published counts, N = 1 to the last
// published (count.Known), exact JSON numbers however large: the table
// every count is checked against, which the page's lesson reads to show
// how Q(N) grows. Cost O(rows).
func (s *Server) handleReference(w http.ResponseWriter, r *http.Request) error {
	if _, err := query(r); err != nil {
		return err
	}
	var out []referenceJSON
	for n := 1; ; n++ {
		total, unique, ok := count.Known(n)
		if !ok {
			break
		}
		out = append(out, referenceJSON{N: n, Total: total, Unique: unique})
	}
	return writeJSON(w, http.StatusOK, out)
}
