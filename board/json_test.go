package board

import (
	"runtime"
	"strings"
	"testing"
)

// TestJSONStrict: the JSON grammar takes exactly what docs/api.md and the
// package doc promise, and says where anything else goes wrong.
func TestJSONStrict(t *testing.T) {
	tests := []struct{ text, msg string }{
		{`{"Queens":[1]}`, `character 9: unknown field "Queens"`},
		{`{"queens":[1],"queens":[1]}`, `the field "queens" appears twice`},
		{`{"queens":[2,null,1,3]}`, `character 14: queens[1] must be a column number, not a JSON null`},
		{`{"queens":[2,4,1,3],"blocked":[[1,1,1]]}`, `blocked[0] must be a square [row, column], with two numbers`},
		{`{"queens":[2,4,1,3],"blocked":[[1]]}`, `blocked[0] must be a square [row, column], with two numbers`},
		{`{"queens":[2,4,1,3],"blocked":[1,1]}`, `blocked[0] must be a square [row, column], not '1'`},
		{`{"queens":[2,4,1,3],"blocked":[[0,1]]}`, `blocked[0] = [0, 1] is off the 4×4 board`},
		{`{"queens":[2,4,1,3],"blocked":[[1,99999999999999999999]]}`, `blocked[0] = [1, 99999999999999999999] is off`},
		{`{"queens":[2.0,4,1,3]}`, `character 12: queens[0] must be a whole number, not 2.0`},
		{`{"queens":[2e0,4,1,3]}`, `queens[0] must be a whole number, not 2e0`},
		{`{"queens":[02,4,1,3]}`, `queens[0] is not a JSON number: 02`},
		{`{"queens":[+2,4,1,3]}`, `character 12: queens[0] must be a column number, not '+'`},
		{`{"queens":[2-,4,1,3]}`, `queens[0] is not a JSON number: 2-`},
		{`{"queens":[-1,4,1,3]}`, `queens[0] (row 1): column -1 is out of range 1..4 (0 for an empty row)`},
		{`{"queens":[2,4,1,999999999999999999999999999]}`, `queens[3] (row 4): column 99999999999999999999… is out of range 1..4`},
		{`{"n":"4","queens":[2,4,1,3]}`, `"n" must be a whole number, not a JSON string`},
		{`{"n":4.5,"queens":[2,4,1,3]}`, `"n" must be a whole number, not 4.5`},
		{`{"n":99999999999999999999,"queens":[1]}`, `"n" is 99999999999999999999 but "queens" has 1 row`},
		{`{"queens":[2,4,1,3]`, `the JSON ends early`},
		{`{"queens":[2,4,1,3]} x`, `character 22: text after the JSON object`},
		{`{"queens"}`, `want ':', got '}'`},
		{`{queens:[1]}`, `want a quoted name, got 'q'`},
		{`{"queens":[1],}`, `want a quoted name, got '}'`},
		{`{"que\u0065ns":[1],"x\"y":1}`, `unknown field "x\"y"`},
		{`{"blocked":[]}`, `has no "queens" list`},
		{`{"queens":{}}`, `"queens" must be an array of column numbers, not a JSON object`},
		{`{"n":4,"exists":false}`, `character 21: "exists" is false: the text says that there is no board`},
		{`{"queens":[2,4,1,3],"exists":tru}`, `character 33: malformed JSON: want true, got '}'`},
		{`{"queens":[2,4,1,3],"exists":t rue}`, `malformed JSON: want true, got ' '`},
		{`{"queens":[2,4,1,3],"exists":truex}`, `want ',' or '}' after a member, got 'x'`},
		{`{"queens":[2,4,1,3],"exists":1}`, `"exists" must be true, not '1'`},
		{`{"queens":[2,4,1,3],"exists":true,"exists":true}`, `the field "exists" appears twice`},
		{`{"queens":[2,4,1,3],"orbit":9}`, `"orbit" is 9, but a symmetry class has 1 to 8 boards`},
		{`{"queens":[2,4,1,3],"orbit":0}`, `"orbit" is 0, but a symmetry class has 1 to 8 boards`},
		{`{"queens":[2,4,1,3],"orbit":"2"}`, `"orbit" must be a whole number, not a JSON string`},
	}
	for _, tt := range tests {
		_, err := ParsePartial(tt.text, Auto)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: got %v, want an error containing %q", tt.text, err, tt.msg)
		}
	}
	// What is accepted: names escaped, members in any order, white space.
	p, err := ParsePartial(` { "blocked" : [ [ 1 , 4 ] ] , "quee\u006es" : [ 2 , 0 , 0 , 3 ] , "n" : 4 } `, Auto)
	if err != nil || p.Queens.String() != "2 0 0 3" || len(p.Blocked) != 1 || p.Blocked[0] != (Square{0, 3}) {
		t.Errorf("got %v %v, %v", p.Queens, p.Blocked, err)
	}
	// What the project's answers put beside a board: complete's "exists"
	// and list --unique's "orbit" (issue 23: neither read back).
	for _, text := range []string{`{"n":8,"exists":true,"queens":[1,5,8,6,3,7,2,4]}`, `{"n":8,"queens":[1,5,8,6,3,7,2,4],"orbit":8}`, `{"exists" : true , "queens":[1,5,8,6,3,7,2,4]}`} {
		if p, err := ParsePartial(text, Auto); err != nil || p.Queens.String() != "1 5 8 6 3 7 2 4" {
			t.Errorf("%s: got %v, %v", text, p.Queens, err)
		}
	}
	if p, err := ParsePartial(`[-0]`, JSON); err != nil || p.Queens.String() != "0" {
		t.Errorf("[-0]: %v, %v", p.Queens, err)
	}
}

