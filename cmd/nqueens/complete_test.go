package main

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/complete"
)

func TestCompleteCommand(t *testing.T) {
	cases := []struct {
		name, stdin string
		args        []string
		want        string // exact stdout
		code        int
		stderr      string // substring of stderr
	}{
		{"list in, list out", "2 0 0 0\n", []string{"complete", "--input-format", "list"}, "2 4 1 3\n", 0, ""},
		{"format flag", "2 0 0 0\n", []string{"complete", "--input-format", "list", "-f", "json"}, `{"n":4,"exists":true,"queens":[2,4,1,3]}` + "\n", 0, ""},
		{"dots with a blocked square", ".x..\n....\n....\n....\n", []string{"complete", "-f", "list"}, "3 1 4 2\n", 0, ""},
		{"no completion", "1 0 0 0\n", []string{"complete", "--input-format", "list"}, "no completion exists\n", 0, ""},
		{"no completion in json", "1 0 0 0\n", []string{"complete", "-f", "json"}, `{"n":4,"exists":false}` + "\n", 0, ""}, // it printed the text line
		{"no completion json", "1 0 0 0\n", []string{"complete", "--input-format", "list", "--json"}, `{"n":4,"exists":false}` + "\n", 0, ""},
		{"count", "0 0 0 0 0 0 0 0\n", []string{"complete", "--input-format", "list", "--count"}, "92\n", 0, ""},
		{"count json", "1 0 0 0 0 0 0 0\n", []string{"complete", "--input-format", "list", "--count", "--json"}, `{"n":8,"exists":true,"completions":4}` + "\n", 0, ""},
		{"all", "0 0 0 0\n", []string{"complete", "--input-format", "list", "--all", "-f", "list"}, "2 4 1 3\n3 1 4 2\n", 0, ""},
		{"all limit", "0 0 0 0 0 0\n", []string{"complete", "--input-format", "list", "--all", "--limit", "1", "-f", "list"}, "2 4 6 1 3 5\n", 0, ""},
		{"all dots headers", "0 0 0 0\n", []string{"complete", "--input-format", "list", "--all", "-f", "dots"},
			"# solution 1\n.Q..\n...Q\nQ...\n..Q.\n# solution 2\n..Q.\nQ...\n...Q\n.Q..\n", 0, ""},
		{"attacking queens", "1 2 0 0\n", []string{"complete", "--input-format", "list"}, "", 1, "row 1, column 1 and row 2, column 2"},
		{"queen on blocked square", `{"queens":[2,0,0,0],"blocked":[[1,2]]}` + "\n", []string{"complete"}, "", 1, "row 1, column 2"},
		{"count and all", "0 0 0 0\n", []string{"complete", "--count", "--all"}, "", 2, "give --all or --count, not both"},
		{"all as pictures", "0 0 0 0\n", []string{"complete", "--all", "-f", "png"}, "", 2, "a png picture shows one"},
		{"limit without all", "0 0 0 0\n", []string{"complete", "--limit", "3"}, "", 2, "--limit needs --all"},
		{"malformed", "2 x 7\n", []string{"complete", "--input-format", "list"}, "", 1, "line 1"},
		{"answers in the input's format", "2 0 0 0\n", []string{"complete"}, "2 4 1 3\n", 0, ""},
		{"json in, json out", `{"queens":[0,0,0,2]}` + "\n", []string{"complete"}, `{"n":4,"exists":true,"queens":[3,1,4,2]}` + "\n", 0, ""},
		{"dots in, dots out", "..Q.\n....\n....\n....\n", []string{"complete"}, "..Q.\nQ...\n...Q\n.Q..\n", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCLIIn(c.stdin, c.args...)
			if code != c.code || (c.code == 0 && out != c.want) || !strings.Contains(errOut, c.stderr) {
				t.Errorf("got exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr containing %q",
					code, out, errOut, c.code, c.want, c.stderr)
			}
		})
	}
}

// zeros produces a list of n empty rows without holding it.
type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	k := 0
	for k+2 <= len(p) && z.n > 0 {
		p[k], p[k+1] = '0', ' '
		k, z.n = k+2, z.n-1
	}
	return k, nil
}

// TestCompleteRefusesHugeBoards: a board past the local search's limit is
// refused as soon as it is read, saying the limit and why, not searched for
// minutes.
func TestCompleteRefusesHugeBoards(t *testing.T) {
	var out, errOut strings.Builder
	code := run([]string{"complete", "--input-format", "list", "-f", "list"}, &zeros{complete.MaxLocalN + 1}, &out, &errOut)
	want := fmt.Sprintf("n = %d is out of range for completion by local search (1..%d, its memory and time grow with n", complete.MaxLocalN+1, complete.MaxLocalN)
	if code != 1 || out.Len() != 0 || !strings.Contains(errOut.String(), want) || strings.Contains(errOut.String(), "trying local search") {
		t.Errorf("exit %d, stdout %d bytes, stderr %q", code, out.Len(), errOut.String())
	}
}

// TestCompleteGuard: --count and --all of a board whose exact search would
// take over an hour are refused at once (exit 2) with the estimate, and an
// empty board points to count; a quick one starts without a word.
func TestCompleteGuard(t *testing.T) {
	empty := strings.Repeat("0 ", 32) + "\n"
	for _, flag := range []string{"--count", "--all"} {
		code, out, errOut := runCLIIn(empty, "complete", flag)
		want := regexp.MustCompile(`^nqueens: (counting|listing) the completions of this 32×32 board would take about [0-9.e+]+ years \([0-9.e+]+ ± [0-9.e+]+ nodes at [0-9.e+]+ nodes/s, for about [0-9.e+]+ completions; an estimate\); add --yes to start it`)
		if code != 2 || out != "" || !want.MatchString(errOut) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", flag, code, out, errOut)
		}
		if hint := "which nqueens count 32 counts far faster"; (flag == "--count") != strings.Contains(errOut, hint) {
			t.Errorf("%s: the hint to count is wrong in %q", flag, errOut)
		}
	}
	// --all --limit bounds the work itself.
	if code, out, errOut := runCLIIn(empty, "complete", "--all", "--limit", "1", "-f", "list"); code != 0 || strings.Count(out, "\n") != 1 || errOut != "" {
		t.Errorf("--all --limit 1: exit %d, %q, %q", code, out, errOut)
	}
	if code, out, errOut := runCLIIn("1 0 0 0 0 0 0 0 0 0\n", "complete", "--count"); code != 0 || out != "64\n" || errOut != "" {
		t.Errorf("a quick count: exit %d, %q, %q", code, out, errOut)
	}
}
