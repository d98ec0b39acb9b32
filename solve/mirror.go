package solve

// The mirror image (column c becomes n−1−c) of a solution is a solution,
// and it reverses the lexicographic order: the solutions under a prefix P,
// mirrored, are the solutions under P's mirror image, in reverse order.
// The parts of a listing are prefixes in order, so part len−1−i is the
// mirror image of part i. Where the completions of a part fit in 6 bytes
// (n ≤ 16), the listing keeps those of the left half's parts, up to
// mirrorBudget bytes in all, and the right half's parts are made from them
// without a search: about half the search of a listing of every solution.
// The right half starts once the left one has been written, so memory
// grows to mirrorBudget at most, whatever n, and is freed part by part.

// mirrorBudget is the most the kept completions take (7,386,256 of them at
// n = 16: 44 MB); tests lower it.
var mirrorBudget int64 = 48 << 20

// keyBytes is the size of a kept completion key.
const keyBytes = 6

// mirrored is what part i keeps for its mirror image.
type mirrored struct {
	ready chan struct{} // closed once the part is done, kept or not
	keys  []byte        // its completions' keys, keyBytes each, in order; nil if not kept
}

// keepMirror sets up the mirror where it helps: every solution listed (not
// Unique), keys of 6 bytes, a finisher taking each part from its prefix.
func (l *listing) keepMirror() {
	if l.unique || l.n > 16 || l.n > finishUpTo || l.depth < l.sub || len(l.prefixes) < 2 {
		return
	}
	l.mirror = make([]mirrored, len(l.prefixes))
	for i := range l.mirror {
		l.mirror[i].ready = make(chan struct{})
	}
	l.budget.Store(mirrorBudget)
}

// finishMirrored lists part i: from its mirror image's kept keys when it is
// in the right half and they were kept, else by the search, keeping the
// keys when it is in the left half and the budget allows.
func (w *worker) finishMirrored(i int) {
	l, f := w.l, w.fin
	j := len(l.prefixes) - 1 - i
	depth := l.depth
	if i < j {
		defer close(l.mirror[i].ready)
		if !w.finish(depth) {
			return
		}
		if size := int64(len(f.keys) * keyBytes); l.budget.Add(-size) >= 0 {
			keys := make([]byte, 0, size)
			for _, k := range f.keys {
				keys = append(keys, byte(k), byte(k>>8), byte(k>>16), byte(k>>24), byte(k>>32), byte(k>>40))
			}
			l.mirror[i].keys = keys
		}
		return
	}
	if i > j {
		select {
		case <-l.mirror[j].ready:
		case <-l.done:
			w.done = true
			return
		}
		if keys := l.mirror[j].keys; keys != nil {
			l.mirror[j].keys = nil
			all := f.spare[:0]
			for at := 0; at < len(keys); at += keyBytes {
				b := keys[at : at+keyBytes]
				all = append(all, uint64(b[0])|uint64(b[1])<<8|uint64(b[2])<<16|uint64(b[3])<<24|uint64(b[4])<<32|uint64(b[5])<<40)
			}
			f.spare = all
			w.emitKeys(all, f.mirrorBase(depth), depth)
			return
		}
	}
	w.finish(depth)
}
