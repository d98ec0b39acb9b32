package join

// SepRows returns the rows of the queens of separator placement i (a
// [Key]'s Sep), one per separator column from the left: what package
// recount needs to search a key's solutions without this package's code.
func (l *Layout) SepRows(i int) []int {
	code := l.seps[i].code
	rows := make([]int, l.S)
	for j := range l.S {
		rows[j] = int(code >> (5 * (l.S - 1 - j)) & 31)
	}
	return rows
}
