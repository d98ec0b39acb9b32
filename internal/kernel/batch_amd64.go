package kernel

import "golang.org/x/sys/cpu"

// chooseAVX2 is chooseBatch four nodes at a time (batch_amd64.s). It reads
// and writes whole groups of four, so the nodes from m up to the next
// multiple of four must be dead ends (chooseVector makes them so).
//
//go:noescape
func chooseAVX2(L *level, m int, nm1 uint64, k int) (children uint64)

// chooseVector is chooseAVX2 on the m nodes of L and a few dead ends.
func chooseVector(L *level, m int, nm1 uint64, k int, _ *[64]uint64) uint64 {
	for i := m; i&3 != 0; i++ {
		L.occ[i], L.rem[i] = ^uint64(0), 0
	}
	return chooseAVX2(L, m, nm1, k)
}

func init() {
	if cpu.X86.HasAVX2 {
		chooseLevel = chooseVector
	}
}
