package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testkit"
)

// TestClosedPipe: every command whose reader goes away (| head -c 10)
// ends quietly with exit status 0 (list exited 0, solve, count, trace,
// estimate, verify and show were killed by SIGPIPE: 141).
func TestClosedPipe(t *testing.T) {
	bin := testkit.BuildBinary(t)
	boards := filepath.Join(t.TempDir(), "boards.txt")
	if err := os.WriteFile(boards, []byte(strings.Repeat("2 4 1 3\n", 300_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"solve", "1000000"},
		{"solve", "100000", "--random"},
		{"list", "12"},
		{"list", "9", "--torus"},
		{"count", "--range", "1-14"},
		{"trace", "10"},
		{"verify", boards},
		{"show", boards},
	} {
		cmd := exec.Command(bin, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		io.ReadFull(out, make([]byte, 10))
		out.Close()
		err = cmd.Wait()
		if code := cmd.ProcessState.ExitCode(); code != 0 || stderr.Len() != 0 {
			t.Errorf("%v | head -c 10: exit %d (%v), stderr %q; want 0 and nothing", args, code, err, stderr.String())
		}
	}
}
