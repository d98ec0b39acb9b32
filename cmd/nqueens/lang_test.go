package main

import (
	"regexp"
	"strings"
	"testing"
)

var (
	han = regexp.MustCompile(`\p{Han}`)
	// englishWords are runs of letters that are no variable of the
	// pseudocode, the legend's marks or an algorithm's name.
	englishWords = regexp.MustCompile(`[A-Za-z]{2,}`)
	allowedWords = map[string]bool{"cols": true, "ld": true, "rd": true, "free": true, "all": true, "queens": true,
		"grid": true, "diag": true, "anti": true, "stack": true, "bitmask": true}
)

func englishWord(s string) string {
	for _, w := range englishWords.FindAllString(s, -1) {
		if !allowedWords[w] {
			return w
		}
	}
	return ""
}

// TestTraceInChinese: LANG=zh_CN.UTF-8 nqueens trace 4 prints its header,
// every step's sentence and counters in Chinese, the boards as in English;
// LC_ALL=C wins over LANG, --lang over both; --json stays English unless
// --lang says otherwise.
func TestTraceInChinese(t *testing.T) {
	_, en, _ := runCLI("trace", "4")
	t.Setenv("LANG", "zh_CN.UTF-8")
	code, zh, errOut := runCLI("trace", "4")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	enLines, zhLines := strings.Split(en, "\n"), strings.Split(zh, "\n")
	if len(enLines) != len(zhLines) || !strings.HasPrefix(zh, "stack，4×4 棋盘：Q 皇后，x 被攻击，") {
		t.Fatalf("%d lines in Chinese, %d in English:\n%.400s", len(zhLines), len(enLines), zh)
	}
	steps := 0
	for i, line := range zhLines {
		switch {
		case strings.HasPrefix(line, "第 "):
			steps++
			if !han.MatchString(line) || englishWord(line) != "" {
				t.Errorf("line %d: %q is not Chinese (%q)", i+1, line, englishWord(line))
			}
		case strings.HasPrefix(line, "节点 "):
			if englishWord(line) != "" {
				t.Errorf("line %d: %q", i+1, line)
			}
		case i > 0 && line != enLines[i]: // the boards, and the blank lines
			t.Errorf("line %d: %q in Chinese, %q in English", i+1, line, enLines[i])
		}
	}
	if steps != strings.Count(en, "\nstep ") || !strings.Contains(zh, "搜索结束：共找到 2 个解") {
		t.Errorf("%d steps in Chinese, %d in English", steps, strings.Count(en, "\nstep "))
	}
	if _, c, _ := runCLI("trace", "4", "--lang", "en"); c != en {
		t.Errorf("--lang en under LANG=zh_CN.UTF-8 is not the English trace")
	}
	t.Setenv("LC_ALL", "C")
	if _, c, _ := runCLI("trace", "4"); c != en {
		t.Errorf("LC_ALL=C under LANG=zh_CN.UTF-8 is not the English trace")
	}
	if _, c, _ := runCLI("trace", "4", "--lang", "zh"); c != zh {
		t.Errorf("--lang zh under LC_ALL=C is not the Chinese trace")
	}
	t.Setenv("LC_ALL", "zh_CN.UTF-8")
	_, jsonEnv, _ := runCLI("trace", "4", "--json")
	_, jsonZh, _ := runCLI("trace", "4", "--json", "--lang", "zh")
	if han.MatchString(jsonEnv) || !han.MatchString(jsonZh) || strings.Count(jsonZh, "\n") != strings.Count(jsonEnv, "\n") {
		t.Errorf("--json under LC_ALL=zh_CN.UTF-8 holds Chinese, or --json --lang zh does not")
	}
}

// TestErrorsInChinese: the common errors, and the usage of --lang.
func TestErrorsInChinese(t *testing.T) {
	t.Setenv("LANG", "zh_CN.UTF-8")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"trace", "99"}, 2, "nqueens: n = 99 超出了 trace 接受的范围（1..64）\n"},
		{[]string{"trace", "4", "--algo", "nope"}, 2, `nqueens: 没有名为 "nope" 的算法（可选：`},
		{[]string{"trace", "4", "--algo", "fast"}, 2, "nqueens: fast 不能逐步演示（可选："},
		{[]string{"trace", "4", "--lang", "fr"}, 2, `nqueens: --lang 必须是 en, zh 之一，收到的是 "fr"`},
		{[]string{"trace", "99", "--lang", "en"}, 2, "nqueens: n = 99 is out of range for trace (1..64)\n"},
		{[]string{"trace"}, 2, "nqueens: nqueens trace 需要 N，收到了 0 个参数\n"},
		{[]string{"algorithms", "x"}, 2, "nqueens: nqueens algorithms 不接受参数，收到了 1 个\n"},
		{[]string{"algorithms", "x", "--lang", "en"}, 2, "nqueens: nqueens algorithms needs no arguments, got 1 argument\n"},
	} {
		code, _, errOut := runCLI(tc.args...)
		if code != tc.code || !strings.HasPrefix(errOut, tc.want) {
			t.Errorf("%q: exit %d, %q; want %d, %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}

// TestVerifyInChinese: verify's verdicts and failure in Chinese; its
// --json English unless --lang says otherwise.
func TestVerifyInChinese(t *testing.T) {
	t.Setenv("LANG", "zh_CN.UTF-8")
	code, out, errOut := runCLIIn("2 4 1 3\n1 2 3 4\n", "verify")
	want := "输入第 1 行：是一个解\n输入第 2 行：第 1 行第 1 列和第 2 行第 2 列的皇后在同一条 ↘ 主对角线上，互相攻击\n"
	if code != 1 || out != want || errOut != "nqueens: stdin：2 个棋盘中有 1 个不是解\n" {
		t.Errorf("exit %d, %q, %q", code, out, errOut)
	}
	_, js, _ := runCLIIn("1 2 3 4\n", "verify", "--json")
	_, jsZh, _ := runCLIIn("1 2 3 4\n", "verify", "--json", "--lang", "zh")
	if han.MatchString(js) || !strings.Contains(jsZh, `"error":"第 1 行第 1 列和第 2 行第 2 列的皇后在同一条 ↘ 主对角线上，互相攻击"`) {
		t.Errorf("--json %q, --json --lang zh %q", js, jsZh)
	}
}
