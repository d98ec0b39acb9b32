package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testkit"
)

func TestCountVariants(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		stdout   string // exact, if not empty
		inStderr string
	}{
		{[]string{"count", "13", "--torus"}, 0, "total 4524 (matches OEIS A051906 a(13))\nunique 572 (classes under the 8 symmetries of the square; turns of the torus not merged)\n", ""},
		{[]string{"count", "11", "--super"}, 0, "total 44 (matches OEIS A051223 a(11))\nunique 6 (classes under the 8 symmetries of the square; matches OEIS A051224 a(11))\n", ""},
		{[]string{"count", "8", "--queens", "3"}, 0, "total 10320 (matches OEIS A047659 a(8))\n", ""},
		{[]string{"count", "6", "--cols", "9"}, 0, "total 2292 (matches OEIS A269133 T(9, 6))\n", ""},
		{[]string{"count", "9", "--cols", "6", "--queens", "6"}, 0, "total 2292 (matches OEIS A269133 T(9, 6))\n", ""},
		{[]string{"count", "8", "--queens", "8"}, 0, "total 92\nunique 12\n", ""}, // the plain problem, by count's engine
		{[]string{"count", "8", "--queens", "9"}, 0, "total 0\n", "at most 8 can"},
		{[]string{"count", "9", "--cols", "6"}, 0, "total 0\n", "at most 6 can"},
		{[]string{"count", "7", "--torus", "--super", "--queens", "3"}, 0, "total 588\n", ""},
		{[]string{"count", "30", "--torus", "--queens", "2"}, 0, "total 352800 (OEIS A172517 a(30), no published term to check)\n", ""},
		{[]string{"count", "8", "--cols", "0"}, 2, "", "--cols must be between 1 and 64"},
		{[]string{"count", "8", "--queens", "0"}, 2, "", "--queens must be 1 or more"},
		{[]string{"count", "8", "--torus", "--cols", "9"}, 2, "", "square"},
		{[]string{"count", "8", "--torus", "--range", "1-3"}, 2, "", "not both"},
		{[]string{"count", "8", "--super", "--algo", "bitmask"}, 2, "", "not both"},
		{[]string{"dominate", "8", "--count"}, 0, "", ""},
		{[]string{"dominate", "14", "--count"}, 2, "", "within reach up to N = 13"},
		{[]string{"dominate", "0"}, 2, "", "out of range"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(tt.args...)
			if code != tt.code || (tt.stdout != "" && !strings.HasPrefix(out, tt.stdout)) || !strings.Contains(errOut, tt.inStderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout starting %q, stderr containing %q",
					code, out, errOut, tt.code, tt.stdout, tt.inStderr)
			}
		})
	}
}

func TestCountVariantJSON(t *testing.T) {
	code, out, _ := runCLI("count", "10", "--super", "--json")
	var j map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil {
		t.Fatalf("exit %d, output %q", code, out)
	}
	want := map[string]any{"n": 10.0, "cols": 10.0, "queens": 10.0, "torus": false, "piece": "superqueen", "total": 4.0, "unique": 1.0,
		"symmetries": 8.0, "oeis": "A051223", "oeis_unique": "A051224", "reference": map[string]any{"total": 4.0, "unique": 1.0}, "matches": true}
	for k, v := range want {
		if !reflect.DeepEqual(j[k], v) {
			t.Errorf("%s = %v, want %v (%s)", k, j[k], v, out)
		}
	}
}

// TestCountVariantMismatch: a variant counted wrong (a fault build adds 8
// to every unit's total) is an error naming the published term, exit 1,
// and no number on stdout, as for the plain count. The API's count job
// fails the same way: the check is variant.Count's.
func TestCountVariantMismatch(t *testing.T) {
	p := testkit.StartFaulty(t, "count", []string{"NQUEENS_FAULT_ADD_TOTAL=8"}, "count", "7", "--torus", "--json")
	if code := p.Wait(t); code != 1 || p.Stdout.String() != "" ||
		!strings.Contains(p.Stderr.String(), "7 queens on a 7 × 7 torus: the total 60 does not match the published term 28 (OEIS A051906 a(7)); the result is wrong, and was not printed") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, p.Stdout.String(), p.Stderr.String())
	}
}

