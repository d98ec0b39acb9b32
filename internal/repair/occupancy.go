package repair

import "unsafe"

// Occupancy counts the queens on each diagonal of one direction: a bit
// says whether there is any, and the excess over one is kept apart. Only a
// few rows of a large board make diagonals with more than one queen, a few
// dozen, so there the excess lives in a map, and the bits, 50 MB for 10^8
// queens, mostly stay in cache. Small boards, where the repair does most of
// the work, count the excess in an array instead.
type Occupancy struct {
	Bits  []uint64    // bit d: diagonal d holds a queen
	dense []uint16    // excess per diagonal, when size ≤ 2·denseLimit
	extra map[int]int // excess per diagonal, otherwise
}

// denseLimit is the largest n whose excess counts are kept in an array: a
// count never exceeds n, so uint16 holds it.
const denseLimit = 1<<16 - 1

// NewOccupancy returns an empty occupancy of size diagonals (2n-1 for an
// n×n board).
func NewOccupancy(size int) Occupancy {
	o := Occupancy{Bits: make([]uint64, (size+63)/64)}
	if size <= 2*denseLimit {
		o.dense = make([]uint16, size)
	} else {
		o.extra = map[int]int{}
	}
	AdviseHuge(unsafe.Pointer(unsafe.SliceData(o.Bits)), uintptr(len(o.Bits))*8)
	return o
}

// Reset empties every diagonal.
func (o *Occupancy) Reset() {
	clear(o.Bits)
	clear(o.dense)
	clear(o.extra)
}

func (o *Occupancy) excess(d int) int {
	if o.dense != nil {
		return int(o.dense[d])
	}
	return o.extra[d]
}

// Has reports whether diagonal d holds a queen.
func (o *Occupancy) Has(d int) bool { return o.Bits[d>>6]&(1<<(d&63)) != 0 }

// Crowded reports whether diagonal d holds more than one queen.
func (o *Occupancy) Crowded(d int) bool { return o.excess(d) > 0 }

// Add puts a queen on diagonal d and reports whether it collides there.
func (o *Occupancy) Add(d int) bool {
	w, b := d>>6, uint64(1)<<(d&63)
	switch {
	case o.Bits[w]&b == 0:
		o.Bits[w] |= b
		return false
	case o.dense != nil:
		o.dense[d]++
	default:
		o.extra[d]++
	}
	return true
}

// Remove takes a queen off diagonal d and reports whether it was colliding.
func (o *Occupancy) Remove(d int) bool {
	switch k := o.excess(d); {
	case k == 0:
		o.Bits[d>>6] &^= 1 << (d & 63)
		return false
	case o.dense != nil:
		o.dense[d]--
	case k == 1:
		delete(o.extra, d)
	default:
		o.extra[d] = k - 1
	}
	return true
}
