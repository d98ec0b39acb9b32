package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/testkit"
)

// TestCLIGolden pins the output of the foundation commands.
func TestCLIGolden(t *testing.T) {
	tests := []struct {
		file, stdin string
		args        []string
	}{
		{"solve_8.txt", "", []string{"solve", "8"}},
		{"solve_8_unicode.txt", "", []string{"solve", "8", "--format", "unicode"}},
		{"solve_6_grid.txt", "", []string{"solve", "6", "-f", "grid"}},
		{"solve_10_json.txt", "", []string{"solve", "10", "--json"}},
		{"solve_12_random_seed7.txt", "", []string{"solve", "12", "--random", "--seed", "7"}},
		{"solve_8.svg", "", []string{"solve", "8", "-f", "svg"}},
		{"list_6.txt", "", []string{"list", "6"}},
		{"list_6_dots.txt", "", []string{"list", "6", "-f", "dots"}},
		{"list_8_unique_json.txt", "", []string{"list", "8", "--unique", "--json"}},
		{"list_10_limit3.txt", "", []string{"list", "10", "--limit", "3"}},
		{"verify_many.txt", "2 4 1 3\n\n.Q..\n...Q\nQ...\n.Q..\n\n{\"queens\":[2,4,0,3]}\n2 4 z 3\n", []string{"verify"}},
		{"verify_json.txt", "2 4 1 3\n1 2 3 4\n", []string{"verify", "--json"}},
		{"show_unicode.txt", "2 4 1 3\n", []string{"show"}},
		{"show_orbit.txt", "1 5 8 6 3 7 2 4\n", []string{"show", "--orbit", "-f", "list"}},
		{"show_rot90_dots.txt", "x.Q.\n....\n....\n....\n", []string{"show", "--transform", "rot90", "-f", "dots"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, out, _ := runCLIIn(tt.stdin, tt.args...)
			testkit.Golden(t, "testdata/cli/"+tt.file, []byte(out))
		})
	}
}

// TestSolveAsksForYes: solve asks for --yes before it writes a file over a
// gigabyte, by the size it would write (solve 2000000000 > FILE began a
// 20.9 GB file), and writes no file.
func TestSolveAsksForYes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	for _, args := range [][]string{{"solve", "200000000", "-o", path}, {"solve", "2000000000", "--random", "-o", path}} {
		code, out, errOut := runCLI(args...)
		if want := "solve " + args[1] + " writes "; code != 2 || out != "" || !strings.Contains(errOut, want) || !strings.Contains(errOut, " GB in the list format to a file; add --yes to write it") {
			t.Errorf("%v: exit %d, %q, %q; want 2 and the size it would write", args, code, out, errOut)
		}
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("solve that asked for --yes left %s: %v", path, err)
	}
}

// TestCLIErrors: every bad input gets one line on stderr and the right
// exit code, and nothing on stdout.
func TestCLIErrors(t *testing.T) {
	tests := []struct {
		stdin string
		args  []string
		code  int
		msg   string
	}{
		{"", []string{"solve", "abc"}, 2, `n must be a whole number written in digits, got "abc"`},
		{"", []string{"solve", "0"}, 2, "n = 0 is out of range for solve"},
		{"", []string{"solve", "-4"}, 2, "n = -4 is out of range for solve (1..1000000000)"},
		{"", []string{"count", "-1"}, 2, "n = -1 is out of range for count (1..64)"},
		{"", []string{"count", "-1", "--torus"}, 2, "n = -1 is out of range for count (1..64)"},
		{"", []string{"list", "--unique", "-3"}, 2, "n = -3 is out of range for list (1..64)"},
		{"", []string{"solve", "2000000000"}, 2, "n = 2000000000 is out of range for solve (1..1000000000); --random goes up to 2147483647"},
		{"", []string{"solve", "99999999999999999999"}, 2, "out of range for solve"},
		{"", []string{"solve", "3"}, 1, "no solution for n = 3"},
		{"", []string{"solve", "2", "--random"}, 1, "no solution for n = 2"},
		{"", []string{"solve", "8", "-f", "bmp"}, 2, `unknown format "bmp"`},
		{"", []string{"solve", "1001", "-f", "unicode"}, 2, "n = 1001 is out of range for the unicode format (1..1000); use list, json, svg or png"},
		{"", []string{"solve", "8", "--seed", "3"}, 2, "--seed goes with --random"},
		{"", []string{"solve"}, 2, "needs N"},
		{"", []string{"solve", "8", "9"}, 2, "needs N"},
		{"", []string{"list", "65"}, 2, "n = 65 is out of range for list (1..64)"},
		{"", []string{"list", "8", "-f", "png"}, 2, `format "png" is not available here`},
		{"", []string{"list", "8", "--limit", "-1"}, 2, "--limit must be 0 or more"},
		{"2 4 1\n", []string{"verify"}, 1, "the board is not a solution"},
		{"", []string{"verify"}, 1, "stdin: no board found"},
		{"", []string{"verify", "/nonexistent/boards.txt"}, 1, "no such file"},
		{"2 4 1 3\n", []string{"verify", "-f", "svg"}, 2, `format "svg" cannot be read`},
		{"2 4 1 3\n3 1 4 2\n", []string{"show", "-f", "png"}, 2, "more than one board"},
		{"2 4 1 3\n", []string{"show", "--transform", "rot45"}, 2, `unknown symmetry "rot45" (want one of identity, rot90, rot180, rot270, mirror-cols, mirror-rows, transpose, anti-transpose)`},
		{".Q.\n", []string{"show"}, 1, "line 1: row 1 has 3 squares but the board has 1 row; a board is square"},
		{"1 1\n", []string{"show", "--transform", "transpose"}, 1, "two queens share a column"},
		{"", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"", []string{"solve", "8", "--nope"}, 2, "unknown flag: --nope"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := runCLIIn(tt.stdin, tt.args...)
			if tt.args[0] == "verify" && code == 1 {
				out = "" // verify prints its verdicts on stdout before failing
			}
			if code != tt.code || out != "" || !strings.Contains(errOut, tt.msg) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stderr one line containing %q", code, out, errOut, tt.code, tt.msg)
			}
		})
	}
}

