//go:build js && wasm

package main

import (
	"syscall/js"
	"testing"
)

// TestMessageID: a message id that is not a whole number is refused, not a
// panic that ends the worker (Value.Int panicked on a string).
func TestMessageID(t *testing.T) {
	for _, tc := range []struct {
		v    any
		id   int
		want bool
	}{
		{7, 7, true},
		{0, 0, true},
		{"7", 0, false},
		{"x", 0, false},
		{1.5, 0, false},
		{nil, 0, false},
		{map[string]any{}, 0, false},
		{1e300, 0, false},
	} {
		id, ok := messageID(js.ValueOf(tc.v))
		if id != tc.id || ok != tc.want {
			t.Errorf("messageID(%v) = %d, %v; want %d, %v", tc.v, id, ok, tc.id, tc.want)
		}
	}
}
