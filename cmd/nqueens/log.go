package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// lineHandler writes each slog record as one line for people on stderr:
// "nqueens: <who>: message key=value …", without time or level (the lines
// are read as they come, and a terminal adds neither). Each line goes out
// in one Write; the writer serialises them (see lockedWriter).
type lineHandler struct {
	w      io.Writer
	prefix string
	attrs  []slog.Attr
}

func newLineLogger(w io.Writer, who string) *slog.Logger {
	return slog.New(&lineHandler{w: w, prefix: "nqueens: " + who + ": "})
}

func (h *lineHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

func (h *lineHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(h.prefix)
	b.WriteString(r.Message)
	write := func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	}
	for _, a := range h.attrs {
		write(a)
	}
	r.Attrs(write)
	b.WriteByte('\n')
	_, err := io.WriteString(h.w, b.String())
	return err
}

func (h *lineHandler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(append([]slog.Attr(nil), h.attrs...), as...)
	return &c
}

func (h *lineHandler) WithGroup(string) slog.Handler { return h }
