package main

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// TestHelpLang: the help is in the language of the last --lang the
// catalogs know (before "--"), else the environment's.
func TestHelpLang(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	for _, tc := range []struct {
		env  string
		args []string
		want i18n.Lang
	}{
		{"zh_CN.UTF-8", nil, i18n.Chinese},
		{"zh_CN.UTF-8", []string{"count", "--help"}, i18n.Chinese},
		{"zh_CN.UTF-8", []string{"--lang", "en", "count", "--help"}, i18n.English},
		{"zh_CN.UTF-8", []string{"count", "--help", "--lang=en"}, i18n.English},
		{"zh_CN.UTF-8", []string{"--lang", "xx", "count"}, i18n.Chinese},
		{"zh_CN.UTF-8", []string{"count", "--lang"}, i18n.Chinese},
		{"zh_CN.UTF-8", []string{"verify", "--", "--lang", "en"}, i18n.Chinese},
		{"C.UTF-8", []string{"--lang", "en", "--lang", "zh", "list", "-h"}, i18n.Chinese},
		{"C.UTF-8", []string{"count", "--lang=zh", "--help"}, i18n.Chinese},
		{"C.UTF-8", []string{"count", "--help"}, i18n.English},
	} {
		t.Setenv("LANG", tc.env)
		if got := helpLang(tc.args); got != tc.want {
			t.Errorf("LANG=%s %q: %s, want %s", tc.env, tc.args, got, tc.want)
		}
	}
}

// commandPaths are the paths of every command of root below it, help and
// completion's shells included: "count", "completion bash".
func commandPaths(root *cobra.Command) [][]string {
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			p := append(slices.Clone(path), sub.Name())
			paths = append(paths, p)
			walk(sub, p)
		}
	}
	walk(root, nil)
	return paths
}

// helpText is what c's help writes.
func helpText(root, c *cobra.Command) string {
	var b bytes.Buffer
	root.SetOut(&b)
	c.HelpFunc()(c, nil)
	return b.String()
}

// TestHelpEnglishAsCobra: in English, writeHelp writes for every command
// what cobra's default templates write, byte for byte, and the completion
// commands say what cobra's say.
func TestHelpEnglishAsCobra(t *testing.T) {
	ours := newRootCmd(i18n.For(i18n.English))
	theirs := newRootCmd(i18n.For(i18n.English))
	theirs.SetHelpFunc(nil)
	theirs.SetUsageFunc(nil)
	plain := &cobra.Command{Use: ours.Name()}
	plain.AddCommand(&cobra.Command{Use: "sub", Run: func(*cobra.Command, []string) {}})
	plain.InitDefaultCompletionCmd()
	paths := append(commandPaths(ours), nil)
	if len(paths) < 20 {
		t.Fatalf("%d commands: the walk missed some", len(paths))
	}
	for _, path := range paths {
		c, _, err := ours.Find(path)
		c2, _, err2 := theirs.Find(path)
		if err != nil || err2 != nil {
			t.Fatalf("%q: %v, %v", path, err, err2)
		}
		if got, want := helpText(ours, c), helpText(theirs, c2); got != want {
			t.Errorf("%q: our help\n%s\ncobra's\n%s", path, got, want)
		}
		if len(path) > 0 && path[0] == "completion" {
			c3, _, err := plain.Find(path)
			if err != nil || c3.Short != c.Short || c3.Long != c.Long {
				t.Errorf("%q: the catalog's\n%s\n%s\ncobra's\n%s\n%s", path, c.Short, c.Long, c3.Short, c3.Long)
			}
			if f := c3.Flags().Lookup("no-descriptions"); f != nil && f.Usage != c.Flags().Lookup(f.Name).Usage {
				t.Errorf("%q: --%s: %q, cobra's %q", path, f.Name, c.Flags().Lookup(f.Name).Usage, f.Usage)
			}
		}
	}
}

// helpProse is the help text without the commands it shows to type: an
// example's command (its comment stays) and the indented lines of the
// completion scripts' help.
func helpProse(help, examples string) string {
	var out []string
	inExamples := false
	for _, line := range strings.Split(help, "\n") {
		switch {
		case line == examples:
			inExamples = true
			continue
		case line == "":
			inExamples = false
		case inExamples:
			_, line, _ = strings.Cut(line, "# ")
		case strings.HasPrefix(line, "\t"):
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

func hasHan(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
}

// TestChineseHelp: with --lang zh, or LANG=zh_CN.UTF-8, the help of every
// command is Chinese: its description and every flag's, the headings,
// and no English word outside the allow-list but in the commands it
// shows to type.
func TestChineseHelp(t *testing.T) {
	zh := i18n.For(i18n.Chinese)
	var cases [][]string
	for _, path := range commandPaths(newRootCmd(i18n.For(i18n.English))) {
		cases = append(cases, append(path, "--help"))
	}
	cases = append(cases, nil, []string{"-h"}, []string{"help"}, []string{"help", "count"}, []string{"help", "completion", "zsh"})
	for _, args := range cases {
		for _, how := range []string{"--lang", "LANG"} {
			t.Setenv("LC_ALL", "")
			t.Setenv("LC_MESSAGES", "")
			t.Setenv("LANG", "C.UTF-8")
			cmdline := append([]string{"--lang", "zh"}, args...)
			if how == "LANG" {
				t.Setenv("LANG", "zh_CN.UTF-8")
				cmdline = args
			}
			var out bytes.Buffer
			if code := runContext(context.Background(), cmdline, strings.NewReader(""), &out, io.Discard); code != 0 {
				t.Errorf("%s %q: exit %d", how, args, code)
				continue
			}
			help := out.String()
			if bad := zhEnglishWords(helpProse(help, zh.T("help.examples", nil))); len(bad) > 0 {
				t.Errorf("%s %q: English words %v in\n%s", how, args, bad, help)
			}
			first, _, _ := strings.Cut(help, "\n")
			if !hasHan(first) || !strings.Contains(help, zh.T("help.usage", nil)) || !strings.Contains(help, zh.T("help.flags", nil)) {
				t.Errorf("%s %q: no Chinese description or headings in\n%s", how, args, help)
			}
			for _, line := range strings.Split(help, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "-") && !hasHan(line) {
					t.Errorf("%s %q: the flag's line %q is not Chinese", how, args, line)
				}
			}
		}
	}
}