// TestSolveOutputIsValid: every solution solve prints verifies, for both
// methods and many sizes, read back through the parser.
func TestSolveOutputIsValid(t *testing.T) {
	for _, n := range []int{1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 20, 26, 27, 100, 1001, 12345} {
		for _, extra := range [][]string{nil, {"--random", "--seed", "5"}} {
			args := append([]string{"solve", itoa(n), "-f", "json"}, extra...)
			code, out, errOut := runCLI(args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			p, err := board.Parse(out, board.JSON)
			if err != nil || len(p) != n || board.Verify(p) != nil {
				t.Fatalf("%v: %v, %v", args, err, board.Verify(p))
			}
		}
	}
	// Different seeds give different boards, the same seed the same one.
	_, a, _ := runCLI("solve", "50", "--random", "--seed", "1")
	_, b, _ := runCLI("solve", "50", "--random", "--seed", "2")
	_, c, _ := runCLI("solve", "50", "--random", "--seed", "1")
	if a == b || a != c {
		t.Errorf("seeds: %q %q %q", a, b, c)
	}
}

// TestListAgreesWithReference: list prints exactly A000170 valid, distinct
// boards in lexicographic order, and --unique A002562 canonical ones.
func TestListAgreesWithReference(t *testing.T) {
	want := map[int][2]int{6: {4, 1}, 8: {92, 12}, 9: {352, 46}}
	for n, w := range want {
		for k, flag := range []string{"", "--unique"} {
			args := []string{"list", itoa(n)}
			if flag != "" {
				args = append(args, flag)
			}
			code, out, _ := runCLI(args...)
			if code != 0 {
				t.Fatal(args)
			}
			var prev board.Placement
			lines := strings.Split(strings.TrimSpace(out), "\n")
			for _, l := range lines {
				p, err := board.Parse(l, board.List)
				if err != nil || board.Verify(p) != nil || (prev != nil && !prev.Less(p)) {
					t.Fatalf("%v: bad or unordered line %q", args, l)
				}
				if flag != "" {
					if ok, _ := board.IsCanonical(p); !ok {
						t.Fatalf("%v: %v is not canonical", args, p)
					}
				}
				prev = p
			}
			if len(lines) != w[k] {
				t.Errorf("%v: %d boards, want %d", args, len(lines), w[k])
			}
		}
	}
}

// TestSolveToFile writes PNG and SVG files with -o.
func TestSolveToFile(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"png", "svg"} {
		path := filepath.Join(dir, "q."+f)
		if code, _, errOut := runCLI("solve", "20000", "--random", "-f", f, "-o", path); code != 0 {
			t.Fatal(errOut)
		}
		b, err := os.ReadFile(path)
		if err != nil || len(b) < 100 || len(b) > 4<<20 {
			t.Errorf("%s: %d bytes, %v", path, len(b), err)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestUsageErrors checks that every kind of bad usage exits 2 with the
// error on one line and typo suggestions on lines of their own.
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string // the whole of stderr
	}{
		{[]string{"help", "cuont"}, "nqueens: unknown help topic \"cuont\"\nDid you mean this?\n\tcount\n"},
		{[]string{"cuont", "5"}, "nqueens: unknown command \"cuont\" for \"nqueens\"\nDid you mean this?\n\tcount\n"},
		{[]string{"count", "5", "--wrokers", "2"}, "nqueens: unknown flag: --wrokers\nDid you mean this?\n\t--workers\n"},
		{[]string{"completion", "tcsh"}, "nqueens: unknown shell \"tcsh\" for completion (want bash, fish, powershell, zsh)\n"},
		{[]string{"completion"}, "nqueens: completion needs a shell: bash, fish, powershell, zsh\n"},
		{[]string{"count", "5", "--zzz"}, "nqueens: unknown flag: --zzz\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(tt.args...)
			if code != 2 || out != "" || errOut != tt.want {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, stderr %q", code, out, errOut, tt.want)
			}
		})
	}
	if code, out, _ := runCLI("--version"); code != 0 || !strings.HasPrefix(out, "nqueens ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	if code, out, _ := runCLI("help", "count"); code != 0 || !strings.Contains(out, "count prints the number of solutions") {
		t.Errorf("help count: exit %d, %q", code, out)
	}
}

