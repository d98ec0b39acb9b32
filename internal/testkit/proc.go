package testkit

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/syncbuf"
)

// Proc is a process a test started with [Start]: its output is kept, and
// it is killed at the end of the test if it still runs.
type Proc struct {
	Name           string
	Cmd            *exec.Cmd
	Stdout, Stderr syncbuf.Buffer
	done           chan struct{}
	err            error
}

// Start runs bin with args; env adds variables to the test's. name says
// which process it is in messages; the stderr of every process is logged
// when the test fails.
func Start(t testing.TB, bin, name string, env []string, args ...string) *Proc {
	t.Helper()
	p := &Proc{Name: name, done: make(chan struct{})}
	p.Cmd = exec.Command(bin, args...)
	p.Cmd.Env = append(os.Environ(), env...)
	p.Cmd.Stdout, p.Cmd.Stderr = &p.Stdout, &p.Stderr
	if err := p.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.Cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("%s (%s) stderr:\n%s", p.Name, strings.Join(args, " "), p.Stderr.String())
		}
	})
	return p
}

// Kill sends SIGKILL to the process if it still runs.
func (p *Proc) Kill() {
	select {
	case <-p.done:
	default:
		_ = p.Cmd.Process.Kill()
	}
}

// Done reports whether the process has ended.
func (p *Proc) Done() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Wait waits up to WaitLimit (times [Patience]) for the process to end
// and returns its exit code.
func (p *Proc) Wait(t testing.TB) int {
	t.Helper()
	limit := Patient(WaitLimit)
	select {
	case <-p.done:
	case <-time.After(limit):
		t.Fatalf("%s still runs after %s; stderr:\n%s", p.Name, limit.Round(time.Second), p.Stderr.String())
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode()
	}
	if p.err != nil {
		t.Fatalf("%s: %v", p.Name, p.err)
	}
	return 0
}

// WaitMatch waits until the process's stderr matches re and returns the
// submatches.
func (p *Proc) WaitMatch(t testing.TB, re string) []string {
	t.Helper()
	rx := regexp.MustCompile(re)
	var m []string
	WaitFor(t, fmt.Sprintf("%s to log %q", p.Name, re), func() bool {
		m = rx.FindStringSubmatch(p.Stderr.String())
		return m != nil
	})
	return m
}

// StartFaulty runs the nqueens command built with the fault-injection
// hooks of internal/faults ([BuildBinary] with the tag nqueens_faults):
// under -short the build, and so the test, is skipped.
func StartFaulty(t testing.TB, name string, env []string, args ...string) *Proc {
	t.Helper()
	return Start(t, BuildBinary(t, "nqueens_faults"), name, env, args...)
}
