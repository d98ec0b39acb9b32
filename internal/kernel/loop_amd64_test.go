package kernel

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// TestSearch32Layout checks the offsets loop_amd64.s reads search32 at.
func TestSearch32Layout(t *testing.T) {
	var s search32
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"row", unsafe.Offsetof(s.row), 40},
		{"d", unsafe.Offsetof(s.d), 48},
		{"sols", unsafe.Offsetof(s.sols), offSols},
		{"nodes", unsafe.Offsetof(s.nodes), offNodes},
		{"spill", unsafe.Offsetof(s.spill), offSpill},
		{"rank", unsafe.Offsetof(s.rank), offRank},
		{"stack", unsafe.Offsetof(s.stack), offStack},
		{"frame size", unsafe.Sizeof(frame{}), 48},
	} {
		if f.got != f.want {
			t.Errorf("search32 %s at %d, loop_amd64.s has %d", f.name, f.got, f.want)
		}
	}
}

// TestAssemblyLoopChosen checks Count runs the fastest loop the CPU allows
// (the batch search with vector instructions, else the assembly loop), so
// the kernel tests exercise it.
func TestAssemblyLoopChosen(t *testing.T) {
	want, name := any(count32), "the Go loop"
	switch {
	case cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT:
		want, name = countBatchVector, "the batch search"
		if reflect.ValueOf(chooseLevel).Pointer() != reflect.ValueOf(chooseVector).Pointer() {
			t.Error("the batch search does not scan with vector instructions")
		}
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
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"d", unsafe.Offsetof(l.d), 2048},
		{"a", unsafe.Offsetof(l.a), 4096},
		{"rem", unsafe.Offsetof(l.rem), 6144},
		{"avail", unsafe.Offsetof(l.avail), 8192},
		{"row", unsafe.Offsetof(l.row), 10240},
	} {
		if f.got != f.want {
			t.Errorf("level %s at %d, batch_amd64.s has %d", f.name, f.got, f.want)
		}
	}
}

func init() {
	if hasPOPCNT() {
		extraKernels = append(extraKernels, kern{"count32Asm", count32Asm, 32})
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT {
		extraKernels = append(extraKernels, kern{"countBatch (AVX2)", countBatch, 31}, kern{"countBatchVector", countBatchVector, 32})
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
