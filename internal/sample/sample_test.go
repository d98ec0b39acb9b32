package sample

import (
	"math"
	"testing"
)

// The mean and standard error of small samples, against the textbook
// formulas written out by hand.
func TestMean(t *testing.T) {
	for _, tc := range []struct {
		xs           []float64
		mean, stderr float64
	}{
		{[]float64{5}, 5, 0},
		{[]float64{1, 3}, 2, 1}, // variance (1+1)/2 = 1, /(2−1), sqrt
		{[]float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, math.Sqrt(4.0 / 7)}, // population variance 4
		{[]float64{7, 7, 7}, 7, 0},
	} {
		var m Mean
		for _, x := range tc.xs {
			m.Add(x)
		}
		mean, stderr := m.Result()
		if m.Len() != len(tc.xs) || mean != tc.mean || math.Abs(stderr-tc.stderr) > 1e-12 {
			t.Errorf("%v: len %d, mean %v ± %v, want %d, %v ± %v", tc.xs, m.Len(), mean, stderr, len(tc.xs), tc.mean, tc.stderr)
		}
	}
}