func TestDominate(t *testing.T) {
	code, out, errOut := runCLI("dominate", "5", "--count")
	want := "minimum 3 (matches OEIS A075458 a(5); no 2 queens dominate the board: exhaustive search)\n"
	if code != 0 || !strings.HasPrefix(out, want) || !strings.HasSuffix(out, "count 186 (matches OEIS A002564 a(5): every minimum arrangement, rotations and mirrors included)\n") {
		t.Errorf("exit %d, %q, %q", code, out, errOut)
	}
	if got := strings.Count(out, "Q"); got != 3 {
		t.Errorf("%d queens drawn:\n%s", got, out)
	}
	code, out, _ = runCLI("dominate", "12", "--independent", "--json")
	var j struct {
		N, Minimum int
		Queens     [][2]int
		Count      *uint64
	}
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j.N != 12 || j.Minimum != 7 || len(j.Queens) != 7 || j.Count != nil {
		t.Errorf("exit %d: %s", code, out)
	}
	if !strings.HasSuffix(out, `"reference":{"minimum":7,"count":840},"matches":true}`+"\n") {
		t.Errorf("no published terms checked: %s", out)
	}
	// Past exact reach: nothing proved to compare, the published minimum
	// said.
	code, out, _ = runCLI("dominate", "16", "--json")
	var top map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &top) != nil || top["minimum"] != nil || top["lower_bound"] != 8.0 ||
		!strings.HasSuffix(out, `"reference":{"minimum":9,"count":2968},"matches":null}`+"\n") {
		t.Errorf("exit %d: %s", code, out)
	}
	if code, out, _ = runCLI("dominate", "16"); code != 0 || !strings.Contains(out, "the published minimum is 9 (OEIS A075458 a(16))") {
		t.Errorf("exit %d: %s", code, out)
	}
}

func TestListVerifyVariants(t *testing.T) {
	code, out, _ := runCLI("list", "10", "--super")
	if code != 0 || out != "3 6 9 1 4 7 10 2 5 8\n4 8 1 5 9 2 6 10 3 7\n7 3 10 6 2 9 5 1 8 4\n8 5 2 10 7 4 1 9 6 3\n" {
		t.Errorf("list 10 --super: exit %d, %q", code, out)
	}
	code, out, _ = runCLI("list", "3", "--cols", "5")
	if code != 0 || strings.Count(out, "\n") != 14 {
		t.Errorf("list 3 --cols 5: exit %d, %q", code, out)
	}
	// A rectangle in a board format: 3 rows of 5 squares (it was refused,
	// the list format only).
	if code, out, _ := runCLI("list", "3", "--cols", "5", "--format", "dots", "--limit", "1"); code != 0 || out != "# solution 1\nQ....\n..Q..\n....Q\n" {
		t.Errorf("dots of a rectangle: exit %d, %q", code, out)
	}
	_, sols, _ := runCLI("list", "7", "--torus")
	if code, out, _ := runCLIIn(sols, "verify", "--torus"); code != 0 || strings.Count(out, "ok") != 28 {
		t.Errorf("verify --torus of list 7 --torus: exit %d, %q", code, out)
	}
	_, plain7, _ := runCLI("list", "7")
	if code, out, _ := runCLIIn(plain7, "verify", "--torus"); code != 1 || strings.Count(out, ": ok") != 28 || !strings.Contains(out, "diagonal") {
		t.Errorf("verify --torus of list 7: exit %d, %q", code, out)
	}
	if code, out, _ := runCLIIn("2 4 1 3\n", "verify", "--super"); code != 1 || !strings.Contains(out, "knight's move") {
		t.Errorf("verify --super 2 4 1 3: exit %d, %q", code, out)
	}
}
