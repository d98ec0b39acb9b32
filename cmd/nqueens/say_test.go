package main

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/i18n"
)

// goDuration is how durations were written before they came from the
// catalogs, by time.Duration's own String: the English of dur must stay
// the same.
func goDuration(d time.Duration) string {
	switch {
	case d == maxDuration:
		return "over 290 years"
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	case d < time.Hour:
		return d.Round(time.Second).String()
	case d < 48*time.Hour:
		return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
	case d < 365*24*time.Hour:
		return strconv.Itoa(int(d.Hours()/24)) + " days"
	}
	return fmt.Sprintf("%.3g years", d.Hours()/24/365.25)
}

func TestDurEnglish(t *testing.T) {
	var ds []time.Duration
	for _, base := range []time.Duration{time.Nanosecond, time.Microsecond, time.Millisecond, time.Second, time.Minute, time.Hour, 24 * time.Hour} {
		for _, k := range []float64{0, 0.4, 0.5, 0.9994, 0.9996, 1, 1.5, 9.99, 42.34, 59.96, 59.99, 99.5, 119.99, 1000} {
			ds = append(ds, time.Duration(k*float64(base)))
		}
	}
	ds = append(ds, maxDuration, time.Hour-time.Millisecond, 48*time.Hour-time.Second, 5*time.Hour+10*time.Minute, 3*time.Minute+20*time.Second, 400*24*time.Hour)
	en, zh := i18n.For(i18n.English), i18n.For(i18n.Chinese)
	for _, d := range ds {
		if got, want := dur(d).Localize(en), goDuration(d); got != want {
			t.Errorf("%d ns: %q, want %q", int64(d), got, want)
		}
		if s := dur(d).Localize(zh); latinWord.MatchString(s) {
			t.Errorf("%d ns in Chinese: %q", int64(d), s)
		}
	}
	if got := dur(3*time.Minute + 20*time.Second).Localize(zh); got != "3 分 20 秒" {
		t.Errorf("3m20s in Chinese: %q", got)
	}
}
