package board

// columnBuffer gathers the columns of a board whose size is known only at
// its end: a list or a JSON array read as it streams in. Columns go into
// chunks, so that no append ever copies the whole board; [columnBuffer.finish]
// copies them once into the Placement, handing each chunk back as it goes
// (see allocChunk), so that reading a board of n rows peaks near 4n bytes.
type columnBuffer struct {
	cur  Placement   // the chunk being filled
	full []Placement // full chunks, in order
	n    int
}

const (
	// firstChunk is the capacity a board starts with: small boards are the
	// common case and must not cost a big chunk each.
	firstChunk = 16
	// chunkCols is the size of the chunks of a large board, 256 KB: big
	// enough that chunks are few, small enough that the copy at the end
	// needs little beyond the board itself.
	chunkCols = 1 << 16
)

func (b *columnBuffer) add(c int32) {
	if len(b.cur) == cap(b.cur) {
		b.grow()
	}
	b.cur = append(b.cur, c)
	b.n++
}

// grow doubles a small first chunk, or starts a new full-size one.
func (b *columnBuffer) grow() {
	switch k := cap(b.cur); {
	case k == 0:
		b.cur = make(Placement, 0, firstChunk)
	case k < chunkCols:
		b.cur = append(make(Placement, 0, 2*k), b.cur...)
	default:
		b.full = append(b.full, b.cur)
		b.cur = allocChunk(chunkCols)
	}
}

// finish returns the columns as one Placement and empties the buffer.
func (b *columnBuffer) finish() Placement {
	if len(b.full) == 0 {
		p := b.cur
		*b = columnBuffer{}
		return p
	}
	p := make(Placement, 0, b.n)
	for _, c := range append(b.full, b.cur) {
		p = append(p, c...)
		freeChunk(c)
	}
	*b = columnBuffer{}
	return p
}

// discard empties the buffer, handing its chunks back.
func (b *columnBuffer) discard() {
	for _, c := range b.full {
		freeChunk(c)
	}
	if len(b.full) > 0 {
		freeChunk(b.cur)
	}
	*b = columnBuffer{}
}
