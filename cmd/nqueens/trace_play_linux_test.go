//go:build linux

package main

import (
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// setSize gives the terminal a window of cols×rows.
func setSize(t *testing.T, fd uintptr, cols, rows uint16) {
	t.Helper()
	ws := struct{ rows, cols, x, y uint16 }{rows, cols, 0, 0}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws))); e != 0 {
		t.Skipf("TIOCSWINSZ: %v", e)
	}
}

// TestPlayOnTerminal: --play draws on a real terminal of 80×24, and refuses
// one the board does not fit, saying the size it needs.
func TestPlayOnTerminal(t *testing.T) {
	tty, _ := openTerminal(t)
	setSize(t, tty.Fd(), 80, 24)
	var errOut strings.Builder
	if code := run([]string{"trace", "4", "--play", "--speed", "1000", "--limit", "3"}, strings.NewReader(""), tty, &errOut); code != 0 {
		t.Errorf("80×24: exit %d, %s", code, errOut.String())
	}
	setSize(t, tty.Fd(), 40, 10)
	errOut.Reset()
	code := run([]string{"trace", "8", "--play", "--limit", "3"}, strings.NewReader(""), tty, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), "at least 8 columns wide and 11 lines tall, and this one is 40×10") {
		t.Errorf("40×10: exit %d, %s", code, errOut.String())
	}
}
