package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/internal/testkit"
)

func TestAlgorithmsGolden(t *testing.T) {
	out, _, err := classicExec(t, "algorithms")
	if err != nil {
		t.Fatal(err)
	}
	testkit.Golden(t, "testdata/algorithms_list.txt", []byte(out))
}

func TestAlgorithmsJSON(t *testing.T) {
	out, _, err := classicExec(t, "algorithms", "--json")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var a struct {
			Name      string
			Traceable bool
		}
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		s := classic.All()[i]
		_, traceable := classic.TraceOf(s)
		if a.Name != s.Name() || a.Traceable != traceable {
			t.Errorf("line %d: %s", i+1, line)
		}
	}
}
