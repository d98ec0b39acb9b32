package classic

import (
	"context"
	"math/big"
	"time"

	"github.com/nqueens/nqueens/i18n"
)

// Comparison is one strategy's row of a comparison in its one JSON form:
// `nqueens compare N --json` writes one a line and GET /api/compare answers
// a list of them (docs/json.md).
type Comparison struct {
	N         int    `json:"n"`
	Algorithm string `json:"algorithm"`
	// Status is that of the Measurement: "ok", "timeout" (Counters are
	// those reached when the time allowed ran out) or "skipped".
	Status   string              `json:"status"`
	Counters *ComparisonCounters `json:"counters,omitempty"` // ok and timeout
	// Seconds is the time of one whole run (ok: the average of Runs), or
	// of the run stopped (timeout).
	Seconds float64 `json:"seconds,omitempty"`
	Runs    int     `json:"runs,omitempty"`
	// Median is the median time of one run over Samples measures (batches
	// of runs, see Measure), Q1 and Q3 its lower and upper quartiles: the
	// time is known no better than Q3 − Q1. One sample for a long run or
	// a timeout.
	Median  float64 `json:"median_s,omitempty"`
	Q1      float64 `json:"q1_s,omitempty"`
	Q3      float64 `json:"q3_s,omitempty"`
	Samples int     `json:"samples,omitempty"`
	// RelativeToBitmask is Seconds over bitmask's, for a run that finished
	// in a comparison where bitmask finished too.
	RelativeToBitmask float64 `json:"relative_to_bitmask,omitempty"`
	// A skipped brute-force method: its candidates (exact, by Formula),
	// the rate its calibration run measured and the seconds they would
	// take at that rate.
	Candidates *big.Int `json:"candidates,omitempty"`
	Formula    string   `json:"formula,omitempty"`
	Rate       float64  `json:"candidates_per_second,omitempty"`
	Estimate   float64  `json:"estimate_s,omitempty"`
}

// ComparisonCounters are a row's Counters without their time (the row has
// Seconds), and without reads for a counting engine (fast), whose reads
// mean nothing: Reads is nil.
type ComparisonCounters struct {
	Nodes      uint64  `json:"nodes"`
	Tries      uint64  `json:"tries"`
	Reads      *uint64 `json:"reads,omitempty"`
	Placed     uint64  `json:"placed"`
	Rejected   uint64  `json:"rejected"`
	Backtracks uint64  `json:"backtracks"`
	Solutions  uint64  `json:"solutions"`
}

// Compare measures each strategy of list for n within timeout
// ([Measure]), in the order given, and compares their times with
// bitmask's. Only a cancellation of ctx (its error wrapped, saying where
// the comparison stopped) or a size out of range is an error. Cost: at most about timeout a strategy, plus the calibrations.
func Compare(ctx context.Context, list []Strategy, n int, timeout time.Duration) ([]Comparison, error) {
	rows := make([]Comparison, 0, len(list))
	for i, s := range list {
		m, err := Measure(ctx, s, n, timeout)
		if err != nil && ctx.Err() != nil {
			return nil, i18n.Stopped(i18n.NewError("error.compare.stopped", i18n.Args{"N": n, "Algo": s.Name(), "I": i + 1, "Of": len(list)}), err)
		} else if err != nil {
			return nil, err
		}
		rows = append(rows, m.comparison(s, n))
	}
	var bitmask float64
	for _, r := range rows {
		if r.Algorithm == "bitmask" && r.Status == "ok" {
			bitmask = r.Seconds
		}
	}
	for i := range rows {
		if bitmask > 0 && rows[i].Status == "ok" {
			rows[i].RelativeToBitmask = rows[i].Seconds / bitmask
		}
	}
	return rows, nil
}

// comparison is m, the measurement of s for n, as a row.
func (m Measurement) comparison(s Strategy, n int) Comparison {
	r := Comparison{N: n, Algorithm: s.Name(), Status: m.Status}
	if m.Status == "skipped" {
		r.Candidates, r.Rate, r.Estimate = m.Candidates, m.Rate, m.Seconds
		if e, ok := s.(Estimator); ok {
			r.Formula = e.Formula()
		}
		return r
	}
	c := m.Counters
	r.Counters = &ComparisonCounters{Nodes: c.Nodes, Tries: c.Tries, Placed: c.Placed, Rejected: c.Rejected,
		Backtracks: c.Backtracks, Solutions: c.Solutions}
	if _, ok := LessonOf(s); ok {
		r.Counters.Reads = &c.Reads
	}
	r.Seconds, r.Runs = m.PerRun.Seconds(), m.Runs
	r.Median, r.Q1, r.Q3, r.Samples = m.Quartile(2).Seconds(), m.Quartile(1).Seconds(), m.Quartile(3).Seconds(), len(m.Samples)
	return r
}
