package classic

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"time"
)

// Measure's timing: a run shorter than minTiming is repeated, in batches
// of about batchTiming each (so that the clock's resolution, 100 µs in some
// browsers, is small beside a batch), until the batches add up to about
// repeatTiming and number minSamples at least; each batch gives one sample,
// its time divided by its runs, and the samples' median and quartiles say
// how much the time moves from one measure to the next. A brute-force
// method is first run for at most calibration to measure its rate of
// candidates.
const (
	minTiming    = 10 * time.Millisecond
	batchTiming  = 2 * time.Millisecond
	repeatTiming = 50 * time.Millisecond
	minSamples   = 11
	maxSamples   = 101
	maxRepeats   = 10000 // runs in all, whatever the clock says: a coarse clock reads 0
	calibration  = 50 * time.Millisecond
)

// Measurement is a strategy's run for n, timed.
type Measurement struct {
	// Status is "ok", "timeout" (stopped at the time allowed: Counters are
	// those reached by then) or "skipped" (a brute-force method whose
	// candidates would take longer than the time allowed at the Rate its
	// calibration run measured: about Seconds for Candidates).
	Status   string
	Counters Counters
	PerRun   time.Duration // the average time of one whole run
	Runs     int
	// Samples are the times of one run measured batch by batch, sorted
	// (one sample, the run itself, for a run of minTiming or more).
	Samples    []time.Duration
	Candidates *big.Int
	Rate       float64 // candidates a second
	Seconds    float64
}

// Measure runs s for n within timeout, as `nqueens compare` and the page's
// cost chart do. Only a cancellation of ctx itself, or a size out of
// range, is an error. Cost: at most about timeout, plus a calibration of
// 50 ms for a brute-force method.
func Measure(ctx context.Context, s Strategy, n int, timeout time.Duration) (Measurement, error) {
	m := Measurement{Status: "ok"}
	if e, ok := s.(Estimator); ok {
		c, stopped, err := solveWithin(ctx, s, n, min(calibration, timeout))
		if err != nil {
			return m, err
		}
		if c.Elapsed > 0 && errors.Is(stopped, context.DeadlineExceeded) {
			m.Candidates = e.Candidates(n)
			m.Rate = float64(c.Nodes) / c.Elapsed.Seconds()
			est := new(big.Float).Quo(new(big.Float).SetInt(m.Candidates), big.NewFloat(m.Rate))
			if m.Seconds, _ = est.Float64(); m.Seconds > timeout.Seconds() {
				m.Status = "skipped"
				return m, nil
			}
		}
	}
	c, stopped, err := solveWithin(ctx, s, n, timeout)
	if err != nil {
		return m, err
	}
	m.Counters, m.PerRun, m.Runs, m.Samples = c, c.Elapsed, 1, []time.Duration{c.Elapsed}
	if stopped != nil {
		m.Status = "timeout"
		return m, nil
	}
	if c.Elapsed < minTiming {
		m.repeat(ctx, s, n, timeout, c.Elapsed)
	}
	return m, nil
}

// repeat times a quick run again in batches (see minTiming), first taking
// about first, and keeps the batches' samples: the first run, which warms
// the caches, is left out of them.
func (m *Measurement) repeat(ctx context.Context, s Strategy, n int, timeout, first time.Duration) {
	batch := max(1, min(maxRepeats/minSamples, int(batchTiming/max(first, time.Microsecond))))
	var total time.Duration
	runs := 0
	m.Samples = m.Samples[:0]
	for (total < repeatTiming || len(m.Samples) < minSamples) && len(m.Samples) < maxSamples && total < timeout && runs+batch <= maxRepeats {
		var took time.Duration
		for range batch {
			c, stopped, err := solveWithin(ctx, s, n, timeout)
			if err != nil || stopped != nil {
				m.finish(total, runs)
				return
			}
			took += c.Elapsed
		}
		total += took
		runs += batch
		m.Samples = append(m.Samples, took/time.Duration(batch))
	}
	m.finish(total, runs)
}

// finish sets the average and sorts the samples once runs more runs took
// total; a run that could not be repeated keeps its first time.
func (m *Measurement) finish(total time.Duration, runs int) {
	if runs == 0 {
		m.Samples = []time.Duration{m.PerRun}
		return
	}
	m.PerRun, m.Runs = total/time.Duration(runs), runs
	slices.Sort(m.Samples)
}

// Quartile is the q-th quartile of the samples (0 the fastest, 2 the
// median, 4 the slowest), read from the sorted samples at the nearest
// rank; 0 without samples.
func (m Measurement) Quartile(q int) time.Duration {
	k := len(m.Samples)
	if k == 0 {
		return 0
	}
	return m.Samples[min(k-1, q*(k-1)/4)]
}

// solveWithin runs s with a deadline: the counters and the deadline if it
// stopped the run; err only for a cancelled parent or a size out of range.
func solveWithin(ctx context.Context, s Strategy, n int, limit time.Duration) (Counters, error, error) {
	run, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	c, err := s.Solve(run, n, nil)
	var se *SizeError
	switch {
	case errors.As(err, &se):
		return c, nil, err
	case ctx.Err() != nil:
		return c, nil, ctx.Err()
	}
	return c, err, nil
}
