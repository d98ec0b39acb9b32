package queue

import (
	"strings"
	"testing"
)

// TestCheckName: a worker's label is valid UTF-8, printable and bounded;
// each refusal names the first fault (a label with an invalid byte had
// every result refused by the coordinator, its worker never told).
func TestCheckName(t *testing.T) {
	tests := []struct{ name, err string }{
		{"w1", ""},
		{"host.example:4242", ""},
		{"工作机 1", ""},
		{"replacement \uFFFD char", ""},
		{strings.Repeat("é", MaxNameLen), ""},
		{"", "must not be empty"},
		{"bad\x9bname", `worker name "bad\x9bname": byte 4 is not valid UTF-8`},
		{"cut\xe5\xb7", `byte 4 is not valid UTF-8`},
		{"evil\x1b[2J", `worker name "evil\x1b[2J": character 5 (U+001B) is not printable`},
		{"tab\there", `character 4 (U+0009) is not printable`},
		{"nbsp\u00a0", `(U+00A0) is not printable`},
		{strings.Repeat("é", MaxNameLen+1), "129 characters, more than 128"},
	}
	for _, tt := range tests {
		err := CheckName(tt.name)
		if tt.err == "" {
			if err != nil {
				t.Errorf("CheckName(%q) = %v", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("CheckName(%q) = %v, want an error containing %q", tt.name, err, tt.err)
		}
	}
}
