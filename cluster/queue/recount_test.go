package queue

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/testkit"
)

// takePastTable makes pastTable report every N past the published counts
// until the test ends.
func takePastTable(t *testing.T) {
	old := pastTable
	pastTable = func(int) bool { return true }
	t.Cleanup(func() { pastTable = old })
}

// TestPlainCheck checks that the plain search's check of a unit passes
// the coordinator's true counts of N = 14 (the join, and a rotation unit)
// and catches a wrong one that the engine's own check of a result lets
// through.
func TestPlainCheck(t *testing.T) {
	ctx := context.Background()
	const n = 14
	var units []count.UnitResult
	for _, u := range []int{0, 1, 2, 500, count.Units(n) - 1} {
		r, err := count.CountUnit(ctx, n, u)
		if err != nil {
			t.Fatal(err)
		}
		units = append(units, r)
	}
	for i := range units {
		got, err := plainCheck(ctx, n, units, func(int) int { return i })
		if err != nil || got != units[i].Index {
			t.Errorf("unit %d: plainCheck gives %d, %v", units[i].Index, got, err)
		}
		wrong := slices.Clone(units)
		wrong[i].Total += 8
		if i == len(units)-1 {
			wrong[i].Total, wrong[i].Rot180 = 0, wrong[i].Rot180+8
		}
		var bad *count.RecountError
		if _, err := plainCheck(ctx, n, wrong, func(int) int { return i }); !errors.As(err, &bad) || bad.Unit != units[i].Index {
			t.Errorf("unit %d with a wrong count: %v, want a *count.RecountError of it", units[i].Index, err)
		}
	}
}

// TestRecounterPastTable checks that a recount of a block past the
// published counts checks one of its units by the plain search, and one
// within them none.
func TestRecounterPastTable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	run := Run{N: 10, BlockSize: 7, Units: count.Units(10)}
	all := testkit.AllUnits(t, run.N, count.Units, count.CountUnit)
	for _, past := range []bool{false, true} {
		if past {
			takePastTable(t)
		}
		rc := startRecounter(ctx, run, 1)
		rc.add(3)
		r := <-rc.results
		rc.stop()
		b := run.block(3)
		switch {
		case r.err != nil:
			t.Fatalf("past the table %v: %v", past, r.err)
		case !slices.Equal(r.units, all[b.First:b.Last+1]):
			t.Errorf("past the table %v: the block's units %v, want %v", past, r.units, all[b.First:b.Last+1])
		case past && (r.plain < b.First || r.plain > b.Last):
			t.Errorf("past the table: the plain search checked unit %d, not one of %s", r.plain, b)
		case !past && r.plain != -1:
			t.Errorf("within the table: the plain search checked unit %d", r.plain)
		}
	}
}

// TestCoordinatorPlainCheck runs a coordinator and a worker in this
// process with N = 9 taken past the table and every block spot-checked:
// each block's recount checks a unit by the plain search, and the
// backing says so.
func TestCoordinatorPlainCheck(t *testing.T) {
	takePastTable(t)
	_, url := startServer(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	const n = 9
	wctx, stopWorker := context.WithCancel(ctx)
	defer stopWorker()
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := Work(wctx, connect(t, url), WorkerOptions{Workers: 1, Name: "w", Log: testLogger(t), Key: testKey, Identity: SharedIdentity()}); err != nil && !errors.Is(err, context.Canceled) {
			t.Error(err)
		}
	}()
	r, err := Coordinate(ctx, connect(t, url), n, CoordinatorOptions{BlockSize: 16, VerifyFraction: 1, AckWait: time.Second, Log: testLogger(t), Key: testKey})
	stopWorker()
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if err := reference.Check(n, r.Total.String(), r.Unique.String()); err != nil {
		t.Error(err)
	}
	b := r.Backing
	if b.Plain != b.Recounted || b.Recounted != b.Blocks || b.PlainSeconds != 0 {
		t.Errorf("backing %+v: want every one of its %d blocks recounted with one unit checked by the plain search", b, b.Blocks)
	}
	if s := b.String(); !strings.Contains(s, "plain search, which agreed") {
		t.Errorf("backing %q does not say that the plain search agreed", s)
	}
}

// TestBackingPlainTooSlow checks that past the table, where a unit takes
// the plain search too long, the backing says how long instead: N = 25
// taken past it (about 3 hours a unit; its unit table is quicker to make
// than N = 28's). N = 24's mean unit, about 20 minutes, is affordable.
func TestBackingPlainTooSlow(t *testing.T) {
	takePastTable(t)
	run := Run{N: 25, BlockSize: 1 << 12, Units: count.Units(25)}
	b := newBook(run, 0.01, [2]uint64{1, 2}, nil).backing()
	if b.PlainSeconds < plainLimit {
		t.Errorf("N = 25: a unit takes the plain search about %g s by its estimate, want more than %d", b.PlainSeconds, plainLimit)
	}
	if !plainAffordable(24) {
		t.Errorf("N = 24 taken past the table: a mean unit takes the plain search about %g s by its estimate, want it affordable (at most %d)", count.RecountSeconds(24), plainLimit)
	}
	if s := b.String(); !strings.Contains(s, "no unit counted again by the independent plain search") || !strings.Contains(s, "hours") && !strings.Contains(s, "days") {
		t.Errorf("backing %q does not say the plain search was too slow, and how slow", s)
	}
}
