package variant

// ResultJSON is a variant's count in its one JSON form, as `nqueens count N
// --torus --json` writes it and /api/count answers it (docs/json.md):
// count's fields and the variant's.
type ResultJSON struct {
	N          int     `json:"n"`
	Cols       int     `json:"cols"`
	Queens     int     `json:"queens"`
	Torus      bool    `json:"torus"`
	Piece      string  `json:"piece"`
	Total      Uint128 `json:"total"`
	Unique     Uint128 `json:"unique"`
	Symmetries int     `json:"symmetries"`
	OEIS       string  `json:"oeis,omitempty"`
	OEISUnique string  `json:"oeis_unique,omitempty"`
	Nodes      Uint128 `json:"nodes"`
	Seconds    float64 `json:"seconds"`
	Workers    int     `json:"workers"`
	Units      int     `json:"units"`
	// Reference is the published count, null where there is none;
	// Matches says whether the count equals it, null when there is none.
	// A count that differs is an error, never a result, so Matches is
	// true or null (as a count's of the plain problem).
	Reference *Reference `json:"reference"`
	Matches   *bool      `json:"matches"`
	Note      string     `json:"note,omitempty"`
}

// JSON is r in its JSON form, with the OEIS sequences its numbers are
// terms of and their published terms.
func (r Result) JSON() ResultJSON {
	s := r.Spec
	total, unique := s.OEIS()
	return ResultJSON{N: s.Rows, Cols: s.Cols, Queens: s.Queens, Torus: s.Torus, Piece: s.Piece.String(),
		Total: r.Total, Unique: r.Unique, Symmetries: s.Symmetries(), OEIS: total.ID, OEISUnique: unique.ID,
		Nodes: r.Nodes, Seconds: r.Elapsed.Seconds(), Workers: r.Workers, Units: r.Units,
		Reference: s.Reference(), Matches: r.Matches(), Note: r.Note}
}
