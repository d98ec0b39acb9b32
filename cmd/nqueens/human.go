package main

import (
	"math"
	"strconv"

	"github.com/nqueens/nqueens/i18n"
)

// scale writes the numbers of one progress bar alike: divided by div, with
// decimals digits after the point, and a suffix (k, M, G…, or for bytes
// kB, MB, GB…).
type scale struct {
	div      float64
	decimals int
	suffix   string
}

var (
	numberSuffixes = []string{"", "k", "M", "G", "T", "P", "E"}
	byteSuffixes   = []string{" B", " kB", " MB", " GB", " TB", " PB", " EB"}
)

// sig3 is the scale that writes x with three significant digits: 523,
// 95.8M, 1.00G, 255 MB.
func sig3(x float64, bytes bool) scale {
	suffixes := numberSuffixes
	if bytes {
		suffixes = byteSuffixes
	}
	p, div := 0, 1.0
	for p+1 < len(suffixes) && x/div >= 999.5 {
		p, div = p+1, div*1000
	}
	decimals := 0
	switch v := x / div; {
	case v < 9.995:
		decimals = 2
	case v < 99.95:
		decimals = 1
	}
	if p == 0 && !bytes {
		decimals = min(decimals, 1) // 12.3 nodes/s, not a finer part
	}
	return scale{div: div, decimals: decimals, suffix: suffixes[p]}
}

// scaleOf is the scale of a bar's numbers up to top: plain digits below
// 10000 (4042/4159 units), else three significant digits of top
// (1.9M/95.8M, 121/259 MB).
func scaleOf(top float64, bytes bool) scale {
	if top < 10_000 {
		sc := scale{div: 1}
		if bytes {
			sc.suffix = byteSuffixes[0]
		}
		return sc
	}
	return sig3(top, bytes)
}

// format writes x in the scale, with its suffix when withSuffix.
func (s scale) format(x float64, withSuffix bool) string {
	out := strconv.FormatFloat(x/s.div, 'f', s.decimals, 64)
	if withSuffix {
		out += s.suffix
	}
	return out
}

// rateIn writes a rate of x unit a second with three significant
// digits, in p's language: 3.14G nodes/s, 1.20M solutions/s, 255 MB/s;
// 每秒 3.14G 个节点.
func rateIn(p *i18n.Printer, x float64, unit string) string {
	v := "?"
	if !math.IsNaN(x) && !math.IsInf(x, 0) && x >= 0 {
		v = sig3(x, unit == "bytes").format(x, true)
	}
	if unit == "bytes" {
		if v == "?" {
			v = "? B"
		}
		return v + "/s"
	}
	return p.T(unitKeys[unit][1], i18n.Args{"V": v})
}

// unitKeys are the messages of an amount and of a rate of each unit of a
// progress view.
var unitKeys = map[string][2]string{
	"units":     {"cli.progress.units", "cli.progress.rate.units"},
	"nodes":     {"cli.progress.nodes", "cli.progress.rate.nodes"},
	"solutions": {"cli.progress.solutions", "cli.progress.rate.solutions"},
	"queens":    {"cli.progress.queens", "cli.progress.rate.queens"},
	"runs":      {"cli.progress.runs", "cli.progress.rate.runs"},
}
