package main

import (
	"errors"
	"strings"
	"testing"
)

// TestFlagGroups: the combinations the flag groups declare are refused
// with a usage error in plain words (cobra's own messages print Go
// slices), and the command lines of every count mode still work.
func TestFlagGroups(t *testing.T) {
	refused := []struct {
		args []string
		want string
	}{
		{[]string{"count", "--range", "1-3", "--algo", "stack"}, "give --algo or --range, not both"},
		{[]string{"count", "8", "--algo", "stack", "--checkpoint", "x"}, "give --algo or --checkpoint, not both"},
		{[]string{"count", "8", "--algo", "stack", "--resume", "x"}, "give --algo or --resume, not both"},
		{[]string{"count", "--range", "1-3", "--checkpoint", "x"}, "give --checkpoint or --range, not both"},
		{[]string{"count", "8", "--shard", "0/2", "--ledger", "l", "--checkpoint", "x"}, "give --checkpoint or --ledger, not both"},
		{[]string{"count", "8", "--algo", "stack", "--shard", "0/2", "--ledger", "l"}, "give --algo or --ledger, not both"},
		{[]string{"count", "--range", "1-3", "--algo", "stack", "--ledger", "l"}, "give only one of --algo, --ledger, --range"},
		{[]string{"count", "8", "--shard", "0/2", "--shard-from-env", "--shards", "2", "--ledger", "l"}, "give --shard or --shard-from-env, not both"},
		{[]string{"count", "8", "--shards", "2", "--ledger", "l"}, "--shard-from-env and --shards go together: add --shard-from-env"},
		{[]string{"count", "8", "--stats"}, "--stats goes with --algo NAME"},
		{[]string{"count", "8", "--range", "1-3"}, "count takes N or --range A-B, not both"},
		{[]string{"count", "8", "--shard", "0/2"}, "a shard needs --ledger FILE to write its results to"},
		// Every mode's flags are checked whatever mode the others choose.
		{[]string{"count", "8", "--algo", "stack", "--shard", "0/2"}, "a shard needs --ledger FILE to write its results to"},
		{[]string{"count", "--range", "1-3", "--shard", "0/2"}, "a shard needs --ledger FILE to write its results to"},
		{[]string{"count", "--range", "1-3", "--stats"}, "--stats goes with --algo NAME"},
		{[]string{"count", "--range", "1-3", "--checkpoint-every", "0"}, "--checkpoint-every must be positive, got 0s"},
		{[]string{"count", "--algo", "stack"}, "count needs N (or --resume FILE, or --range A-B)"},
		{[]string{"count", "--torus"}, "count needs N (or --resume FILE, or --range A-B)"},
		{[]string{"show", "--orbit", "--transform", "rot90"}, "give --orbit or --transform, not both"},
		{[]string{"complete", "--count", "--all"}, "give --all or --count, not both"},
		{[]string{"coordinator", "10", "--server-tls-key", "k"}, "--server-tls-cert and --server-tls-key go together: add --server-tls-cert"},
		{[]string{"worker", "--tls-cert", "c"}, "--tls-cert and --tls-key go together: add --tls-key"},
	}
	for _, tt := range refused {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(tt.args...)
			if code != 2 || out != "" || errOut != "nqueens: "+tt.want+"\n" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, tt.want)
			}
		})
	}
	dir := t.TempDir()
	works := [][]string{
		{"count", "8"},
		{"count", "8", "--algo", "bitmask"},
		{"count", "8", "--algo", "stack", "--stats", "--json"},
		{"count", "--range", "4-6", "--json"},
		{"count", "8", "--checkpoint", dir + "/c.json", "--quiet"},
		{"count", "--resume", dir + "/c.json", "--checkpoint", dir + "/c.json", "--quiet"},
		{"count", "8", "--shard", "1/2", "--ledger", dir + "/l.jsonl", "--quiet"},
		{"count", "8", "--torus"},
		{"count", "8", "--cols", "8"}, // the N-Queens problem, by count's own engine
	}
	for _, args := range works {
		if code, _, errOut := runCLI(args...); code != 0 {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}

// TestFlagGroupErrorWording covers the three messages of cobra's flag
// groups, so that a new wording in cobra shows here rather than to users.
func TestFlagGroupErrorWording(t *testing.T) {
	for _, tt := range []struct{ cobra, want string }{
		{"if any flags in the group [a b c] are set they must all be set; missing [b c]", "--a, --b and --c go together: add --b and --c"},
		{"at least one of the flags in the group [a b] is required", "give one of --a, --b"},
		{"if any flags in the group [a b c] are set none of the others can be; [a c] were all set", "give --a or --c, not both"},
		{"if any flags in the group [a b c] are set none of the others can be; [a b c] were all set", "give only one of --a, --b, --c"},
	} {
		err := flagGroupError(errors.New(tt.cobra))
		if !isUsage(err) || err.Error() != tt.want {
			t.Errorf("%q: %v, want the usage error %q", tt.cobra, err, tt.want)
		}
	}
}
