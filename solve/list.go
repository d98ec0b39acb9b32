package solve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"time"

	"github.com/nqueens/nqueens/board"
)

// ListOptions say what a listing holds and how it runs. The zero value
// lists every solution on every core.
type ListOptions struct {
	// Unique lists one solution per class under the 8 symmetries of the
	// square: the canonical one, the smallest of its orbit, with the
	// orbit's size (OEIS A002562), as [Unique] does.
	Unique bool
	// Workers is the number of goroutines that search; 0 means
	// runtime.GOMAXPROCS(0), and more than 4 per core count as 4 per core
	// (each holds up to about a megabyte of text ahead of the consumer).
	// The order is the same for every value.
	Workers int
	// Limit stops the listing after this many solutions; 0 means all.
	Limit uint64
	// Progress, if set, is called from the goroutine that consumes the
	// listing (the one that called [WriteList], [ListEach] or ranged
	// over [List]) about ten times a second, and once at the end.
	Progress func(ListProgress)
}

// ListProgress is how far a listing has gone. The search is split into
// Parts, prefixes of the first rows in lexicographic order, of very
// different sizes.
type ListProgress struct {
	Solutions uint64 // delivered so far (written, or passed to the caller)
	PartsDone int    // parts delivered whole
	Parts     int
	Elapsed   time.Duration
}

// ListResult says what a listing delivered.
type ListResult struct {
	Solutions uint64 // solutions delivered (written, or passed to the caller)
	Bytes     uint64 // bytes written by [WriteList]
}

// Listed is one solution of a listing: its board and, when the listing
// has Unique, the size of its symmetry class (1, 2, 4 or 8), else 0.
type Listed struct {
	Board board.Placement
	Orbit int
}

// List yields the solutions of the n×n board in lexicographic order of
// their column lists, exactly as [All] (or, with opts.Unique, [Unique])
// does, but searched by opts.Workers goroutines underneath: parts of the
// search (prefixes of the first rows) run in parallel and are delivered in
// order, with a bounded window of finished parts held in memory (a few
// megabytes whatever n, and for every solution of n ≤ 16 up to 48 MB of
// the left half's completions, whose mirror images are the right half). Each yielded board is a fresh copy the caller may
// keep; breaking the loop stops the search. An n out of range, or ctx
// ending, is the last pair, with its error.
//
// Cost: the search, about 3·10⁸ nodes at n = 16 (all solutions) on all
// workers, plus an allocation per solution; [ListEach] avoids the
// allocation and [WriteList] formats on the workers too.
func List(ctx context.Context, n int, opts ListOptions) iter.Seq2[Listed, error] {
	return func(yield func(Listed, error) bool) {
		stopped := false
		err := ListEach(ctx, n, opts, func(p board.Placement, orbit int) error {
			if !yield(Listed{Board: p.Clone(), Orbit: orbit}, nil) {
				stopped = true
				return errBreak
			}
			return nil
		})
		if err != nil && !stopped {
			yield(Listed{}, err)
		}
	}
}

// errBreak stops a listing from inside its callback.
var errBreak = errors.New("solve: the caller stopped the listing")

// ListEach calls fn with every solution in the order of [List], from the
// calling goroutine, while opts.Workers goroutines search ahead; orbit is
// the class size with opts.Unique, else 0. p is reused for the next call:
// clone it to keep it. An error from fn stops the listing and is returned,
// as is ctx's error; the result is nil when every solution (or
// opts.Limit of them) was passed. Cost: as List, without an allocation per
// solution: the fastest way to see every solution from Go.
func ListEach(ctx context.Context, n int, opts ListOptions, fn func(p board.Placement, orbit int) error) error {
	if err := CheckEnumerateN(n); err != nil {
		return err
	}
	l := newListing(n, opts, kindRaw, nil)
	p := make(board.Placement, n)
	_, err := l.run(ctx, func(c *chunk, take int) error {
		for i := range take {
			for r, col := range c.buf[i*n : (i+1)*n] {
				p[r] = int32(col)
			}
			orbit := 0
			if opts.Unique {
				orbit = int(c.orbits[i])
			}
			if err := fn(p, orbit); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, errBreak) {
		return nil
	}
	return err
}

// WriteList writes the solutions of the n×n board to w in format f (list,
// json, grid, dots or unicode), in the order of [List] and byte for byte
// as writing each with [board.Write] would: a list or JSON line per
// solution (JSON with "orbit" under opts.Unique), and in the board formats
// a line "# solution K" (or "# solution K (class of S)") before each
// board. The workers format the text, and w gets it in large writes, one
// per buffer of up to 256 KiB. It stops at the first error of w, which it
// returns; the result counts what was written.
//
// Cost: at n = 16 the search of half the board (the other half is its
// mirror image) and about 590 MB of list text; memory as for [List].
func WriteList(ctx context.Context, w io.Writer, n int, f board.Format, opts ListOptions) (ListResult, error) {
	if err := CheckEnumerateN(n); err != nil {
		return ListResult{}, err
	}
	switch f {
	case board.List, board.JSON, board.Grid, board.Dots, board.Unicode:
	default:
		return ListResult{}, fmt.Errorf("a listing cannot be written in the %s format (want list, json, grid, dots or unicode)", f)
	}
	if f.IsBoard() && n > board.MaxBoardN {
		return ListResult{}, fmt.Errorf("a board of %d rows is too large for the %s format (limit %d)", n, f, board.MaxBoardN)
	}
	t := newRowTable(n, f)
	l := newListing(n, opts, t.kind, t)
	var bytes uint64
	var out []byte // the board formats: headers and boards, joined
	var k uint64   // solutions written
	write := func(b []byte) error {
		m, err := w.Write(b)
		bytes += uint64(m)
		return err
	}
	res, err := l.run(ctx, func(c *chunk, take int) error {
		if t.kind == kindLines {
			end := len(c.buf)
			if take < c.count {
				end = lineEnd(c.buf, take)
			}
			k += uint64(take)
			return write(c.buf[:end])
		}
		start := 0
		for i := range take {
			orbit := 0
			if opts.Unique {
				orbit = int(c.orbits[i])
			}
			k++
			out = board.AppendHeader(out, k, orbit)
			out = append(out, c.buf[start:c.ends[i]]...)
			start = int(c.ends[i])
			if len(out) >= chunkSize {
				if err := write(out); err != nil {
					return err
				}
				out = out[:0]
			}
		}
		return nil
	})
	if len(out) > 0 && err == nil {
		err = write(out)
	}
	res.Bytes = bytes
	return res, err
}

// lineEnd returns where line k (0-based) of b ends, past its newline.
func lineEnd(b []byte, k int) int {
	i := 0
	for range k {
		for b[i] != '\n' {
			i++
		}
		i++
	}
	return i
}
