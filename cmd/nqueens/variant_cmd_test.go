package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/variant"
)

// The variants in the commands that make, list, check and draw boards:
// solve, list, verify and show with --torus, --super, --queens and --cols.

// TestVariantGolden pins the new output: rectangles in the board formats,
// the unique listing of a variant, solve's constructions, verify's JSON of
// a rectangle, show's orbit of one.
func TestVariantGolden(t *testing.T) {
	tests := []struct {
		file, stdin string
		args        []string
	}{
		{"variant_list_3_cols5_dots.txt", "", []string{"list", "3", "--cols", "5", "-f", "dots"}},
		{"variant_list_5_cols3_queens3_grid.txt", "", []string{"list", "5", "--cols", "3", "--queens", "3", "-f", "grid", "--limit", "4"}},
		{"variant_list_3_cols5_unique_json.txt", "", []string{"list", "3", "--cols", "5", "--unique", "--json"}},
		{"variant_list_10_super_unique_unicode.txt", "", []string{"list", "10", "--super", "--unique", "-f", "unicode"}},
		{"variant_list_7_torus_unique.txt", "", []string{"list", "7", "--torus", "--unique"}},
		{"variant_solve_11_torus_dots.txt", "", []string{"solve", "11", "--torus", "-f", "dots"}},
		{"variant_solve_6_cols9_queens4_json.txt", "", []string{"solve", "6", "--cols", "9", "--queens", "4", "--json"}},
		{"variant_solve_3_cols5.svg", "", []string{"solve", "3", "--cols", "5", "-f", "svg"}},
		{"variant_verify_cols5_json.txt", "1 3 5\n1 3 6\n1 2 0\n\nQ....\n..Q..\n", []string{"verify", "--cols", "5", "--json", "--partial"}},
		{"variant_show_cols5_orbit_dots.txt", "1 0 4\n", []string{"show", "--cols", "5", "--orbit", "-f", "dots"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, out, _ := runCLIIn(tt.stdin, tt.args...)
			testkit.Golden(t, "testdata/cli/"+tt.file, []byte(out))
		})
	}
}

// readPlacement reads the one board of a command's output, of cols
// columns, in format f.
func readPlacement(t *testing.T, out string, f board.Format, cols int) board.Placement {
	t.Helper()
	var got []board.Placement
	for rec, err := range board.ParseAllRect(strings.NewReader(out), f, cols) {
		if err != nil || rec.Err != nil {
			t.Fatalf("%q: %v, %v", out, err, rec.Err)
		}
		got = append(got, rec.Board.Queens)
	}
	if len(got) != 1 {
		t.Fatalf("%q: %d boards", out, len(got))
	}
	return got[0]
}

