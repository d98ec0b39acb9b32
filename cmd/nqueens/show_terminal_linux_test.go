//go:build linux

package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/nqueens/nqueens/internal/syncbuf"
	"github.com/nqueens/nqueens/internal/testkit"
)

// openTerminal opens a pseudo-terminal and returns its terminal side, a
// real terminal for term.IsTerminal, and its other side.
func openTerminal(t *testing.T) (tty, pty *os.File) {
	t.Helper()
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { pty.Close() })
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, pty.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("unlockpt: %v", e)
	}
	var num uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, pty.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&num))); e != 0 {
		t.Skipf("ptsname: %v", e)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", num), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the terminal side: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty, pty
}

// TestPNGNotToTerminal: show and solve refuse to write a png to a
// terminal (exit 2, saying to use -o), but write it to a file or a pipe.
func TestPNGNotToTerminal(t *testing.T) {
	tty, _ := openTerminal(t)
	for _, args := range [][]string{{"show", "--format", "png"}, {"solve", "8", "--format", "png"}, {"solve", "8", "--random", "-f", "png"}} {
		var errOut strings.Builder
		code := run(args, strings.NewReader("2 4 1 3\n"), tty, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), "-o FILE") {
			t.Errorf("%v to a terminal: exit %d, stderr %q", args, code, errOut.String())
		}
		// The same command to a pipe writes the picture.
		code, out, _ := runCLIIn("2 4 1 3\n", args...)
		if code != 0 || !strings.HasPrefix(out, "\x89PNG") {
			t.Errorf("%v to a pipe: exit %d, %d bytes", args, code, len(out))
		}
		// And to a file named with -o, even with stdout on a terminal.
		path := t.TempDir() + "/b.png"
		if code := run(append(args, "-o", path), strings.NewReader("2 4 1 3\n"), tty, &errOut); code != 0 {
			t.Errorf("%v -o FILE: exit %d, %s", args, code, errOut.String())
		}
	}
	// Text formats still go to a terminal.
	if code := run([]string{"solve", "8"}, strings.NewReader(""), tty, os.Stderr); code != 0 {
		t.Errorf("solve 8 to a terminal: exit %d", code)
	}
}

// TestTypedInput: verify, show and complete reading a terminal say that
// they wait for typed boards and how to end them (they seemed to hang),
// and read what is typed.
func TestTypedInput(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		typed string
		want  string
	}{
		{[]string{"verify"}, "2 4 1 3\n", "ok\n"},
		{[]string{"show", "-f", "list"}, "2 4 1 3\n", "2 4 1 3\n"},
		{[]string{"complete", "-f", "list"}, "2 0 0 0\n", "2 4 1 3\n"},
	} {
		tty, pty := openTerminal(t)
		var out, errOut syncbuf.Buffer
		done := make(chan int, 1)
		go func() { done <- run(tc.args, tty, &out, &errOut) }()
		testkit.WaitFor(t, "the note", func() bool { return strings.Contains(errOut.String(), "reading boards from the terminal") })
		pty.Write([]byte(tc.typed + "\x04")) // Ctrl-D ends the input
		if code := testkit.Receive(t, "the exit code", done); code != 0 || out.String() != tc.want ||
			errOut.String() != "nqueens: reading boards from the terminal: type or paste them, then Ctrl-D (or give a FILE)\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, code, out.String(), errOut.String())
		}
	}
}
