package main

import (
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
)

// TestHumanNumbers: the bar writes its numbers in one scale and its rates
// in human units (it wrote 1883461/95.8M solutions and 2.55e+08 bytes/s).
func TestHumanNumbers(t *testing.T) {
	for _, tc := range []struct {
		unit        string
		done, units int
		want        string
	}{
		{"units", 4042, 4159, "4042/4159 units"},
		{"solutions", 1_883_461, 95_815_104, "1.9M/95.8M solutions"},
		{"bytes", 121_000_000, 259_000_000, "121/259 MB"},
		{"bytes", 259_000_000, 259_000_000, "259/259 MB"},
		{"bytes", 4096, 8192, "4096/8192 B"},
		{"queens", 300_000_000, 300_000_000, "300M/300M queens"},
		{"queens", 20_999_993, 0, "21.0M queens"},
		{"nodes", 999_600_000, 2_888_888_898, "1.00G/2.89G nodes"},
		{"solutions", 12, 0, "12 solutions"},
	} {
		v := &progressView{unit: tc.unit}
		if got := v.counters(progressState{Done: tc.done, Units: tc.units}); got != tc.want {
			t.Errorf("counters(%d, %d %s) = %q, want %q", tc.done, tc.units, tc.unit, got, tc.want)
		}
	}
	for _, tc := range []struct {
		x    float64
		unit string
		want string
	}{
		{2.55e8, "bytes", "255 MB/s"},
		{3.17e11, "nodes", "317G nodes/s"},
		{1.92e9, "nodes", "1.92G nodes/s"},
		{1_234_567, "solutions", "1.23M solutions/s"},
		{999_700, "queens", "1.00M queens/s"},
		{523.4, "nodes", "523 nodes/s"},
		{12.34, "nodes", "12.3 nodes/s"},
		{0, "nodes", "0.0 nodes/s"},
		{512, "bytes", "512 B/s"},
	} {
		if got := rateIn(i18n.For(i18n.English), tc.x, tc.unit); got != tc.want {
			t.Errorf("rateIn(%g, %s) = %q, want %q", tc.x, tc.unit, got, tc.want)
		}
	}
}

// TestBarLayout: on 80 columns every bar keeps at least minBar columns
// for itself, the long labels and notes giving way (solve 300000000
// --random's writing phase lost its bar and the space before its
// percentage: "writing 259M/259M bytes100 %").
func TestBarLayout(t *testing.T) {
	for _, tc := range []struct {
		label, unit string
		p           progressState
		want        string // left | right
	}{
		{"count 19", "units", progressState{Done: 1234, Units: 4159, Nodes: count.U128(4e10), Elapsed: 10 * time.Second},
			"count 19 1234/4159 units | 29 %  4.00G nodes/s  ETA 23.7s"},
		{"solve 300000000: writing", "bytes", progressState{Done: 121_000_000, Units: 259_000_000, Elapsed: time.Second},
			"solve 300000000: writing 121/259 MB | 46 %  121 MB/s  ETA 1.1s"},
		{"list 16", "solutions", progressState{Done: 1_883_461, Units: 14_772_512, Elapsed: 2 * time.Second},
			"list 16 1.9M/14.8M solutions | 12 %  942k/s  ETA 13.7s"},
		{"N = 20", "units", progressState{Done: 10, Units: 3957, Nodes: count.U128(1e9), Elapsed: time.Second,
			Note: "3 workers, BANNED: liar (UBHMZF…AQJD), another-liar (XYZ…ABC)"},
			"N = 20 10/3957 units | 0 %  1.00G nodes/s  ETA 6m35s  3 worker…"},
		{"a very long label that names a job of many words", "solutions", progressState{Done: 1_883_461, Units: 95_815_104, Elapsed: time.Second},
			"a very long lab… 1.9M/95.8M solutions | 1 %  1.88M/s  ETA 49.9s"},
	} {
		v := &progressView{label: tc.label, unit: tc.unit}
		left, right := v.layout(80, tc.p)
		if got := left + " | " + right; got != tc.want {
			t.Errorf("%s: %q, want %q", tc.label, got, tc.want)
		}
		if n := len([]rune(left)) + len([]rune(right)); n > 80-minBar {
			t.Errorf("%s: %d columns of text leave the bar less than %d", tc.label, n, minBar)
		}
		if strings.Contains(right, "e+") {
			t.Errorf("%s: %q", tc.label, right)
		}
	}
}
