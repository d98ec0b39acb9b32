package join

import "testing"

// TestSepRows checks that SepRows reads each separator placement's rows
// as its squares (mask) and rows set say, column by column.
func TestSepRows(t *testing.T) {
	for _, c := range []struct{ n, s int }{{7, 1}, {15, 1}, {8, 2}, {10, 2}} {
		l, err := NewLayout(c.n, c.s)
		if err != nil {
			t.Fatal(err)
		}
		for i, sp := range l.seps {
			rows := l.SepRows(i)
			var set uint32
			var mask uint64
			for j, r := range rows {
				set |= 1 << r
				mask |= 1 << uint(2*l.CL-2+j*c.n+r)
			}
			if len(rows) != c.s || set != sp.rows || mask != sp.mask {
				t.Errorf("N=%d S=%d placement %d: rows %v, but its rows set is %#x and squares %#x", c.n, c.s, i, rows, sp.rows, sp.mask)
			}
		}
	}
}
