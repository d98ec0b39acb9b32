package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/cluster/queue"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
)

// latinWord is a run of Latin letters: an English word, unless the
// allow-list lets it stand in Chinese.
var latinWord = regexp.MustCompile(`[A-Za-z]+`)

// zhAllowed are the only runs of Latin letters the command line's Chinese
// may hold, besides the commands' and strategies' names (which the reader
// types), flags and file paths: symbols, units, proper names, and the
// placeholders of usage (FILE, A-B).
var zhAllowed = []string{"nqueens", "N", "n", "OEIS", "A", "B", "K", "M", "kB", "MB", "GB", "FILE", "OTHER", "HMAC", "SHA", "NKey",
	"ok", "Ctrl", "NAME", "DIR", "C", "JSON", "json", "list", "svg", "png", "stdin", "stdout", "stderr", "x",
	"text", "bash", "fish", "powershell", "zsh",
	"k", "G", "T", // 3.14G: the prefixes of SI
	"KiB", "MiB", "GiB", // a file's size limit
	"open", "stat", "mkdir", "remove", "rename", // the system's calls, which a file error names
	"chmod", // a command the reader runs
	"gcd", "Pólya",
	"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", // the variables of a cluster's array job
	// The help's: the values of a usage (URL, LEDGER, shard I/K), the
	// formats by the names --format takes, the systems, protocols, signals
	// and variables it names, the marks of a board (Q, x), the cost O(N),
	// the pseudocode's k·row mod N and the authors the literature cites.
	"URL", "LEDGER", "I", "grid", "dots", "unicode", "auto", "Lines",
	"NATS", "JetStream", "TLS", "CA", "JWT", "DNS", "UTF", "SIGTERM", "PATH", "GOMEMLIMIT", "ALARM", "WebAssembly",
	"Linux", "macOS", "Q", "O", "row", "mod", "Knuth", "Sosic", "Gu", "QS",
	"true", "false", "Go", // JSON's literals, the language
	"en", "zh", "LC_ALL", "LC_MESSAGES", "LANG"} // --lang's values and variables

// notWords are what the check leaves out of a line before it looks for
// words: flags, paths and file names, OEIS numbers, and what the user
// typed, quoted.
// The values of flags are echoed as given (--checkpoint-every -1s), and
// the help shows durations as Go writes them (1m0s).
var notWords = regexp.MustCompile(`--?[a-z][a-z0-9-]*|[^\s：；，（）]*[/.][^\s：；，（）]*|A\d{6}|"[^"]*"|-?\b(\d+h)?(\d+m)?\d+(ms|s|m|h)\b`)

// zhEnglishWords are the words of s that are not Chinese and not allowed.
func zhEnglishWords(s string) []string {
	allowed := slices.Concat(zhAllowed, classic.Names())
	for _, c := range newRootCmd(i18n.For(i18n.English)).Commands() {
		allowed = append(allowed, c.Name())
	}
	for _, name := range allowed {
		if latinWord.FindString(name) != name {
			s = strings.ReplaceAll(s, name, " ") // brute-combinations, Pólya
		}
	}
	var bad []string
	for _, w := range latinWord.FindAllString(notWords.ReplaceAllString(s, " "), -1) {
		if !slices.Contains(allowed, w) {
			bad = append(bad, w)
		}
	}
	return bad
}

