package kernel

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"
)

// field is where a struct field is, and where the assembly reads it.
type field struct {
	name      string
	got, want uintptr
}

// checkLayout reports the fields of what that are not where file reads
// them.
func checkLayout(t *testing.T, what, file string, fields []field) {
	t.Helper()
	for _, f := range fields {
		if f.got != f.want {
			t.Errorf("%s %s at %d, %s has %d", what, f.name, f.got, file, f.want)
		}
	}
}

// TestSearch32Layout checks the offsets loop_amd64.s reads search32 at.
func TestSearch32Layout(t *testing.T) {
	var s search32
	checkLayout(t, "search32", "loop_amd64.s", []field{
		{"row", unsafe.Offsetof(s.row), 40},
		{"d", unsafe.Offsetof(s.d), 48},
		{"sols", unsafe.Offsetof(s.sols), offSols},
		{"nodes", unsafe.Offsetof(s.nodes), offNodes},
		{"spill", unsafe.Offsetof(s.spill), offSpill},
		{"rank", unsafe.Offsetof(s.rank), offRank},
		{"stack", unsafe.Offsetof(s.stack), offStack},
		{"frame size", unsafe.Sizeof(frame{}), 48},
	})
}

// TestAssemblyLoopChosen checks Count runs the fastest loop the CPU allows
// (the batch search with vector instructions, else the assembly loop), so
// the kernel tests exercise it.
func TestAssemblyLoopChosen(t *testing.T) {
	want, name := any(count32), "the Go loop"
	switch {
	case hasVector:
		want, name = countBatch, "the batch search"
	case hasPOPCNT():
		want, name = count32Asm, "the assembly loop"
	}
	if reflect.ValueOf(count32Loop).Pointer() != reflect.ValueOf(want).Pointer() {
		t.Errorf("Count does not use %s", name)
	}
}

// TestLevelLayout checks the offsets batch_amd64.s reads a level at.
func TestLevelLayout(t *testing.T) {
	var l level
	checkLayout(t, "level", "batch_amd64.s", []field{
		{"d", unsafe.Offsetof(l.d), 2048},
		{"a", unsafe.Offsetof(l.a), 4096},
		{"rem", unsafe.Offsetof(l.rem), 6144},
		{"avail", unsafe.Offsetof(l.avail), 8192},
		{"row", unsafe.Offsetof(l.row), 10240},
		{"active", unsafe.Offsetof(l.active), 12288},
		{"m", unsafe.Offsetof(l.m), 12800},
	})
}

func init() {
	if hasPOPCNT() {
		extraKernels = append(extraKernels, kern{"count32Asm", count32Asm, 32})
	}
	if hasVector {
		extraKernels = append(extraKernels, kern{"countBatch", countBatch, 32})
	}
}

// TestSlicesResume stops the assembly loop after every few nodes and goes
// on, which must not change the count or the nodes.
func TestSlicesResume(t *testing.T) {
	if !hasPOPCNT() {
		t.Skip("no POPCNT")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 100 {
		n := 6 + rng.IntN(9)
		b := randomBoard(rng, n, rng.IntN(4))
		want, wantNodes, _ := count32(&b, nil)
		for _, budget := range []uint64{1, 2, 3, 7} {
			got, nodes, ok := count32Sliced(&b, nil, budget)
			if !ok || got != want || nodes != wantNodes {
				t.Fatalf("N=%d %+v budget %d: %d solutions %d nodes, want %d %d", n, b, budget, got, nodes, want, wantNodes)
			}
		}
	}
}
