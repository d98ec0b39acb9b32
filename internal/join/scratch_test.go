package join

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

func TestScratchN(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("JOIN_N"))
	if n == 0 {
		t.Skip()
	}
	s := n % 2
	if v := os.Getenv("JOIN_S"); v != "" {
		s, _ = strconv.Atoi(v)
	}
	t0 := time.Now()
	l, err := NewLayout(n, s)
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	tb, err := NewTables(l, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("layout %v tables %v keys %d units %d bytes %d\n", t1.Sub(t0), time.Since(t1), len(l.keys), l.Units(), tb.Bytes())
	t2 := time.Now()
	w := NewWorker(tb)
	var total, pairs uint64
	for u := range l.Units() {
		c, pr, _ := w.CountUnit(u, nil)
		total += c
		pairs += pr
	}
	fmt.Printf("N=%d s=%d total=%d pairs=%d count %v\n", n, s, total, pairs, time.Since(t2))
}
