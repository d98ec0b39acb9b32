// Package reference loads the published counts of N-Queens solutions that
// tests check against: OEIS A000170 (all solutions) and A002562 (classes
// under the 8 symmetries), from a copy of shared/reference/queens-counts.tsv embedded
// in the binary.
package reference

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
)

// Row is one line of the table.
type Row struct {
	N      int
	Total  *big.Int
	Unique *big.Int
}

//go:embed queens-counts.tsv
var table string

// Load returns the table, keyed by n. The binary carries its own copy:
// package count checks every finished count against it (count.Known); the
// package's tests check that the copy equals
// ../shared/reference/queens-counts.tsv.
func Load() (map[int]Row, error) { return parse(strings.NewReader(table), "queens-counts.tsv") }

func parse(r io.Reader, path string) (map[int]Row, error) {
	rows := map[int]Row{}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: want 3 fields, got %d", path, line, len(fields))
		}
		n, err := strconv.Atoi(fields[0])
		total, ok1 := new(big.Int).SetString(fields[1], 10)
		unique, ok2 := new(big.Int).SetString(fields[2], 10)
		if err != nil || !ok1 || !ok2 {
			return nil, fmt.Errorf("%s:%d: malformed row %q", path, line, text)
		}
		rows[n] = Row{N: n, Total: total, Unique: unique}
	}
	return rows, sc.Err()
}

// Get returns the row for n, or false when the table has none.
func Get(n int) (Row, bool, error) {
	rows, err := Load()
	if err != nil {
		return Row{}, false, err
	}
	r, ok := rows[n]
	return r, ok, nil
}

// Check compares a count of N, its total and unique numbers written in
// decimal, with the table: nil when both match.
func Check(n int, total, unique string) error {
	row, ok, err := Get(n)
	switch {
	case err != nil:
		return err
	case !ok:
		return fmt.Errorf("the table has no row for N = %d", n)
	case total != row.Total.String() || unique != row.Unique.String():
		return fmt.Errorf("the count of N = %d is total %s unique %s, want %s %s", n, total, unique, row.Total, row.Unique)
	}
	return nil
}

// CheckOutput compares the output of a count of N, "total X\nunique Y\n"
// as nqueens prints it, with the table.
func CheckOutput(n int, stdout string) error {
	var total, unique string
	if _, err := fmt.Sscanf(stdout, "total %s\nunique %s\n", &total, &unique); err != nil {
		return fmt.Errorf("output %q is not a count: %v", stdout, err)
	}
	return Check(n, total, unique)
}