// TestSolveVariants: solve prints a valid placement of each variant that
// has one, in every format, and says why when there is none.
func TestSolveVariants(t *testing.T) {
	tests := []struct {
		args     []string
		spec     variant.Spec // the placement printed must be one of it
		code     int
		inStderr string
	}{
		{[]string{"11", "--torus"}, variant.Spec{Rows: 11, Torus: true}, 0, ""},
		{[]string{"61", "--torus", "--super"}, variant.Spec{Rows: 61, Torus: true, Piece: variant.Superqueen}, 0, ""},
		{[]string{"20", "--super"}, variant.Spec{Rows: 20, Piece: variant.Superqueen}, 0, ""},
		{[]string{"64", "--super"}, variant.Spec{Rows: 64, Piece: variant.Superqueen}, 0, ""},
		{[]string{"10", "--super"}, variant.Spec{Rows: 10, Piece: variant.Superqueen}, 0, ""},
		{[]string{"16", "--torus", "--queens", "14"}, variant.Spec{Rows: 16, Torus: true, Queens: 14}, 0, ""},
		{[]string{"6", "--cols", "9", "--queens", "4"}, variant.Spec{Rows: 6, Cols: 9, Queens: 4}, 0, ""},
		{[]string{"9", "--cols", "6", "--queens", "6"}, variant.Spec{Rows: 9, Cols: 6, Queens: 6}, 0, ""},
		{[]string{"2", "--cols", "3"}, variant.Spec{Rows: 2, Cols: 3}, 0, ""},
		{[]string{"12", "--torus"}, variant.Spec{}, 1, "there is no placement of 12 queens on a 12 × 12 torus: N queens fit on an N × N torus only when gcd(N, 6) = 1 (Pólya), and gcd(12, 6) = 6"},
		{[]string{"9", "--torus", "--super"}, variant.Spec{}, 1, "a superqueen is a queen too"},
		{[]string{"9", "--super"}, variant.Spec{}, 1, "there is no placement of 9 superqueens on a 9 × 9 board: a search through every placement ("},
		{[]string{"9", "--cols", "6"}, variant.Spec{}, 1, "at most 6 can"},
		{[]string{"8", "--queens", "9"}, variant.Spec{}, 1, "9 queens cannot stand on an 8 × 8 board"},
		{[]string{"8", "--torus", "--random"}, variant.Spec{}, 2, "give --random or --torus, not both"},
		{[]string{"8", "--super", "--seed", "2"}, variant.Spec{}, 2, "give --seed or --super, not both"},
		{[]string{"65", "--torus"}, variant.Spec{}, 2, "n = 65 is out of range for a variant (1..64)"},
		{[]string{"8", "--cols", "0"}, variant.Spec{}, 2, "--cols must be between 1 and 64"},
		{[]string{"8", "--torus", "--cols", "9"}, variant.Spec{}, 2, "--torus needs a square board"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			formats := []board.Format{board.List}
			if tt.code == 0 {
				formats = board.InputFormats
			}
			for _, f := range formats {
				code, out, errOut := runCLI(append([]string{"solve", "-f", string(f)}, tt.args...)...)
				if code != tt.code || !strings.Contains(errOut, tt.inStderr) {
					t.Fatalf("%s: exit %d, stderr %q; want exit %d, stderr with %q", f, code, errOut, tt.code, tt.inStderr)
				}
				if tt.code != 0 {
					if out != "" || strings.Count(errOut, "\n") != 1 {
						t.Errorf("stdout %q, stderr %q; want one line of stderr only", out, errOut)
					}
					continue
				}
				s := tt.spec.Normal()
				if p := readPlacement(t, out, f, s.Cols); variant.Verify(s, p) != nil {
					t.Errorf("%s: %v: %v", f, p, variant.Verify(s, p))
				}
			}
		})
	}
	// The plain problem named by the flags is solve's own construction.
	_, a, _ := runCLI("solve", "8", "--queens", "8")
	_, b, _ := runCLI("solve", "8")
	if a != b {
		t.Errorf("solve 8 --queens 8: %q, solve 8: %q", a, b)
	}
}

// TestSolveVariantSearch: a search that finds nothing in its first nodes
// estimates the whole and asks for --yes when that is long; one that is
// short searches on, and proves there is none; Ctrl-C stops it.
func TestSolveVariantSearch(t *testing.T) {
	defer func(b uint64) { searchBudget = b }(searchBudget)
	searchBudget = 1 << 14
	// 29 queens on a 30 × 30 torus: about 10^19 nodes.
	code, out, errOut := runCLI("solve", "30", "--torus", "--queens", "29")
	if code != 2 || out != "" || !strings.Contains(errOut, "no placement of 29 queens on a 30 × 30 torus in the first 16384 nodes of the search; going through the whole tree may take up to about") ||
		!strings.Contains(errOut, "add --yes to search on") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// 11 queens on a 12 × 12 torus: a short search, which finds none.
	code, out, errOut = runCLI("solve", "12", "--torus", "--queens", "11")
	if code != 1 || out != "" || !strings.Contains(errOut, "searching on (Ctrl-C stops it)") ||
		!strings.Contains(errOut, "there is no placement of 11 queens on a 12 × 12 torus: a search through every placement") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e bytes.Buffer
	code = runContext(stopped, []string{"solve", "30", "--torus", "--queens", "29", "--yes"}, strings.NewReader(""), &o, &e)
	if code != 130 || !strings.HasPrefix(e.String(), "nqueens: interrupted; the search for 29 queens on a 30 × 30 torus stopped after 16384 nodes, having found none\n") {
		t.Errorf("interrupted: exit %d, stderr %q", code, e.String())
	}
}

// uniqueOf reads the unique count that count prints.
var uniqueOf = regexp.MustCompile(`(?m)^unique (\d+)`)

