package classic

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/i18n"
)

// says are the phrases a step's sentence must hold, in one language,
// written here from what the step did and independently of the catalogs'
// messages: replay checks each sentence of a trace against them, so that a
// translation that says another square, another row or another verdict
// fails.
type says struct {
	p         *i18n.Printer
	rowStart  string // the sentence of a bitmask row starts so: "Row %d:"
	lowest    string // "its lowest bit is column %d"
	freeKeeps string // + the columns left in free
	try       string // + a square
	rejected  string
	lastMoves string
	solution  string // "solution %d"
	row       string // "row %d"
	freeHolds string // + the columns
	freeZero  string
	next      string // + a square
	noColumn  string // "row %d has no column left"
	deadend   []string
	done      string // + the solutions, then doneEnd
	doneEnd   string
	// numbered finds the rows and columns a sentence names, listed the
	// columns of a list.
	numbered, listed *regexp.Regexp
}

var saysIn = map[i18n.Lang]says{
	i18n.English: {
		rowStart: "Row %d:", lowest: "its lowest bit is column %d", freeKeeps: "free keeps ", try: "Try ",
		rejected: "rejected", lastMoves: "last queen moves on", solution: "olution %d", row: "row %d",
		freeHolds: "free still holds ", freeZero: "free is 0", next: "next: ", noColumn: "row %d has no column left",
		deadend: []string{"cols holds ", "ld ", "rd "}, done: "The search is over: ", doneEnd: ",",
		numbered: regexp.MustCompile(`\b(row|column) (\d+)`),
		listed:   regexp.MustCompile(`\bcolumns ((?:\d+, )*\d+ and \d+)`),
	},
	i18n.Chinese: {
		rowStart: "第 %d 行：", lowest: "取它的最低位，即第 %d 列", freeKeeps: "free 变为", try: "试探",
		rejected: "排除", lastMoves: "最后一个皇后继续向右试探", solution: "第 %d 个解", row: "第 %d 行",
		freeHolds: "free 仍为", freeZero: "free 为 0", next: "接下来试探", noColumn: "第 %d 行已没有可试的列",
		deadend: []string{"cols 为", "ld 为", "rd 为"}, done: "搜索结束：共找到 ", doneEnd: "；",
		numbered: regexp.MustCompile(`第 (\d+) (行|列)`),
		listed:   regexp.MustCompile(`第 ((?:\d+、)*\d+和\d+) 列`),
	},
}

// sayer is the phrases of l with its printer.
func sayer(l i18n.Lang) says {
	s := saysIn[l]
	s.p = i18n.For(l)
	return s
}

func (s says) f(format string, v ...any) string { return fmt.Sprintf(format, v...) }

// square is (r, c), 0-based, as the sentences write it.
func (s says) square(r, c int) string { return square(s.p, r, c) }

// doneWith is the start of a Done sentence with k solutions.
func (s says) doneWith(k uint64) string {
	return s.done + s.p.N("trace.done.solutions", k, nil) + s.doneEnd
}

// hasNoKey reports a sentence that shows a message key, in brackets, in
// place of a message: a key missing or a placeholder without a value.
func hasNoKey(text string) bool { return !strings.Contains(text, "[trace.") }

// TestTracesInChinese replays every traceable strategy's trace in Chinese
// (i18n.NewContext) as TestTracesAgree does in English: each sentence
// names the squares, rows, verdicts and counts of its step, in Chinese,
// and the events are those of the English trace but for their Text.
func TestTracesInChinese(t *testing.T) {
	zh := i18n.NewContext(context.Background(), i18n.Chinese)
	for _, tr := range tracers() {
		for n := 1; n <= 6; n++ {
			var events []Event
			for e, err := range tr.Trace(zh, n) {
				if err != nil {
					t.Fatal(err)
				}
				events = append(events, e)
			}
			replayIn(t, sayer(i18n.Chinese), tr.Name(), field{n: n}, events)
			english := collect(t, tr, n)
			for i, e := range events {
				if !han.MatchString(e.Text) || englishWord(e.Text) != "" {
					t.Fatalf("%s n=%d step %d: %q is not Chinese", tr.Name(), n, i+1, e.Text)
				}
				e.Text = english[i].Text
				if !reflect.DeepEqual(e, english[i]) {
					t.Fatalf("%s n=%d step %d: %v in Chinese, %v in English", tr.Name(), n, i+1, e, english[i])
				}
			}
		}
	}
}