var jsonLines = []string{
	`{"n":12,"queens":[2,4,1,3,6,8,5,7,10,12,9,11]}`,
	`   {"queens":[2,4,1,3,6,8,5,7,10,12,9,11],"blocked":[[1,1],[12,12]]}   `,
	`[2,4,1,3,6,8,5,7,10,12,9,11]`,
	`{"queens":[2,4,1,3,6,8,5,7,10,12,9,11],"n":11}`,
	`{"queens":[2,4,1,3,6,8,5,7,10,12,9,111]}`,
	`{"queens":[2,4,1,3,6,8,5,7,10,12,9,11111111111111111111111111]}`,
	`{"queens":[2,4,1,3,6,8,5,7,10,12,9,1.5]}`,
	`{"queens":[2,4,1,3,6,8,5,7,10,12,9,11],"blocked":[[1,1],[13,1]]}`,
	`{"queens":[2,4,1,3,6,8,5,7,10,12,9,11],"blocked":[[1,1],[1111111111111111111111,1]]}`,
	`{"queens":[2,4,1,3,6,8,5,7,10,12,9,11]} {}`,
	`{"queens":[2,4,1,3,6,8,5,7,10,12,9,11`,
	`{"queens":[2,4,1,3,6,8,5,7,10,12,9,11],"colour":"a very long name indeed"}`,
	`{"a very long name indeed, longer than anything the scanner keeps whole, as this one is":1}`,
	`[2,4,1,3,6,8,5,7,10,12,9,11]]`,
	`{"n":12,"exists":true,"queens":[2,4,1,3,6,8,5,7,10,12,9,11],"orbit":8}`,
	`{"n":12,"exists":fals,"queens":[2,4,1,3,6,8,5,7,10,12,9,11]}`,
}

// sameJSONAsHeldWhole: a JSON line read in 16-byte pieces reads as the same
// board as when held whole, or fails with the same message.
func sameJSONAsHeldWhole(t *testing.T, line string) {
	t.Helper()
	text := trimSpace([]byte(line))
	if len(text) == 0 || text[0] == '#' || strings.ContainsRune(line, '\n') {
		return
	}
	lead := len(line) - len(strings.TrimLeft(line, asciiSpace))
	want, wantErr := parseJSON(text, lead, 0)
	recs := streamOf(line, JSON)
	if len(recs) != 1 {
		t.Fatalf("%q: %d records", line, len(recs))
	}
	got, err := recs[0].Board, recs[0].Err
	switch {
	case (err == nil) != (wantErr == nil):
		t.Fatalf("%q: streamed %v, %v; held whole %v, %v", line, got, err, want, wantErr)
	case err == nil && (!got.Queens.Equal(want.Queens) || !sameSquares(got.Blocked, want.Blocked)):
		t.Fatalf("%q: streamed %v, held whole %v", line, got, want)
	case err != nil && err.Error() != wantErr.Error():
		t.Fatalf("%q: streamed error %q, held whole %q", line, err, wantErr)
	}
}

