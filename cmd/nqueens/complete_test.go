package main

import (
	"strings"
	"testing"
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
		{"format flag", "2 0 0 0\n", []string{"complete", "--input-format", "list", "-f", "json"}, `{"n":4,"queens":[2,4,1,3]}` + "\n", 0, ""},
		{"dots with a blocked square", ".x..\n....\n....\n....\n", []string{"complete", "-f", "list"}, "3 1 4 2\n", 0, ""},
		{"no completion", "1 0 0 0\n", []string{"complete", "--input-format", "list"}, "no completion exists\n", 0, ""},
		{"no completion json", "1 0 0 0\n", []string{"complete", "--input-format", "list", "--json"}, `{"exists":false,"n":4}` + "\n", 0, ""},
		{"count", "0 0 0 0 0 0 0 0\n", []string{"complete", "--input-format", "list", "--count"}, "92\n", 0, ""},
		{"count json", "1 0 0 0 0 0 0 0\n", []string{"complete", "--input-format", "list", "--count", "--json"}, `{"completions":4,"n":8}` + "\n", 0, ""},
		{"all", "0 0 0 0\n", []string{"complete", "--input-format", "list", "--all", "-f", "list"}, "2 4 1 3\n3 1 4 2\n", 0, ""},
		{"all limit", "0 0 0 0 0 0\n", []string{"complete", "--input-format", "list", "--all", "--limit", "1", "-f", "list"}, "2 4 6 1 3 5\n", 0, ""},
		{"all dots headers", "0 0 0 0\n", []string{"complete", "--input-format", "list", "--all", "-f", "dots"},
			"# solution 1\n.Q..\n...Q\nQ...\n..Q.\n# solution 2\n..Q.\nQ...\n...Q\n.Q..\n", 0, ""},
		{"attacking queens", "1 2 0 0\n", []string{"complete", "--input-format", "list"}, "", 1, "row 1, column 1 and row 2, column 2"},
		{"queen on blocked square", `{"queens":[2,0,0,0],"blocked":[[1,2]]}` + "\n", []string{"complete"}, "", 1, "row 1, column 2"},
		{"count and all", "0 0 0 0\n", []string{"complete", "--count", "--all"}, "", 2, "cannot be used together"},
		{"all as pictures", "0 0 0 0\n", []string{"complete", "--all", "-f", "png"}, "", 2, "a png picture shows one"},
		{"limit without all", "0 0 0 0\n", []string{"complete", "--limit", "3"}, "", 2, "--limit needs --all"},
		{"malformed", "2 x 7\n", []string{"complete", "--input-format", "list"}, "", 1, "line 1"},
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
