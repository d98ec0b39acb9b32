package reference

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The embedded copy must be the shared table, byte for byte.
func TestEmbeddedCopyMatchesShared(t *testing.T) {
	shared, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "reference", "queens-counts.tsv"))
	if errors.Is(err, fs.ErrNotExist) {
		// A checkout outside the workplace has no ../shared; TestLoad still
		// checks the embedded copy against the known values.
		t.Skipf("no shared table beside this checkout: %v", err)
	}
	if err != nil {
		t.Fatalf("shared reference table: %v", err)
	}
	if string(shared) != table {
		t.Fatal("internal/reference/queens-counts.tsv differs from ../shared/reference/queens-counts.tsv; copy it again")
	}
}

// sharedSHA256 pins the embedded table to the shared one where the shared
// one cannot be read.
const sharedSHA256 = "ee65f00e3164aa7d553b0ee0305bd7b11a42441634d6ea1914db18a32eedc976"

func TestEmbeddedChecksum(t *testing.T) {
	if got := fmt.Sprintf("%x", sha256.Sum256([]byte(table))); got != sharedSHA256 {
		t.Fatalf("embedded table has SHA-256 %s, want %s (the shared table's)", got, sharedSHA256)
	}
}

func TestLoad(t *testing.T) {
	rows, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 27 {
		t.Fatalf("got %d rows, want 27", len(rows))
	}
	if r := rows[8]; r.Total.Int64() != 92 || r.Unique.Int64() != 12 {
		t.Fatalf("n=8: got %v %v, want 92 12", r.Total, r.Unique)
	}
	if r := rows[27]; r.Total.String() != "234907967154122528" {
		t.Fatalf("n=27 total %v", r.Total)
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{"1\t2\n", "x\t1\t1\n", "3\t1\tz\n"} {
		if _, err := parse(strings.NewReader(bad), "t"); err == nil {
			t.Errorf("parse(%q) accepted malformed input", bad)
		}
	}
}
