package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// Where a command's output goes and its input comes from.

// openOutput opens where a command's output goes: stdout for "" or "-";
// a regular file, new or replaced, through a temporary file beside it that
// commit renames to it once the output is complete and removes otherwise,
// so that no run that stopped early leaves a file that looks complete;
// anything else (a device such as /dev/null, a named pipe) is written
// directly, as renaming over it would replace it. commit(err) returns err,
// or the error of completing the file.
func (s *streams) openOutput(path string) (w io.Writer, commit func(error) error, err error) {
	if path == "" || path == "-" {
		return s.stdout, func(err error) error { return err }, nil
	}
	target := path
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return nil, nil, err
		}
		return f, func(err error) error {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return err
		}, nil
	} else if err == nil {
		// A link to a file: replace the file, not the link.
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return nil, nil, err
		}
	}
	pf, err := renameio.NewPendingFile(target, renameio.WithPermissions(0o666), renameio.WithTempDir(filepath.Dir(target)))
	if err != nil {
		return nil, nil, namedAs(err, path)
	}
	return namingWriter{pf, path}, func(err error) error {
		if err == nil {
			return namedAs(pf.CloseAtomicallyReplace(), path)
		}
		pf.Cleanup()
		return err
	}, nil
}

// namedAs is err of the temporary file behind -o PATH (or of renaming it)
// said of path, the name the user gave: "open /nonexistent/x.txt: no such
// file or directory", not of ".x.txt4612416902556787884".
func namedAs(err error, path string) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return &fs.PathError{Op: pe.Op, Path: path, Err: pe.Err}
	case errors.As(err, &le):
		return &fs.PathError{Op: "write", Path: path, Err: le.Err}
	}
	return err
}

// namingWriter writes to the temporary file behind -o PATH, its errors
// said of path.
type namingWriter struct {
	w    io.Writer
	path string
}

func (n namingWriter) Write(p []byte) (int, error) {
	k, err := n.w.Write(p)
	return k, namedAs(err, n.path)
}

// isPending reports whether openOutput writes path through a temporary
// file, which an interrupted command removes.
func isPending(path string) bool {
	if path == "" || path == "-" {
		return false
	}
	fi, err := os.Stat(path)
	return err != nil || fi.Mode().IsRegular()
}

// openInput returns stdin for "" or "-", else the named file.
func (s *streams) openInput(path string) (io.ReadCloser, string, error) {
	if path == "" || path == "-" {
		return io.NopCloser(s.stdin), "stdin", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	return f, path, nil
}