// TestChineseMessages: with --lang zh or LANG=zh_CN.UTF-8, the messages
// that the main commands write on stderr (errors, notes, interruptions)
// hold no English word outside a short allow-list.
func TestChineseMessages(t *testing.T) {
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	unsealed := filepath.Join(dir, "old.json")
	if err := os.WriteFile(unsealed, []byte(`{"format":"x"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	openKey := filepath.Join(dir, "open.key") // others may read it
	badKey := filepath.Join(dir, "bad.key")   // 62 hex digits, not 64
	for path, mode := range map[string]os.FileMode{openKey: 0o644, badKey: 0o600} {
		if err := os.WriteFile(path, []byte(strings.Repeat("ab", 31)+"\n"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	bigKey := filepath.Join(dir, "big.key") // over the 4 KiB of a key file
	if err := os.WriteFile(bigKey, make([]byte, 5000), 0o600); err != nil {
		t.Fatal(err)
	}
	half := filepath.Join(dir, "half.jsonl") // shard 0/2 of N = 8: merge misses shard 1/2
	if code := runContext(context.Background(), []string{"count", "8", "--shard", "0/2", "--ledger", half}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
		t.Fatalf("count 8 --shard 0/2: exit %d", code)
	}
	garbage := filepath.Join(dir, "garbage.jsonl")
	if err := os.WriteFile(garbage, []byte("garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	empty20 := strings.Repeat("0 ", 20) + "\n"
	for _, tc := range []struct {
		ctx   context.Context
		stdin string
		args  []string
	}{
		// Usage errors and failures.
		{nil, "", []string{"count", "99"}},
		{nil, "", []string{"count"}},
		{nil, "", []string{"count", "8", "--checkpoint-every", "-1s"}},
		{nil, "", []string{"count", "8", "--range", "1-3"}},
		{nil, "", []string{"count", "--range", "5"}},
		{nil, "", []string{"count", "--range", "5-3"}},
		{nil, "", []string{"count", "--stats"}},
		{nil, "", []string{"count", "--resume", dir}},
		{nil, "", []string{"count", "9", "--resume", unsealed}},
		{nil, "", []string{"count", "9", "--resume", unsealed, "--key-file", openKey}},
		{nil, "", []string{"count", "9", "--resume", unsealed, "--key-file", badKey}},
		{nil, "", []string{"count", "9", "--resume", unsealed, "--key-file", dir}},
		{nil, "", []string{"count", "9", "--resume", unsealed, "--key-file", bigKey}},
		{nil, "", []string{"list", "8", "--limit", "-1"}},
		{nil, "", []string{"solve", "8", "--seed", "3"}},
		{nil, "", []string{"solve", "8", "--no-verify"}},
		{nil, "", []string{"solve", "2"}},
		{nil, "", []string{"estimate", "20", "--probes", "1"}},
		{nil, "1 3 0 2\n", []string{"verify"}},
		{nil, "0 0 0 0\n", []string{"verify"}},
		{nil, "", []string{"trace", "4", "--every", "0"}},
		{nil, "", []string{"trace", "4", "--format", "svg"}},
		{nil, "", []string{"count", "8", "--wrkers", "2"}},
		{nil, "", []string{"count", "8", "--workers", "-2"}},
		{nil, "", []string{"count", "8", "--memory", "lots"}},
		{nil, "", []string{"estimate", "20", "--memory", "-2G"}},
		{nil, "", []string{"help", "cuont"}},
		{nil, "", []string{"completion", "fsh"}},
		{nil, "", []string{"count", "--range", "1-3", "--algo", "stack"}},
		{nil, "", []string{"compare", "8", "--timeout", "-1s"}},
		{nil, "", []string{"solve", "8", "--torus", "--cols", "9"}},
		{nil, "", []string{"count", "8", "--cols", "0"}},
		{nil, "", []string{"show"}},
		{nil, "", []string{"site"}},
		{nil, "", []string{"count", "8", "--shard", "5/4", "--ledger", filepath.Join(dir, "l.jsonl")}},
		{nil, "", []string{"count", "8", "--shard", "x", "--ledger", filepath.Join(dir, "l.jsonl")}},
		{nil, "", []string{"count", "6", "--queens", "9"}},
		{nil, "", []string{"solve", "6", "--torus"}},
		{nil, "", []string{"count", "8", "--torus", "--super"}},
		{nil, "", []string{"verify", "/nonexistent/boards"}},
		{nil, "", []string{"merge", "/nonexistent/ledger"}},
		{nil, "", []string{"merge", half}},
		{nil, "", []string{"merge", garbage}},
		{nil, "", []string{"count", "9", "--shard", "0/2", "--ledger", half}},
		{nil, "", []string{"count", "8", "--shard-from-env", "--shards", "2", "--ledger", filepath.Join(dir, "env.jsonl")}},
		// Interruptions.
		{stopped, "", []string{"solve", "1000000", "--random", "-o", filepath.Join(dir, "q")}},
		{stopped, empty20, []string{"complete", "--count", "--yes"}},
		{stopped, "", []string{"compare", "8"}},
		{stopped, "", []string{"count", "12", "--algo", "stack"}},
		{stopped, "", []string{"count", "12"}},
		{stopped, "", []string{"count", "--range", "4-12"}},
		{stopped, "", []string{"estimate", "20"}},
		{stopped, "", []string{"dominate", "12", "--count"}},
		{stopped, "", []string{"count", "13", "--torus"}},
		{stopped, "", []string{"solve", "1000"}},
		{stopped, "", []string{"solve", "1000", "-o", filepath.Join(dir, "s")}},
		{stopped, "", []string{"list", "10"}},
	} {
		ctx := tc.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		for _, how := range []string{"--lang", "LANG"} {
			args := append(slices.Clone(tc.args), "--lang", "zh")
			if how == "LANG" {
				args = tc.args
				t.Setenv("LANG", "zh_CN.UTF-8")
				t.Setenv("LC_ALL", "")
				t.Setenv("LC_MESSAGES", "")
			}
			var out, errOut bytes.Buffer
			code := runContext(ctx, args, strings.NewReader(tc.stdin), &out, &errOut)
			if errOut.Len() == 0 {
				t.Errorf("%s %v: exit %d and nothing on stderr: the case checks nothing", how, tc.args, code)
			}
			if bad := zhEnglishWords(errOut.String()); len(bad) > 0 {
				t.Errorf("%s %v: English words %v in %q", how, tc.args, bad, errOut.String())
			}
		}
	}
}

// TestChineseLibraryErrors: library errors that reach the command line
// only on rare failures say themselves in Chinese.
func TestChineseLibraryErrors(t *testing.T) {
	zh := i18n.For(i18n.Chinese)
	for _, err := range []error{
		&count.RecountError{N: 24, Unit: 7, Engine: count.UnitResult{Index: 7, Total: 12}, Recount: count.UnitResult{Index: 7, Total: 10}},
	} {
		if s := zh.Err(err); !strings.ContainsRune(s, '单') || len(zhEnglishWords(s)) > 0 {
			t.Errorf("%q: not Chinese, or English words %v", s, zhEnglishWords(s))
		}
	}
	// The backing of a coordinator's total past the published counts.
	for _, b := range []queue.Backing{
		{Blocks: 9, ByVotes: 9, MinCredentials: 1, Fraction: 0.25, Recounted: 2, PlainSeconds: 3e8},
		{Blocks: 9, ByVotes: 9, MinCredentials: 2, Fraction: 0.25, Recounted: 2, Plain: 2},
		{Blocks: 9, ByVotes: 9},
		{Blocks: 9},
	} {
		if s := b.Localize(zh); !strings.ContainsRune(s, '，') && b.ByVotes > 0 || len(zhEnglishWords(s)) > 0 {
			t.Errorf("%q: not Chinese, or English words %v", s, zhEnglishWords(s))
		}
	}
}

// TestChineseProgress: the progress line and bar say their units, rates
// and ETA in Chinese, and line up by the columns a Chinese character takes.
func TestChineseProgress(t *testing.T) {
	zh := i18n.For(i18n.Chinese)
	for _, unit := range []string{"units", "nodes", "solutions", "queens", "runs", "bytes"} {
		v := &progressView{p: zh, label: "count 19", unit: unit}
		for _, p := range []progressState{
			{Done: 1234, Units: 4159, Nodes: count.U128(4e10), Elapsed: 10 * time.Second, Note: zh.T("cli.solve.shuffling", nil)},
			{Done: 1_883_461, Elapsed: time.Second},
		} {
			left, right := v.layout(80, p)
			for _, s := range []string{v.line(p), left + " " + right} {
				if bad := zhEnglishWords(s); len(bad) > 0 {
					t.Errorf("%s: English words %v in %q", unit, bad, s)
				}
			}
			if w := displayWidth(left + right); w > 80-minBar {
				t.Errorf("%s: %q and %q take %d columns, over %d", unit, left, right, w, 80-minBar)
			}
		}
	}
}
