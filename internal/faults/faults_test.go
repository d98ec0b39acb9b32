package faults

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
)

// TestHoldUnit checks that only the held unit of the held N waits, that
// Release lets it go and ends the hold, and that the end of the run's
// context ends the wait.
func TestHoldUnit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		h := HoldUnit(10, 3)
		defer h.Release()
		for _, c := range []struct{ n, unit int }{{10, 2}, {11, 3}} {
			if err := WaitUnit(ctx, c.n, c.unit); err != nil {
				t.Errorf("unit %d of N = %d: %v", c.unit, c.n, err)
			}
		}
		select {
		case <-h.Reached():
			t.Fatal("reached before any run came to the held unit")
		default:
		}
		done := make(chan error)
		go func() { done <- WaitUnit(ctx, 10, 3) }()
		<-h.Reached()
		synctest.Wait()
		select {
		case err := <-done:
			t.Fatalf("the held unit went on before Release: %v", err)
		default:
		}
		h.Release()
		if err := <-done; err != nil {
			t.Fatalf("released: %v", err)
		}
		if err := WaitUnit(ctx, 10, 3); err != nil {
			t.Fatalf("after Release: %v", err)
		}

		h = HoldUnit(AnyN, 5)
		defer h.Release()
		cctx, cancel := context.WithCancel(ctx)
		go func() { done <- WaitUnit(cctx, 17, 5) }()
		<-h.Reached()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("a held unit whose run ended: %v", err)
		}
	})
}

func TestCorrupt(t *testing.T) {
	if got := Corrupt(40); addTotal == 0 && got != 40 {
		t.Errorf("Corrupt(40) = %d outside a faulty build", got)
	}
	addTotal = 8
	defer func() { addTotal = 0 }()
	if got := Corrupt(40); got != 48 {
		t.Errorf("Corrupt(40) = %d, want 48", got)
	}
	if got := Corrupt(0); got != 0 {
		t.Errorf("Corrupt(0) = %d, want 0", got)
	}
}