// TestListUniqueVariants: list --unique of a variant prints one placement
// per class, as many as count's unique, with orbits adding up to count's
// total, in every format.
func TestListUniqueVariants(t *testing.T) {
	for _, args := range [][]string{
		{"10", "--super"}, {"7", "--torus"}, {"6", "--cols", "9", "--queens", "4"}, {"8", "--cols", "5", "--queens", "5"},
		{"5", "--torus", "--super", "--queens", "3"}, {"6", "--queens", "3"}, {"8", "--queens", "8"}, {"4", "--cols", "7"},
		{"1", "--cols", "3"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, counted, _ := runCLI(append([]string{"count", "--json"}, args...)...)
			var c struct {
				Total, Unique uint64
			}
			if code != 0 || json.Unmarshal([]byte(counted), &c) != nil {
				t.Fatalf("count: exit %d, %q", code, counted)
			}
			code, counted, _ = runCLI(append([]string{"count"}, args...)...)
			if m := uniqueOf.FindStringSubmatch(counted); code != 0 || m == nil || m[1] != strconv.FormatUint(c.Unique, 10) {
				t.Fatalf("count: exit %d, %q", code, counted)
			}
			_, lines, _ := runCLI(append([]string{"list", "--unique"}, args...)...)
			if got := strings.Count(lines, "\n"); uint64(got) != c.Unique {
				t.Errorf("list --unique: %d lines, count's unique %d", got, c.Unique)
			}
			_, js, _ := runCLI(append([]string{"list", "--unique", "--json"}, args...)...)
			var sum uint64
			for _, l := range strings.Fields(js) {
				var j struct{ Orbit uint64 }
				if err := json.Unmarshal([]byte(l), &j); err != nil || j.Orbit == 0 {
					t.Fatalf("%q: %v", l, err)
				}
				sum += j.Orbit
			}
			if sum != c.Total {
				t.Errorf("orbits add up to %d, count's total %d", sum, c.Total)
			}
			_, dots, _ := runCLI(append([]string{"list", "--unique", "-f", "dots"}, args...)...)
			if got := strings.Count(dots, "# solution "); uint64(got) != c.Unique {
				t.Errorf("dots: %d boards, count's unique %d", got, c.Unique)
			}
		})
	}
}

// TestVerifyVariantFlags: verify checks --cols and --queens, exactly or,
// with --partial, at most K; the output of list reads back valid.
func TestVerifyVariantFlags(t *testing.T) {
	tests := []struct {
		stdin string
		args  []string
		code  int
		out   string // in stdout
	}{
		{"1 3 5\n", []string{"--cols", "5"}, 0, "ok"},
		{"1 3 6\n", []string{"--cols", "5"}, 1, "character 5 (row 3): column 6 is out of range 1..5"},
		{"Q....\n..Q..\n....Q\n", []string{"--cols", "5"}, 0, "ok"},
		{`{"n":3,"cols":5,"queens":[1,3,5]}` + "\n", []string{"--cols", "5"}, 0, "ok"},
		{"1 0 5 0 2\n", []string{"--queens", "3"}, 0, "ok"},
		{"1 0 5 0 0\n", []string{"--queens", "3"}, 1, "the board has 2 pieces, not 3"},
		{"1 0 5 0 0\n", []string{"--queens", "3", "--partial"}, 0, "ok"},
		{"1 0 5 0 2\n", []string{"--queens", "2", "--partial"}, 1, "the board has 3 pieces, more than 2"},
		{"1 3 0\n", []string{"--cols", "5", "--super", "--partial"}, 1, "knight's move"},
		{"1 3 5\n", []string{"--cols", "5", "--torus"}, 1, "a toroidal board must be square, not 3 × 5"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " ")+" "+strings.TrimSpace(tt.stdin), func(t *testing.T) {
			code, out, _ := runCLIIn(tt.stdin, append([]string{"verify"}, tt.args...)...)
			if code != tt.code || !strings.Contains(out, tt.out) {
				t.Errorf("exit %d, stdout %q; want exit %d, stdout with %q", code, out, tt.code, tt.out)
			}
		})
	}
	for _, bad := range [][]string{{"--cols", "0"}, {"--cols", "65"}, {"--queens", "0"}} {
		if code, _, errOut := runCLIIn("1\n", append([]string{"verify"}, bad...)...); code != 2 || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, %q", bad, code, errOut)
		}
	}
	// Every placement list prints, in every format, verifies.
	for _, f := range []string{"list", "dots", "grid", "json"} {
		_, sols, _ := runCLI("list", "4", "--cols", "6", "--queens", "3", "-f", f)
		code, out, _ := runCLIIn(sols, "verify", "--cols", "6", "--queens", "3")
		if code != 0 || strings.Count(out, ": ok\n") != 172 {
			t.Errorf("%s: exit %d, %d ok, want 172 (count 4 --cols 6 --queens 3)", f, code, strings.Count(out, ": ok\n"))
		}
	}
	if _, c, _ := runCLI("count", "4", "--cols", "6", "--queens", "3"); !strings.HasPrefix(c, "total 172\n") {
		t.Errorf("count 4 --cols 6 --queens 3: %q", c)
	}
}

