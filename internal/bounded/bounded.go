// Package bounded reads the files nqueens is given (seal keys, ledgers,
// checkpoints, streams of boards) within a size limit that its error
// states, and stops when a context ends: a file that never ends
// (/dev/zero, a FIFO nobody writes to, a terminal) costs neither memory
// nor a process that ignores Ctrl-C.
package bounded

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/nqueens/nqueens/i18n"
)

// TooLargeError is a file longer than the most its kind can be.
type TooLargeError struct {
	Name  string // the file, as messages name it
	Key   string // the catalog key of its message, which says what the file holds: "error.toolarge.sealkey"
	Limit int64  // bytes
}

func (e *TooLargeError) Error() string { return e.Localize(i18n.For(i18n.English)) }

// Localize is the error in p's language.
func (e *TooLargeError) Localize(p *i18n.Printer) string {
	return p.T(e.Key, i18n.Args{"Name": e.Name, "Limit": Bytes(e.Limit)})
}

// Bytes writes a size in bytes as people read it: 4 KiB, 1 MiB, 1 GiB, or
// a number of bytes.
func Bytes(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// Open opens path for reading. A directory is refused; a FIFO waits for
// a writer only until ctx ends (opening one blocks until then).
func Open(ctx context.Context, path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, i18n.NewError("error.file.dir", i18n.Args{"Path": path})
	}
	if fi.Mode()&fs.ModeNamedPipe == 0 {
		return os.Open(path)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
		// The open goes on until a writer comes: close what it opens.
		go func() {
			if o := <-done; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// ReadFile reads the file at path, which holds what (such as "a seal
// key"), of at most limit bytes, and stops with ctx's error when ctx ends
// (see [NewReader]).
func ReadFile(ctx context.Context, path, key string, limit int64) ([]byte, error) {
	f, err := Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if fi.Mode().IsRegular() {
		if fi.Size() > limit {
			return nil, &TooLargeError{Name: path, Key: key, Limit: limit}
		}
		buf.Grow(int(fi.Size()) + bytes.MinRead) // one allocation, as os.ReadFile
	}
	_, err = buf.ReadFrom(NewReader(ctx, f, path, key, limit))
	return buf.Bytes(), err
}

// checkEvery is how many bytes a regular file gives between two looks at
// the context: a read from disk does not wait for long.
const checkEvery = 1 << 20

// NewReader returns a reader of r, named name in errors, that fails with a
// *[TooLargeError] past limit bytes (limit < 0: no limit) and with ctx's
// error once ctx ends. A regular file is read directly, ctx looked at
// every MiB (so that a small file, such as a seal key, is read whole even
// after Ctrl-C, by a command saving what it did); anything else (a pipe,
// a FIFO, a terminal, a device) is read on another goroutine, so that a
// read that waits returns as soon as ctx ends. Such a goroutine stays
// blocked until its read returns, which for a command that ends at once
// is no matter.
func NewReader(ctx context.Context, r io.Reader, name, key string, limit int64) io.Reader {
	b := &reader{ctx: ctx, r: r, name: name, key: key, limit: limit, waits: true}
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			b.waits = false
		}
	}
	return b
}

type reader struct {
	ctx       context.Context
	r         io.Reader
	name, key string
	limit     int64
	waits     bool        // reads may wait: they run on another goroutine
	n         int64       // bytes read
	unchecked int64       // bytes read since ctx was last looked at
	pending   chan result // the read in flight on another goroutine, if any
	buf       []byte
	err       error // once failed, always failed
}

type result struct {
	n   int
	err error
}

func (b *reader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.limit >= 0 && int64(len(p)) > b.limit-b.n+1 {
		p = p[:b.limit-b.n+1] // one byte past the limit tells a longer file
	}
	var n int
	var err error
	if b.waits {
		n, err = b.waitingRead(p)
	} else {
		if b.unchecked >= checkEvery {
			b.unchecked = 0
			if err := b.ctx.Err(); err != nil {
				b.err = err
				return 0, err
			}
		}
		n, err = b.r.Read(p)
		b.unchecked += int64(n)
	}
	b.n += int64(n)
	if b.limit >= 0 && b.n > b.limit {
		b.err = &TooLargeError{Name: b.name, Key: b.key, Limit: b.limit}
		return n - int(b.n-b.limit), b.err
	}
	if err != nil && !errors.Is(err, io.EOF) {
		b.err = err
	}
	return n, err
}

// waitingRead reads on another goroutine into a buffer of its own, copied
// to p, so that a read abandoned when ctx ends never writes into p.
func (b *reader) waitingRead(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	if b.pending == nil {
		if cap(b.buf) < len(p) {
			b.buf = make([]byte, len(p))
		}
		buf := b.buf[:len(p)]
		b.pending = make(chan result, 1)
		go func(done chan<- result) {
			n, err := b.r.Read(buf)
			done <- result{n, err}
		}(b.pending)
	}
	select {
	case <-b.ctx.Done():
		return 0, b.ctx.Err()
	case res := <-b.pending:
		b.pending = nil
		return copy(p, b.buf[:res.n]), res.err
	}
}
