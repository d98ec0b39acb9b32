package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/testkit"
)

// TestReadStopsWhenCancelled: verify, show and complete wait for a board on
// stdin; a pipe that never closes stands for a person at a terminal, and a
// cancelled context for Ctrl-C. The command must end at once with the
// context's error, not wait for the pipe.
func TestReadStopsWhenCancelled(t *testing.T) {
	for _, args := range [][]string{{"verify"}, {"show"}, {"complete"}, {"verify", "-"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			stdin, typing := io.Pipe()
			defer typing.Close()
			ctx, cancel := context.WithCancel(context.Background())
			root := newRootCmd(i18n.For(i18n.English))
			root.SetArgs(args)
			root.SetIn(stdin)
			var out, errOut bytes.Buffer
			root.SetOut(&out)
			root.SetErr(&errOut)
			done := make(chan error, 1)
			go func() { done <- root.ExecuteContext(ctx) }()
			// Half a line typed, then Ctrl-C.
			if _, err := typing.Write([]byte("2 4 ")); err != nil {
				t.Fatal(err)
			}
			cancel()
			if err := testkit.Receive(t, "the command to stop waiting for its input after Ctrl-C", done); !errors.Is(err, context.Canceled) || out.Len() != 0 {
				t.Errorf("err %v, stdout %q; want context.Canceled and no output", err, out.String())
			}
		})
	}
}

// TestReadDirectory: a directory is named as such, exit 1, not called a
// board that is not a solution.
func TestReadDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, cmd := range []string{"verify", "show", "complete"} {
		code, out, errOut := runCLI(cmd, dir)
		if code != 1 || out != "" || !strings.Contains(errOut, dir+" is a directory") || strings.Contains(errOut, "not a solution") {
			t.Errorf("%s DIR: exit %d, stdout %q, stderr %q", cmd, code, out, errOut)
		}
	}
}

// TestVerifyByteOrderMark: a board saved by Notepad, with a byte-order mark,
// verifies like any other.
func TestVerifyByteOrderMark(t *testing.T) {
	for _, text := range []string{"2 4 1 3\n", ".Q..\n...Q\nQ...\n..Q.\n", `{"queens":[2,4,1,3]}` + "\n", "0100\r\n0001\r\n1000\r\n0010\r\n"} {
		code, out, errOut := runCLIIn("\xef\xbb\xbf"+text, "verify")
		if code != 0 || out != "ok\n" {
			t.Errorf("%q: exit %d, %q, %q", text, code, out, errOut)
		}
	}
}

// TestVerifyJSONProblem: --json gives a problem in board's one JSON form,
// and a malformed board as malformed.
func TestVerifyJSONProblem(t *testing.T) {
	code, out, _ := runCLIIn("2 4 1 4\n2 x\n2 0 1 3\n", "verify", "--json", "--partial")
	want := `{"line":1,"n":4,"ok":false,"queens":4,"error":"queens at row 2, column 4 and row 4, column 4 attack each other on the same column","problem":{"kind":"same column","row":4,"col":4,"row2":2,"col2":4}}
{"line":2,"ok":false,"error":"malformed: character 3 (row 2): \"x\" is not a column number","malformed":true}
{"line":3,"n":4,"ok":true,"queens":3}
`
	if code != 1 || out != want {
		t.Errorf("exit %d, got\n%s\nwant\n%s", code, out, want)
	}
}

// TestEveryProblemKindReachable: each way a board can fail that the README
// names is what verify --json reports for some input ("column out of
// range" used to come out as malformed text, never as its kind).
func TestEveryProblemKindReachable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	para := regexp.MustCompile("(?s)Why a board fails has one name everywhere.*?`blocked square`").Find(readme)
	if para == nil {
		t.Fatal("README no longer lists the problem kinds where this test looks")
	}
	inputs := map[string][]string{
		"same column":         {"2 2 0 0", "--partial"},
		"same diagonal":       {"1 2 0 0", "--partial"},
		"same anti-diagonal":  {"1 3 2 4"},
		"empty row":           {"2 4 0 3"},
		"column out of range": {"2 4 1 5"},
		"blocked square":      {`{"queens":[2,0,0,0],"blocked":[[1,2]]}`, "--partial"},
	}
	for _, m := range regexp.MustCompile("`([a-z -]+)`").FindAllSubmatch(para, -1) {
		kind := string(m[1])
		if kind == "verify --json" || kind == "attack" {
			continue
		}
		in, ok := inputs[kind]
		if !ok {
			t.Errorf("README names %q, and no input here shows it", kind)
			continue
		}
		code, out, _ := runCLIIn(in[0]+"\n", append([]string{"verify", "--json"}, in[1:]...)...)
		var v struct {
			Problem struct{ Kind string } `json:"problem"`
		}
		if code != 1 || json.Unmarshal([]byte(out), &v) != nil || v.Problem.Kind != kind {
			t.Errorf("%q: exit %d, %s; want the problem %q", in[0], code, out, kind)
		}
	}
}

// TestInputEncoding: UTF-16 text gets a hint about its encoding (it was
// "not a column number"), and the byte-order mark of UTF-8 is skipped.
func TestInputEncoding(t *testing.T) {
	utf16 := "\xff\xfe2\x00 \x004\x00 \x001\x00 \x003\x00\n\x00"
	for _, args := range [][]string{{"verify"}, {"show"}, {"complete"}} {
		code, out, errOut := runCLIIn(utf16, args...)
		if code != 1 || out != "" || !strings.Contains(errOut, "stdin is UTF-16 text; nqueens reads UTF-8 (or ASCII): convert it first") {
			t.Errorf("%v of UTF-16: exit %d, %q, %q", args, code, out, errOut)
		}
	}
	if code, out, _ := runCLIIn("2\x00 \x004\x00\n\x00", "verify"); code != 1 || out != "" {
		t.Errorf("UTF-16 without a byte-order mark: exit %d, %q", code, out)
	}
	if code, out, errOut := runCLIIn("\xef\xbb\xbf2 4 1 3\n", "verify"); code != 0 || out != "ok\n" {
		t.Errorf("UTF-8 with a byte-order mark: exit %d, %q, %q", code, out, errOut)
	}
}