var (
	han = regexp.MustCompile(`\p{Han}`)
	// latin finds English words in a Chinese sentence: runs of letters
	// other than the pseudocode's variables, which it names as the code
	// does.
	latin     = regexp.MustCompile(`\b(?:[A-Za-z]{2,})\b`)
	codeWords = map[string]bool{"cols": true, "ld": true, "rd": true, "free": true, "all": true, "queens": true,
		"grid": true, "diag": true, "anti": true}
)

// TestCandidatesInChinese checks the Chinese sentences of the brute-force
// traces: every candidate's squares on the board, its verdict, and the
// closing count.
func TestCandidatesInChinese(t *testing.T) {
	zh := i18n.NewContext(context.Background(), i18n.Chinese)
	s := sayer(i18n.Chinese)
	for _, tr := range candidateTracers() {
		maxN := 5
		if tr.Name() == "brute-combinations" {
			maxN = 4 // C(25, 5) = 53,130 sentences at n = 5
		}
		for n := 1; n <= maxN; n++ {
			for e, err := range tr.TraceCandidates(zh, n) {
				if err != nil {
					t.Fatal(err)
				}
				where := fmt.Sprintf("%s n=%d %v", tr.Name(), n, e)
				checkNumbersIn(t, s, where, e.Text, n)
				var want []string
				switch e.Kind {
				case Solution:
					want = []string{"候选 " + s.p.Int(e.Candidate) + "（", e.Queens.String(), s.f(s.solution, e.Counters.Solutions)}
				case Reject:
					want = []string{"候选 " + s.p.Int(e.Candidate) + "：", s.square(e.By.Row, e.By.Col) + "和" + s.square(e.Row, e.Col), s.rejected}
				case Done:
					want = []string{"搜索结束", s.p.N("trace.done.solutions", e.Counters.Solutions, nil)}
				}
				for _, w := range want {
					if !strings.Contains(e.Text, w) {
						t.Fatalf("%s: %q does not say %q", where, e.Text, w)
					}
				}
			}
		}
	}
}

// englishWord is the first run of letters in text that is no word of the
// pseudocode, "" if none.
func englishWord(text string) string {
	for _, w := range latin.FindAllString(text, -1) {
		if !codeWords[w] {
			return w
		}
	}
	return ""
}

// TestSentenceKeys: the messages the code names by a key it builds are in
// the catalogs (TestKeysExist sees only literal keys).
func TestSentenceKeys(t *testing.T) {
	p := i18n.For(i18n.English)
	for _, tr := range candidateTracers() {
		if key := "trace." + tr.Name() + ".reject"; !p.Has(key) {
			t.Errorf("%s: no message %s", tr.Name(), key)
		}
	}
	for _, s := range All() {
		if key := "algo." + s.Name() + ".description"; !p.Has(key) {
			t.Errorf("%s: no message %s", s.Name(), key)
		}
		te, ok := s.(teacher)
		if !ok {
			continue
		}
		l := te.lesson()
		key := "algo." + l.name
		if l.name != s.Name() || !p.Has(key+".title") || !p.Has(key+".summary") {
			t.Errorf("%s: the lesson of %q, or its title or summary, is missing", s.Name(), l.name)
		}
		// The catalog's pseudocode has as many lines as the lesson marks.
		for i := 1; i <= len(l.code)+1; i++ {
			if has := p.Has(key + ".code." + strconv.Itoa(i)); has != (i <= len(l.code)) {
				t.Errorf("%s: line %d of the pseudocode: in the catalog %v, in the lesson %v", s.Name(), i, has, !has)
			}
		}
	}
}

// TestLessonsInChinese: every lesson reads in Chinese, its pseudocode
// line for line the English one's, with the same code around the prose.
func TestLessonsInChinese(t *testing.T) {
	zh := i18n.For(i18n.Chinese)
	for _, s := range All() {
		en, ok := LessonOf(s)
		if !ok {
			continue
		}
		l, _ := LessonIn(zh, s)
		if !han.MatchString(l.Title) || !han.MatchString(l.Summary) || len(l.Code) != len(en.Code) {
			t.Errorf("%s: %+v", s.Name(), l)
		}
		for i, line := range l.Code {
			// Indentation is the code's structure.
			if indent := len(line) - len(strings.TrimLeft(line, " ")); indent != len(en.Code[i])-len(strings.TrimLeft(en.Code[i], " ")) {
				t.Errorf("%s line %d: %q is not indented as %q", s.Name(), i+1, line, en.Code[i])
			}
		}
		if d := Describe(zh, s); !han.MatchString(d) {
			t.Errorf("%s: description %q", s.Name(), d)
		}
	}
}
