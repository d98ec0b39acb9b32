package count

// ResultJSON is the one JSON form of a count's result, wherever nqueens
// writes one: count --json, merge --json, coordinator --json and /api/count
// (docs/json.md). Counts are JSON numbers, exact at every size (a JSON
// number has no size limit; JavaScript reads them with a reviver, see
// docs/json.md).
type ResultJSON struct {
	N       int     `json:"n"`
	Total   Uint128 `json:"total"`
	Unique  Uint128 `json:"unique"`
	Nodes   Uint128 `json:"nodes"`
	Seconds float64 `json:"seconds"`
	Workers int     `json:"workers"`
	Units   int     `json:"units"`
	// Reference is the published count (OEIS A000170 and A002562), null
	// past the table; Matches says whether Total and Unique equal it, null
	// when there is none. A count that differs is an error, never a result,
	// so Matches is true or null.
	Reference *Reference `json:"reference"`
	Matches   *bool      `json:"matches"`
}

// Reference is a published count.
type Reference struct {
	Total  Uint128 `json:"total"`
	Unique Uint128 `json:"unique"`
}

// ReferenceOf is the published count of N, or nil past the table.
func ReferenceOf(n int) *Reference {
	total, unique, ok := Known(n)
	if !ok {
		return nil
	}
	return &Reference{Total: total, Unique: unique}
}

// JSON is r in its JSON form, checked against the published count.
func (r Result) JSON() ResultJSON {
	j := ResultJSON{N: r.N, Total: r.Total, Unique: r.Unique, Nodes: r.Nodes, Seconds: r.Elapsed.Seconds(),
		Workers: r.Workers, Units: r.Units, Reference: ReferenceOf(r.N)}
	if j.Reference != nil {
		m := j.Reference.Total == r.Total && j.Reference.Unique == r.Unique
		j.Matches = &m
	}
	return j
}
