package main

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// lineHandler writes each slog record as one line for people on stderr,
// the one log format of every command (coordinator, worker, serve):
//
//	nqueens: <who>: [debug: |warning: |error: ]message key=value group.key=value …
//
// An Info record has no level word. Attributes keep their order, those of
// WithAttrs first; a group's attributes carry its name and a dot before
// their keys, and an empty group is left out. A value that is not one plain
// word is written as a quoted Go string, so that a control character in
// text a peer chose (a worker's --name, a ban's reason, an error from a
// file) appears escaped and never reaches the terminal as is. The time is
// left out (the lines are read as they come) unless timeFormat is set.
// Each line goes out in one Write; the writer serialises them (see
// lockedWriter). It passes testing/slogtest (log_test.go).
type lineHandler struct {
	w          io.Writer
	prefix     string
	level      slog.Leveler
	timeFormat string
	attrs      []byte // formatted attributes of WithAttrs, each with its leading space
	group      string // the open groups, each name followed by a dot
}

// quietLevel is the level of a command's log: with --quiet only warnings
// and errors, else the information lines too.
func quietLevel(quiet bool) slog.Level {
	if quiet {
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

// newLineLogger returns the logger of command who, at level (Info when nil).

func newLineLogger(w io.Writer, who string, level slog.Leveler) *slog.Logger {
	if level == nil {
		level = slog.LevelInfo
	}
	return slog.New(&lineHandler{w: w, prefix: "nqueens: " + who + ": ", level: level})
}

func (h *lineHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level.Level() }

func (h *lineHandler) Handle(_ context.Context, r slog.Record) error {
	b := make([]byte, 0, 256)
	if h.timeFormat != "" && !r.Time.IsZero() {
		b = append(r.Time.AppendFormat(b, h.timeFormat), ' ')
	}
	b = append(b, h.prefix...)
	switch {
	case r.Level >= slog.LevelError:
		b = append(b, "error: "...)
	case r.Level >= slog.LevelWarn:
		b = append(b, "warning: "...)
	case r.Level < slog.LevelInfo:
		b = append(b, "debug: "...)
	}
	b = appendText(b, r.Message)
	b = append(b, h.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		b = appendAttr(b, h.group, a)
		return true
	})
	b = append(b, '\n')
	_, err := h.w.Write(b)
	return err
}

func (h *lineHandler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append([]byte(nil), h.attrs...)
	for _, a := range as {
		c.attrs = appendAttr(c.attrs, h.group, a)
	}
	return &c
}

func (h *lineHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.group += name + "."
	return &c
}

// appendAttr appends " key=value" for a, its key under the groups in
// prefix: an empty attribute adds nothing, a group its members (an empty
// group nothing at all, a group without a key its members inline).
func appendAttr(b []byte, prefix string, a slog.Attr) []byte {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return b
	}
	if a.Value.Kind() == slog.KindGroup {
		if a.Key != "" {
			prefix += a.Key + "."
		}
		for _, m := range a.Value.Group() {
			b = appendAttr(b, prefix, m)
		}
		return b
	}
	b = append(b, ' ')
	b = appendWord(b, prefix+a.Key)
	b = append(b, '=')
	switch v := a.Value; v.Kind() {
	case slog.KindTime:
		return appendWord(b, v.Time().Format(time.RFC3339Nano))
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return appendWord(b, err.Error())
		}
	}
	return appendWord(b, a.Value.String())
}

// appendWord appends s as it is when it is one plain word, and as a quoted
// Go string otherwise: empty, or with a space, a quote, an equals sign, a
// backslash, or a character that is not printable.
func appendWord(b []byte, s string) []byte {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return r == ' ' || r == '"' || r == '=' || r == '\\' || r == utf8.RuneError || !unicode.IsPrint(r)
	}) < 0 {
		return append(b, s...)
	}
	return strconv.AppendQuote(b, s)
}

// appendText appends a message: text as it is, but every character that
// is not printable (a control character such as ESC, a broken UTF-8 byte)
// escaped as in a Go string, so that no text reaches the terminal as a
// command to it.
func appendText(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, '\\', 'x', hexDigits[s[i]>>4], hexDigits[s[i]&15])
		case r == ' ' || unicode.IsPrint(r):
			b = append(b, s[i:i+size]...)
		default:
			q := strconv.QuoteRune(r) // '\x1b'
			b = append(b, q[1:len(q)-1]...)
		}
		i += size
	}
	return b
}

const hexDigits = "0123456789abcdef"

// escapeText is appendText to a string, for the one-line errors and the
// progress lines that carry text from peers and files.
func escapeText(s string) string { return string(appendText(nil, s)) }
