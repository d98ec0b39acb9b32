package bounded

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// receive waits for c, failing the test after a minute (testkit, which
// has its own, imports seal, which imports this package).
func receive(t *testing.T, what string, c <-chan error) error {
	t.Helper()
	select {
	case err := <-c:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("waited a minute for %s", what)
		return nil
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("hello\n"), 0o600)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, bytes.Repeat([]byte("x"), 5000), 0o600)
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		path string
		want string // the data, or a part of the error
	}{
		{"small", ctx, small, "hello\n"},
		// A command that saves its work after Ctrl-C still reads its key.
		{"small after the end", cancelled, small, "hello\n"},
		{"exactly the limit", ctx, big, "5000"},
		{"past the limit", ctx, big, big + " is larger than 4 KiB, the most a file can be"},
		{"endless", ctx, "/dev/zero", "/dev/zero is larger than 4 KiB, the most a file can be"},
		{"a directory", ctx, dir, dir + " is a directory, not a file"},
		{"missing", ctx, filepath.Join(dir, "none"), "no such file"},
	} {
		limit := int64(4096)
		if tc.want == "5000" {
			limit, tc.want = 5000, strings.Repeat("x", 5000)
		}
		got, err := ReadFile(tc.ctx, tc.path, "error.toolarge.file", limit)
		if err != nil {
			got = []byte(err.Error())
		}
		if tc.want != string(got) && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: got %.80q, want %.80q", tc.name, got, tc.want)
		}
		var tl *TooLargeError
		if strings.Contains(tc.want, "larger") && !errors.As(err, &tl) {
			t.Errorf("%s: %v is no *TooLargeError", tc.name, err)
		}
	}
}

// TestLargeFileStops: a regular file read after ctx ended stops within a
// MiB, and a file larger than its limit is refused by its size before a
// byte is read.
func TestLargeFileStops(t *testing.T) {
	path := filepath.Join(t.TempDir(), "large")
	if err := os.WriteFile(path, make([]byte, 8<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n, err := io.Copy(io.Discard, NewReader(ctx, f, path, "error.toolarge.file", -1))
	if !errors.Is(err, context.Canceled) || n > checkEvery+64<<10 {
		t.Fatalf("read %d bytes after the end, then %v; want at most a MiB, then context.Canceled", n, err)
	}
}

// TestFIFO: a FIFO nobody opens for writing, and one whose writer sends
// nothing, hold a read only until the context ends.
func TestFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(ctx, path, "error.toolarge.file", 4096)
		done <- err
	}()
	cancel()
	if err := receive(t, "the open of a FIFO without a writer to end", done); !errors.Is(err, context.Canceled) {
		t.Fatalf("open of a FIFO without a writer: %v, want context.Canceled", err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_, err := ReadFile(ctx, path, "error.toolarge.file", 4096)
		done <- err
	}()
	w, err := os.OpenFile(path, os.O_WRONLY, 0) // waits for the reader
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.Write([]byte("part of a key"))
	cancel()
	if err := receive(t, "the read of a silent FIFO to end", done); !errors.Is(err, context.Canceled) {
		t.Fatalf("read of a FIFO whose writer is silent: %v, want context.Canceled", err)
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{4096: "4 KiB", 1 << 20: "1 MiB", 256 << 20: "256 MiB", 1 << 30: "1 GiB", 1000: "1000 bytes", 1025: "1025 bytes"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