func TestStreamJSONMatchesParseJSON(t *testing.T) {
	for _, line := range jsonLines {
		sameJSONAsHeldWhole(t, line)
	}
}

// FuzzStreamJSON: a JSON line reads the same streamed and held whole.
func FuzzStreamJSON(f *testing.F) {
	for _, l := range jsonLines {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 1<<12 {
			return
		}
		sameJSONAsHeldWhole(t, line)
	})
}

// TestParseAllLongJSONMemory: a JSON line of 10^6 columns is read in about
// the memory of its Placement, not of its text (the old reader, through
// encoding/json, took about 18 bytes a row).
func TestParseAllLongJSONMemory(t *testing.T) {
	const n = 1_000_000
	text := `{"queens":[` + strings.TrimSuffix(strings.ReplaceAll(longList(n, func(r int) int { return r }), " ", ","), ",") + "]}\n"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	k := 0
	for rec, err := range ParseAll(strings.NewReader(text), Auto) {
		k++
		if err != nil || rec.Err != nil || rec.Format != JSON || len(rec.Board.Queens) != n || rec.Board.Queens[n-1] != n-1 {
			t.Fatalf("got %d rows, %v, %v", len(rec.Board.Queens), rec.Err, err)
		}
	}
	runtime.ReadMemStats(&after)
	limit := uint64(5*n + 1<<20) // the board, the first chunk and the read buffer
	if runtime.GOOS != "linux" {
		limit += 4 * n // the chunks come from the heap
	}
	if grew := after.TotalAlloc - before.TotalAlloc; k != 1 || grew > limit {
		t.Errorf("%d records; reading %d rows allocated %d bytes, %.1f a row", k, n, grew, float64(grew)/n)
	}
}

// TestByteOrderMark: a UTF-8 byte-order mark, as Notepad writes it, is
// skipped before a board in every format, and at the start of any line of
// a stream (files joined by cat).
func TestByteOrderMark(t *testing.T) {
	const mark = "\xef\xbb\xbf"
	for _, text := range []string{
		"2 4 1 3", "[2,4,1,3]", "0100\n0001\n1000\n0010", ".Q..\n...Q\nQ...\n..Q.",
		`{"n":4,"queens":[2,4,1,3]}`, `[".Q..","...Q","Q...","..Q."]`,
	} {
		for _, f := range []Format{Auto, detectFormat(text)} {
			p, err := ParsePartial(mark+text, f)
			if err != nil || p.Queens.String() != "2 4 1 3" {
				t.Errorf("%q as %q after a BOM: %v, %v", text, f, p.Queens, err)
			}
		}
	}
	var got []string
	for rec, err := range parseAll(strings.NewReader(mark+"2 4 1 3\n"+mark+"# comment\n"+mark+".Q..\n...Q\nQ...\n..Q.\n\n"+mark+"3 1 4 2 "+strings.Repeat(" ", 40)), Auto, 16, 0) {
		if err != nil || rec.Err != nil {
			t.Fatalf("line %d: %v, %v", rec.Line, rec.Err, err)
		}
		got = append(got, rec.Board.Queens.String())
	}
	if strings.Join(got, ",") != "2 4 1 3,2 4 1 3,3 1 4 2" {
		t.Errorf("got %q", got)
	}
	// Positions count from after the mark.
	if _, err := ParsePartial(mark+"2 4 z 3", Auto); err == nil || !strings.Contains(err.Error(), "character 5 (row 3)") {
		t.Errorf("got %v", err)
	}
}

// detectFormat is the format of one board's text, for tests.
func detectFormat(text string) Format {
	if text[0] == '[' && strings.Contains(text, `"`) {
		return Dots
	}
	first, _, _ := strings.Cut(text, "\n")
	return detect([]byte(first))
}
