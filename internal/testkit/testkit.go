// Package testkit gathers what the project's tests share, in one place as
// Go's internal/testenv does: golden files and their -update flag, waiting
// for a condition, a free loopback port, the nqueens command built for a
// test and its processes, and the results of every unit of a count.
//
// It is for tests only and imports nothing from the project but two
// leaves, internal/syncbuf and seal, so that the tests of every package,
// count's own included, can use it.
package testkit

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/nqueens/nqueens/seal"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ (and the tables that tests keep in docs/)")

// Update reports whether the tests run with -update: golden files and
// the generated parts of docs are rewritten instead of compared.
func Update() bool { return *update }

// Golden compares got with the file at path (relative to the package's
// folder, such as testdata/x.txt); with -update it writes got there first,
// creating the folders.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	path = filepath.FromSlash(path)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	if utf8.Valid(got) && utf8.Valid(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\ngot:\n%s\nwant:\n%s", path, got, want)
	} else {
		t.Errorf("output differs from %s (go test -update rewrites it): %d bytes, want %d", path, len(got), len(want))
	}
}

// WaitLimit bounds every wait of [WaitFor] on an idle machine, times
// [Patience] on a loaded one: a condition that has not held after a minute
// of an idle machine is a hang, so no test's outcome depends on this
// number, only how soon a hang is reported.
const WaitLimit = time.Minute

// WaitFor polls cond every few milliseconds until it holds, and fails the
// test if it does not hold within [WaitLimit]. what names the condition in
// the failure.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	limit := Patient(WaitLimit)
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up after %s waiting for %s", limit.Round(time.Second), what)
		}
		time.Sleep(5 * time.Millisecond) // polling: each turn checks, none guesses
	}
}

// Receive waits for a value from c, and fails the test if none comes
// within [WaitLimit]. what names the value in the failure.
func Receive[T any](t testing.TB, what string, c <-chan T) T {
	t.Helper()
	limit := Patient(WaitLimit)
	select {
	case v := <-c:
		return v
	case <-time.After(limit):
		t.Fatalf("gave up after %s waiting for %s", limit.Round(time.Second), what)
		var zero T
		return zero
	}
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago,
// for a process under test that must be told its address.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// The commands built by BuildBinary, once per set of build tags and test
// binary, in a folder that Run removes.
var (
	buildMu  sync.Mutex
	buildDir string
	builds   = map[string]string{} // package and tags → path
)

// BuildBinary builds the nqueens command with the given build tags (such
// as nqueens_faults, see internal/faults) and returns its path. The first
// call for a set of tags builds it (a few seconds); later calls in the
// same test binary reuse it. With -short it skips the test: tests of the
// command as a process are left to the full suite. A package whose tests call it runs them with
// func TestMain(m *testing.M) { os.Exit(testkit.Run(m)) }, so that the build
// is removed at the end.
func BuildBinary(t testing.TB, tags ...string) string {
	t.Helper()
	return buildPackage(t, "nqueens", "github.com/nqueens/nqueens/cmd/nqueens", tags...)
}

// buildPackage builds the command of package pkg with the given tags once
// per test binary, as BuildBinary describes, and returns its path.
func buildPackage(t testing.TB, name, pkg string, tags ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the nqueens command and runs it as a process (-short)")
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	key := pkg + " " + strings.Join(tags, ",")
	if path, ok := builds[key]; ok {
		return path
	}
	if buildDir == "" {
		dir, err := os.MkdirTemp("", "nqueens-testkit-")
		if err != nil {
			t.Fatal(err)
		}
		buildDir = dir
	}
	path := filepath.Join(buildDir, fmt.Sprintf("%s-%d", name, len(builds)))
	args := []string{"build", "-o", path}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	args = append(args, pkg)
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	builds[key] = path
	return path
}

// PeakRSS runs the command bin with args as a process, through a small
// runner (internal/testkit/peakrss) that reads the process's own peak
// resident size: read here, it would include this test binary's size. It
// returns the combined output, the exit status and the peak in kilobytes.
func PeakRSS(t testing.TB, bin string, args ...string) (out []byte, code int, kB int64) {
	t.Helper()
	runner := buildPackage(t, "peakrss", "github.com/nqueens/nqueens/internal/testkit/peakrss")
	file := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command(runner, append([]string{file, bin}, args...)...)
	out, _ = cmd.CombinedOutput()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%s %v: no peak size (%v): %s", bin, args, err, out)
	}
	if _, err := fmt.Sscan(string(data), &kB); err != nil {
		t.Fatalf("peakrss wrote %q: %v", data, err)
	}
	return out, cmd.ProcessState.ExitCode(), kB
}

// Run runs the tests in a configuration folder of their own
// (XDG_CONFIG_HOME, inherited by the processes they start), so that the
// seal key they make and share ([UserKey]) is not the user's; it removes
// that folder and what [BuildBinary] built, and returns the exit code for
// os.Exit.
func Run(m *testing.M) int {
	config, err := os.MkdirTemp("", "nqueens-testkit-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Setenv("XDG_CONFIG_HOME", config)
	code := m.Run()
	os.RemoveAll(config)
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	return code
}

// UserKey is the seal key of the user the tests run as (one of their
// own under [Run]): the key the commands they start use by default.
func UserKey(t testing.TB) *seal.Key {
	t.Helper()
	k, _, err := seal.Default(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// AllUnits returns the result of every unit of a count of N, searched one
// by one: units is count.Units and unit is count.CountUnit (passed in, so
// that count's own tests can use this kit).
func AllUnits[R any](t testing.TB, n int, units func(int) int, unit func(context.Context, int, int) (R, error)) []R {
	t.Helper()
	out := make([]R, units(n))
	for i := range out {
		r, err := unit(context.Background(), n, i)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = r
	}
	return out
}