// TestSolveRandomGuard: a random board that needs gigabytes is refused
// without --yes (exit 2 at once, naming its memory and time), and the
// help states the limit.
func TestSolveRandomGuard(t *testing.T) {
	code, out, errOut := runCLI("solve", "2147483647", "--random")
	want := regexp.MustCompile(`^nqueens: solve --random of 2147483647 queens needs about 11\.0 GB of memory and at least \S+; add --yes to start it \(--no-verify saves 1\.3 GB\)\n$`)
	if code != 2 || out != "" || !want.MatchString(errOut) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// Under the limit no estimate is made and nothing asks.
	if code, _, errOut := runCLI("solve", "100000", "--random", "-o", filepath.Join(t.TempDir(), "q.txt")); code != 0 || errOut != "" {
		t.Errorf("solve 100000 --random: exit %d, %q", code, errOut)
	}
	_, help, _ := runCLI("solve", "--help")
	if !strings.Contains(help, "up to 2147483647") || !strings.Contains(help, "more than 1 GiB (N over about 209 million)") {
		t.Errorf("solve --help does not state the limit:\n%s", help)
	}
	// The threshold in the help is the code's.
	o := &solveOptions{n: 209_000_000}
	if o.randomMemory() > bigRandom {
		t.Errorf("209 million queens need %d bytes, over the 1 GiB the help allows", o.randomMemory())
	}
	o.n = 210_000_000
	if o.randomMemory() <= bigRandom {
		t.Errorf("210 million queens need %d bytes, under the 1 GiB the help names", o.randomMemory())
	}
}

// TestFormatSeconds: long estimates read as numbers of years, in
// e-notation only past a million (4.74e+03 years came out for N = 30).
func TestFormatSeconds(t *testing.T) {
	const year = 365.25 * 24 * 3600
	for secs, want := range map[float64]string{
		1.5 * year: "1.5 years", 267 * year: "267 years", 4741 * year: "4740 years",
		16.3 * year: "16.3 years", 2.3e7 * year: "2.3e+07 years", 45: "45s",
	} {
		if got := estSecs(secs).Localize(i18n.For(i18n.English)); got != want {
			t.Errorf("estSecs(%g) = %q, want %q", secs, got, want)
		}
	}
}

// TestPlurals: one thing is singular ("over 1 work units", "the board has
// 1 rows" were printed).
func TestPlurals(t *testing.T) {
	if _, out, _ := runCLI("estimate", "1", "--probes", "10"); !strings.HasPrefix(out, "N = 1: 10 random probes over 1 work unit (") {
		t.Errorf("estimate 1: %q", out)
	}
	if _, _, errOut := runCLIIn(".Q.\n", "show"); !strings.Contains(errOut, "the board has 1 row;") {
		t.Errorf("show: %q", errOut)
	}
	for k, want := range map[int]string{0: "0 units", 1: "1 unit", 2: "2 units"} {
		if got := i18n.For(i18n.English).N("cli.n.units", k, nil); got != want {
			t.Errorf("cli.n.units(%d) = %q", k, got)
		}
	}
}

// TestOutputSize: the size solve's progress announces is that of the
// output, byte for byte, in list and json.
func TestOutputSize(t *testing.T) {
	for _, n := range []int{1, 4, 9, 10, 11, 99, 100, 1000, 12345} {
		for _, f := range []string{"list", "json"} {
			code, out, _ := runCLI("solve", strconv.Itoa(n), "--format", f)
			if want := outputSize(n, board.Format(f)); code != 0 || int64(len(out)) != want {
				t.Errorf("solve %d --format %s: exit %d, %d bytes; outputSize says %d", n, f, code, len(out), want)
			}
		}
	}
	if outputSize(8, board.Grid) != 0 {
		t.Error("the grid's size is not known in advance")
	}
}
