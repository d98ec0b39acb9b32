// Package sample keeps the mean of a sample and its standard error, as the
// random-probe estimates of count and variant report them.
package sample

import "math"

// Mean accumulates a sample. The zero value is an empty sample.
type Mean struct {
	n, sum, sum2 float64
}

// Add puts x into the sample. Cost O(1).
func (m *Mean) Add(x float64) {
	m.n++
	m.sum += x
	m.sum2 += x * x
}

// Len is the number of values added.
func (m *Mean) Len() int { return int(m.n) }

// Result is the sample's mean and the standard error of that mean (0 for
// a sample of one; NaN for an empty one).
func (m *Mean) Result() (mean, stderr float64) {
	mean = m.sum / m.n
	return mean, math.Sqrt(max(0, m.sum2/m.n-mean*mean) / max(1, m.n-1))
}
