package main

import (
	"bytes"
	"errors"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/slogtest"
	"time"
)

// TestLineHandlerSlogtest runs the standard library's battery of handler
// tests on lineHandler, reading its lines back into maps: groups nest,
// empty attributes and groups vanish, LogValuers resolve.
func TestLineHandlerSlogtest(t *testing.T) {
	var buf bytes.Buffer
	newHandler := func(*testing.T) slog.Handler {
		buf.Reset()
		return &lineHandler{w: &buf, prefix: "nqueens: test: ", level: slog.LevelInfo, timeFormat: time.RFC3339Nano}
	}
	result := func(t *testing.T) map[string]any {
		line := strings.TrimSuffix(buf.String(), "\n")
		if strings.Count(line, "\n") > 0 {
			t.Fatalf("more than one line: %q", buf.String())
		}
		return parseLine(t, line)
	}
	slogtest.Run(t, newHandler, result)
}

// attrRx is one key=value of a line: a plain word, or a quoted Go string.
var attrRx = regexp.MustCompile(` ([^ =]+)=("(?:[^"\\]|\\.)*"|[^ ]*)`)

// parseLine reads a line of lineHandler back: the time if it starts with
// one, the level word (none for Info), the message, and the attributes,
// dotted keys as nested maps.
func parseLine(t *testing.T, line string) map[string]any {
	t.Helper()
	m := map[string]any{}
	if ts, rest, ok := strings.Cut(line, " "); ok {
		if tm, err := time.Parse(time.RFC3339Nano, ts); err == nil {
			m[slog.TimeKey] = tm
			line = rest
		}
	}
	line, ok := strings.CutPrefix(line, "nqueens: test: ")
	if !ok {
		t.Fatalf("line without its prefix: %q", line)
	}
	m[slog.LevelKey] = "INFO"
	for word, level := range map[string]string{"debug: ": "DEBUG", "warning: ": "WARN", "error: ": "ERROR"} {
		if rest, ok := strings.CutPrefix(line, word); ok {
			line, m[slog.LevelKey] = rest, level
		}
	}
	at := attrRx.FindAllStringSubmatchIndex(line, -1)
	end := len(line)
	if len(at) > 0 {
		end = at[0][0]
	}
	m[slog.MessageKey] = line[:end]
	for _, a := range at {
		key, value := line[a[2]:a[3]], line[a[4]:a[5]]
		if strings.HasPrefix(value, `"`) {
			v, err := strconv.Unquote(value)
			if err != nil {
				t.Fatalf("%s=%s: %v", key, value, err)
			}
			value = v
		}
		dst := m
		parts := strings.Split(key, ".")
		for _, g := range parts[:len(parts)-1] {
			sub, ok := dst[g].(map[string]any)
			if !ok {
				sub = map[string]any{}
				dst[g] = sub
			}
			dst = sub
		}
		dst[parts[len(parts)-1]] = value
	}
	return m
}

// TestLineHandlerEscapes: text a peer chose reaches the log line escaped,
// in a value as in a message, and levels and groups are written as the
// format says.
func TestLineHandlerEscapes(t *testing.T) {
	var buf bytes.Buffer
	log := newLineLogger(&buf, "coordinator", slog.LevelDebug)
	name := "evil\x1b]0;owned\x07\x1b[2J"
	log.Warn("ALARM: worker banned", "worker", name, "reason", "it lied\n", "blocks", 3)
	log.WithGroup("run").Info("resuming\x1b[1m", "id", "n16-ebb", "done", 64)
	log.Debug("block done", "err", errors.New("a b"))
	want := `nqueens: coordinator: warning: ALARM: worker banned worker="evil\x1b]0;owned\a\x1b[2J" reason="it lied\n" blocks=3
nqueens: coordinator: resuming\x1b[1m run.id=n16-ebb run.done=64
nqueens: coordinator: debug: block done err="a b"
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	if strings.ContainsAny(buf.String(), "\x1b\x07") {
		t.Error("a control character reached the log")
	}
	if got := escapeText("name \x1b[31mred\xff"); got != `name \x1b[31mred\xff` {
		t.Errorf("escapeText = %q", got)
	}
}
