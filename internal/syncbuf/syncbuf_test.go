package syncbuf

import (
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentWrites runs under the race detector in CI: writers and a
// reader at once, and nothing lost.
func TestConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for range 100 {
				fmt.Fprintf(&b, "%d", i)
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if got := len(b.String()); got != 400 {
		t.Errorf("%d bytes written, want 400", got)
	}
}
