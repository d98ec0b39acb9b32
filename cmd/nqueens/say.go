package main

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/i18n"
)

// The command line's sentences are messages of the catalogs (cli*.json):
// usageT, errT, interruptedT and failureT make errors that say themselves
// in the reader's language, noteT prints a note, and the argument types
// below (dur, estSecs) write durations in it.

// usageT is the usage error whose message is the message key.
func usageT(key string, args i18n.Args) error { return &usageError{i18n.NewError(key, args)} }

// errT is the error whose message is the message key.
func errT(key string, args i18n.Args) error { return i18n.NewError(key, args) }

// printer is the printer of the command's human sentences.
func (s *streams) printer() *i18n.Printer {
	if s.p == nil {
		return i18n.For(i18n.English)
	}
	return s.p
}

// noteT prints the message key for the user on stderr, unless --quiet.
func (s *streams) noteT(key string, args i18n.Args) {
	if !s.quiet {
		fmt.Fprintf(s.stderr, "nqueens: %s\n", s.printer().T(key, args))
	}
}

// howStopped says where the job of err stopped, as the library's error
// says it without its cause: "count of N = 12 stopped after 5 of 730
// units", in the printer's language when the library's error is one of
// the catalogs (i18n.Stopped).
type howStopped struct{ err error }

func (h howStopped) Localize(p *i18n.Printer) string {
	var e *i18n.Error
	if errors.As(h.err, &e) {
		if how, ok := e.Args["How"].(i18n.Localizer); ok && e.Key == i18n.StoppedKey {
			return how.Localize(p)
		}
	}
	return stoppedHow(h.err)
}

// dur is a duration as people read it: 850ms, 42s, 3m20s, 5h10m, 12 days,
// 31.7 years; 850 毫秒, 3 分 20 秒 in Chinese.
type dur time.Duration

func (d dur) Localize(p *i18n.Printer) string {
	t := time.Duration(d)
	trim := false // time.Duration's String without its "0s"
	switch {
	case t == maxDuration:
		return p.T("cli.dur.over", nil)
	case t < time.Millisecond:
		t = t.Round(time.Microsecond)
		if t < time.Microsecond {
			return p.T("cli.dur.s", i18n.Args{"S": "0"})
		}
		if t < time.Millisecond {
			return p.T("cli.dur.us", i18n.Args{"V": strconv.FormatInt(t.Microseconds(), 10)})
		}
		return p.T("cli.dur.msec", i18n.Args{"V": "1"}) // 999.6µs
	case t < time.Second:
		t = t.Round(time.Millisecond)
		if t < time.Second {
			return p.T("cli.dur.msec", i18n.Args{"V": strconv.FormatInt(t.Milliseconds(), 10)})
		}
	case t < time.Minute:
		t = t.Round(100 * time.Millisecond)
	case t < time.Hour:
		t = t.Round(time.Second)
	case t < 48*time.Hour:
		t, trim = t.Round(time.Minute), true
	case t < 365*24*time.Hour:
		return p.T("cli.dur.days", i18n.Args{"V": strconv.Itoa(int(t.Hours() / 24))})
	default:
		return p.T("cli.dur.years", i18n.Args{"V": fmt.Sprintf("%.3g", t.Hours()/24/365.25)})
	}
	// As time.Duration's String writes it: 42.3s, 1m0s, 3m20s, 1h0m0s,
	// and past an hour rounded to the minute 5h10m.
	h, m := int(t/time.Hour), int(t%time.Hour/time.Minute)
	s := strconv.FormatFloat((t % time.Minute).Seconds(), 'f', -1, 64)
	a := i18n.Args{"H": strconv.Itoa(h), "M": strconv.Itoa(m), "S": s}
	switch {
	case h > 0 && !trim:
		return p.T("cli.dur.hms", a)
	case h > 0:
		return p.T("cli.dur.hm", a)
	case m > 0:
		return p.T("cli.dur.ms", a)
	}
	return p.T("cli.dur.s", a)
}

// estSecs is an estimated time in seconds, which may pass what a
// time.Duration holds: 3m20s, 4.74 years.
type estSecs float64

func (s estSecs) Localize(p *i18n.Printer) string {
	const year = 365.25 * 24 * 3600
	if s >= year {
		return p.T("cli.dur.years", i18n.Args{"V": threeDigits(float64(s) / year)})
	}
	return dur(seconds(float64(s))).Localize(p)
}

// interruptedN is the interruption whose kept is the message key in the
// plural form of count.
func interruptedN(key string, count any, args i18n.Args) error {
	said := i18n.NewPluralError(key, count, args)
	return &interrupted{kept: said.Error(), said: said}
}

// counters are a strategy's counters as the trace writes them: "nodes 1,
// tries 2, …".
type counters classic.Counters

func (c counters) Localize(p *i18n.Printer) string { return countersLine(p, classic.Counters(c)) }

// andNames are names joined as the language joins a list: "--a, --b and
// --c", "--a、--b和--c".
type andNames []string

func (l andNames) Localize(p *i18n.Printer) string { return p.List(l) }

// withNear is an error and the names near what was typed, which
// errorText writes below it, a line each, after "Did you mean this?".
type withNear struct {
	err  i18n.Localizer
	near []string
}

func (e withNear) Error() string { return e.Localize(i18n.For(i18n.English)) }

func (e withNear) Localize(p *i18n.Printer) string {
	if len(e.near) == 0 {
		return e.err.Localize(p)
	}
	return e.err.Localize(p) + suggestion + "\t" + strings.Join(e.near, "\n\t") + "\n"
}

// pathErrors are the messages of the file errors a user meets most, by
// their errno: "open x: no such file or directory", "x：文件或文件夹不存在".
var pathErrors = map[syscall.Errno]string{
	syscall.ENOENT: "cli.os.notexist",
	syscall.EACCES: "cli.os.permission",
	syscall.EISDIR: "cli.os.isdir",
	syscall.ENOSPC: "cli.os.nospace",
}

// pathError is a file error in the reader's language when its errno has
// a message, else in Go's words.
type pathError struct{ *fs.PathError }

func (e pathError) Localize(p *i18n.Printer) string {
	var errno syscall.Errno
	if errors.As(e.Err, &errno) {
		if key, ok := pathErrors[errno]; ok {
			return p.T(key, i18n.Args{"Op": e.Op, "Path": e.Path})
		}
	}
	return e.Error()
}
