package classic

import (
	"context"
	"errors"
	"math/big"
	"time"
)

// Measure's timing: a run shorter than minTiming is repeated until the runs
// add up to about repeatTiming, so that microsecond searches get a stable
// time; a brute-force method is first run for at most calibration to
// measure its rate of candidates.
const (
	minTiming    = 10 * time.Millisecond
	repeatTiming = 50 * time.Millisecond
	maxRepeats   = 10000
	calibration  = 50 * time.Millisecond
)

// Measurement is a strategy's run for n, timed.
type Measurement struct {
	// Status is "ok", "timeout" (stopped at the time allowed: Counters are
	// those reached by then) or "skipped" (a brute-force method whose
	// candidates would take longer than the time allowed at the Rate its
	// calibration run measured: about Seconds for Candidates).
	Status     string
	Counters   Counters
	PerRun     time.Duration // the average time of one whole run
	Runs       int
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
	m.Counters, m.PerRun, m.Runs = c, c.Elapsed, 1
	if stopped != nil {
		m.Status = "timeout"
		return m, nil
	}
	// Repeat a quick run so that its time means something.
	total := c.Elapsed
	for total < repeatTiming && c.Elapsed < minTiming && m.Runs < maxRepeats {
		c, stopped, err := solveWithin(ctx, s, n, timeout)
		if err != nil || stopped != nil {
			break
		}
		total += c.Elapsed
		m.Runs++
	}
	m.PerRun = total / time.Duration(m.Runs)
	return m, nil
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
