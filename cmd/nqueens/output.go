package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/nqueens/nqueens/i18n"
	"golang.org/x/term"
)

// lockedWriter serialises writes: stderr is shared by the command, its
// progress view and log lines from other goroutines (nats.go's callbacks).
// While a progress bar is drawn, writes go to the bar's container, which
// prints them above the bar.
type lockedWriter struct {
	mu    sync.Mutex
	w     io.Writer
	above io.Writer // the progress bar's container, while it is drawn
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.above != nil {
		return l.above.Write(p)
	}
	return l.w.Write(p)
}

// divert sends further writes above a progress bar, through its container.
func (l *lockedWriter) divert(above io.Writer) {
	l.mu.Lock()
	l.above = above
	l.mu.Unlock()
}

// undivert runs wait (the bar's last drawing) with writes held back, then
// writes directly again.
func (l *lockedWriter) undivert(wait func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	wait()
	l.above = nil
}

// terminalOf returns the terminal behind w, looking through a lockedWriter,
// which it returns too; nil when w is no terminal.
func terminalOf(w io.Writer) (*os.File, *lockedWriter) {
	l, locked := w.(*lockedWriter)
	if locked {
		w = l.w
	}
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil, l
	}
	return f, l
}

// isTerminal reports whether w is a terminal, looking through a lockedWriter.
func isTerminal(w io.Writer) bool {
	f, _ := terminalOf(w)
	return f != nil
}

// writeJSONLine writes v as one line of JSON Lines.
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// checkWorkers validates a --workers value: 0 means every core.
func checkWorkers(w int) error {
	if w < 0 {
		return usageT("cli.workers", i18n.Args{"Value": strconv.Itoa(w)})
	}
	return nil
}

// workersOf resolves a --workers value to the number of goroutines used.
func workersOf(w int) int {
	if w > 0 {
		return w
	}
	return runtime.GOMAXPROCS(0)
}

// maxDuration stands for any time beyond what a time.Duration holds.
const maxDuration = time.Duration(math.MaxInt64)

// seconds converts to a Duration, saturating at maxDuration.
func seconds(s float64) time.Duration {
	if !(s < maxDuration.Seconds()) {
		return maxDuration
	}
	return time.Duration(s * float64(time.Second))
}

// threeDigits writes x ≥ 1 to three significant digits, in e-notation
// only from a million on: 267, 4740, 1.5e+07 (4.74e+03 read badly).
func threeDigits(x float64) string {
	if x >= 1e6 || x < 1 {
		return fmt.Sprintf("%.3g", x)
	}
	digits := int(math.Floor(math.Log10(x))) + 1
	scale := math.Pow(10, float64(3-digits))
	return strconv.FormatFloat(math.Round(x*scale)/scale, 'f', -1, 64)
}