// TestVerifyVariantPastLimit: a board past the variants' 64 rows is an
// error by a variant's rules, never the plain board's verdict (verify
// --torus said ok to a 65-row solution of the plain board that is no
// solution on the torus).
func TestVerifyVariantPastLimit(t *testing.T) {
	_, sol, _ := runCLI("solve", "65")
	code, out, _ := runCLIIn(sol, "verify", "--torus")
	if code != 1 || !strings.Contains(out, "65 rows is out of range (1..64)") {
		t.Errorf("exit %d, %q", code, out)
	}
}

// TestShowVariants: show draws boards of M columns in every format, turns
// them only by a rectangle's symmetries, and notes a board that breaks the
// variant's rules, drawing it all the same.
func TestShowVariants(t *testing.T) {
	tests := []struct {
		stdin          string
		args           []string
		code           int
		stdout, stderr string // stdout exact unless empty; stderr contained
	}{
		{"1 3 5\n", []string{"--cols", "5", "-f", "dots"}, 0, "Q....\n..Q..\n....Q\n", ""},
		{"1 3 5\n", []string{"--cols", "5", "-f", "grid"}, 0, "10000\n00100\n00001\n", ""},
		{"1 3 5\n", []string{"--cols", "5", "--json"}, 0, `{"n":3,"cols":5,"queens":[1,3,5]}` + "\n", ""},
		{"1 3 5\n", []string{"--cols", "5", "--orbit", "-f", "list"}, 0, "1 3 5\n5 3 1\n", ""},
		{"1 0 4\n", []string{"--cols", "5", "--transform", "mirror-rows", "-f", "list"}, 0, "4 0 1\n", ""},
		{"1 3 5\n", []string{"--cols", "5", "--transform", "rot90"}, 1, "", "rot90 does not map a board of 3 rows and 5 columns onto itself"},
		{"2 4 1 3\n", []string{"--super", "-f", "list"}, 0, "2 4 1 3\n", "line 1: not a placement of 4 superqueens on a 4 × 4 board (drawn as given): superqueens at row 1, column 2 and row 2, column 4 attack each other by a knight's move"},
		{"1 3 5 2 4\n", []string{"--torus", "-f", "list"}, 0, "1 3 5 2 4\n", ""},
		{"1 3 5 7 2 4 6\n", []string{"--torus", "--super", "-f", "list"}, 0, "1 3 5 7 2 4 6\n", "knight's move"},
		{"1 0 4 0 2\n", []string{"--queens", "2", "-f", "list"}, 0, "1 0 4 0 2\n", "the board has 3 pieces, more than 2"},
		{"1 3 6\n", []string{"--cols", "5"}, 1, "", "column 6 is out of range 1..5"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " ")+" "+strings.TrimSpace(tt.stdin), func(t *testing.T) {
			code, out, errOut := runCLIIn(tt.stdin, append([]string{"show"}, tt.args...)...)
			if code != tt.code || (tt.stdout != "" && out != tt.stdout) || !strings.Contains(errOut, tt.stderr) || (tt.stderr == "" && errOut != "") {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr with %q", code, out, errOut, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
	// Every format, pictures included, draws 5 columns.
	for _, f := range board.Formats {
		code, out, errOut := runCLIIn("1 3 5\n", "show", "--cols", "5", "-f", string(f))
		want := map[board.Format]string{board.SVG: `width="304" height="208"`, board.PNG: "\x89PNG", board.Unicode: "♛ ■ □ ■ □\n"}[f]
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d, %q, %q", f, code, out, errOut)
		}
	}
}

func ExampleSpec_String() {
	fmt.Println(variant.Spec{Rows: 6, Cols: 9, Queens: 4})
	// Output: 4 queens on a 6 × 9 board
}

// TestCountTorusNoneFit: count N --torus answers 0 at once when gcd(N, 6)
// ≠ 1, by Pólya's rule: with a context that has already ended, it still
// answers (count 20 --torus searched for 14.7 s to print 0).
func TestCountTorusNoneFit(t *testing.T) {
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	code := runContext(ended, []string{"count", "20", "--torus"}, strings.NewReader(""), &out, &errOut)
	want := "total 0 (matches OEIS A051906 a(20))\nunique 0 (classes under the 8 symmetries of the square; turns of the torus not merged)\n"
	if code != 0 || out.String() != want || !strings.Contains(errOut.String(), "gcd(20, 6) = 2, so the count is 0") {
		t.Errorf("count 20 --torus: exit %d, stdout %q, stderr %q; want 0 and %q", code, out.String(), errOut.String(), want)
	}
}
