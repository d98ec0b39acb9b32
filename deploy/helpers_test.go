// Package deploy tests the files in this folder against the real nqueens
// command: the Kubernetes manifests (decoded strictly into the API types,
// their arguments parsed by the command, the Indexed Job run shard by shard),
// the Dockerfile (its build stage carried out), and the NATS work queue
// across processes on a standalone nats-server with TLS and credentials.
// Slurm and GNU parallel are tried by scripts/cluster-test.sh, which also
// runs these tests.
//
// This is a module of its own so that the Kubernetes API packages stay out
// of the nqueens module; it imports no package of nqueens, and builds the
// command with the nqueens module's own go.mod.
package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// repoRoot is the nqueens repository: tests run in deploy/.
const repoRoot = ".."

// Programs built once, on first use, from the nqueens module.
var (
	buildDir  string
	buildMu   sync.Mutex
	built     = map[string]string{}
	buildErrs = map[string]error{}
)

// binary returns the path of a program built from package pkg of the
// nqueens module (its go.mod names the nats-server version too), building it
// the first time.
func binary(t *testing.T, name, pkg string) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if err := buildErrs[name]; err != nil {
		t.Fatal(err)
	}
	if path, ok := built[name]; ok {
		return path
	}
	path := filepath.Join(scratchLocked(t), name)
	cmd := exec.Command("go", "build", "-o", path, pkg)
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		buildErrs[name] = fmt.Errorf("building %s: %v\n%s", pkg, err, out)
		t.Fatal(buildErrs[name])
	}
	built[name] = path
	return path
}

// scratch returns a folder that lives as long as the test process, for what
// several tests share; TestMain removes it.
func scratch(t *testing.T) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	return scratchLocked(t)
}

func scratchLocked(t *testing.T) string {
	t.Helper()
	if buildDir == "" {
		d, err := os.MkdirTemp("", "nqueens-deploy-test-")
		if err != nil {
			t.Fatal(err)
		}
		buildDir = d
	}
	return buildDir
}

func nqueensBin(t *testing.T) string {
	return binary(t, "nqueens", "./cmd/nqueens")
}

// TestMain runs the tests, and the commands they start, in a
// configuration folder of their own, so that a seal key nqueens makes on
// first use is not the user's.
func TestMain(m *testing.M) {
	config, err := os.MkdirTemp("", "nqueens-deploy-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CONFIG_HOME", config)
	code := m.Run()
	os.RemoveAll(config)
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// result is a finished command.
type result struct {
	stdout, stderr string
	code           int
}

// run runs a program in dir with extra environment variables and returns its
// output and exit code; it fails the test if the program cannot start or
// runs past timeout.
func run(t *testing.T, timeout time.Duration, dir string, env []string, prog string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %s: still running after %s; stderr:\n%s", prog, strings.Join(args, " "), timeout, stderr.String())
	}
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", prog, err)
	}
	return r
}

// published is what nqueens prints for N, from the project's table of the
// published counts (OEIS A000170 and A002562). It is read as a file, so that
// this module needs nothing of nqueens but its files and its command.
func published(t *testing.T, n int) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "internal", "reference", "queens-counts.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, "\t")
		if len(f) == 3 && f[0] == strconv.Itoa(n) {
			return fmt.Sprintf("total %s\nunique %s\n", f[1], f[2])
		}
	}
	t.Fatalf("no published count for N = %d", n)
	return ""
}
