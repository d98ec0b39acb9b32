package queue

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// MaxNameLen bounds a worker's label, in characters.
const MaxNameLen = 128

// CheckName checks a worker's label (WorkerOptions.Name): valid UTF-8,
// printable characters only, at most MaxNameLen of them. A label travels
// in every result as JSON, which turns an invalid byte into U+FFFD, so
// that the coordinator found the result under a key that no longer named
// its worker and refused every one; control characters are escaped on
// the coordinator's side, but a worker of this program does not send
// them.
func CheckName(name string) error {
	if name == "" {
		return errors.New("a worker's name must not be empty")
	}
	chars := 0
	for i, r := range name {
		chars++
		switch {
		case r == utf8.RuneError && !validRuneAt(name, i):
			return fmt.Errorf("worker name %q: byte %d is not valid UTF-8", name, i+1)
		case !unicode.IsPrint(r):
			return fmt.Errorf("worker name %q: character %d (%U) is not printable", name, chars, r)
		}
	}
	if chars > MaxNameLen {
		return fmt.Errorf("worker name %q: %d characters, more than %d", clip(name), chars, MaxNameLen)
	}
	return nil
}

// validRuneAt reports whether a valid rune starts at byte i of s.
func validRuneAt(s string, i int) bool {
	r, size := utf8.DecodeRuneInString(s[i:])
	return !(r == utf8.RuneError && size <= 1)
}
