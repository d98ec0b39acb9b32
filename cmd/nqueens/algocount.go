package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/nqueens/nqueens/classic"
	"github.com/spf13/cobra"
)

// slowCandidates is the brute-force work above which runAlgoCount warns that
// the run takes a while (about a second at the measured rates).
var slowCandidates = big.NewInt(100_000_000)

// runAlgoCount runs one classic strategy for count N --algo NAME and prints
// its number of solutions, with --stats every counter and the time.
func runAlgoCount(cmd *cobra.Command, n int, algo string, stats, jsonOut bool) error {
	s, err := lookupAlgo(algo)
	if err != nil {
		return err
	}
	if e, ok := s.(classic.Estimator); ok && n <= classic.MaxN {
		if k := e.Candidates(n); k.Cmp(slowCandidates) > 0 {
			fmt.Fprintf(cmd.ErrOrStderr(), "nqueens: %s tests %s candidates for n = %d; this takes a while (Ctrl-C stops it)\n",
				s.Name(), groupBig(k), n)
		}
	}
	c, err := s.Solve(cmd.Context(), n, nil)
	var se *classic.SizeError
	if errors.As(err, &se) {
		return &usageError{err}
	}
	if err != nil {
		return fmt.Errorf("%s stopped after %s: %w", s.Name(), c, err)
	}
	w := cmd.OutOrStdout()
	if jsonOut {
		out := struct {
			N         int               `json:"n"`
			Algorithm string            `json:"algorithm"`
			Solutions uint64            `json:"solutions"`
			Counters  *classic.Counters `json:"counters,omitempty"`
		}{N: n, Algorithm: s.Name(), Solutions: c.Solutions}
		if stats {
			out.Counters = &c
		}
		line, err := json.Marshal(out)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", line)
		return err
	}
	if !stats {
		_, err = fmt.Fprintln(w, c.Solutions)
		return err
	}
	for _, kv := range [][2]string{
		{"algorithm", s.Name()},
		{"n", fmt.Sprint(n)},
		{"solutions", classic.Group(c.Solutions)},
		{"nodes", classic.Group(c.Nodes)},
		{"tries", classic.Group(c.Tries)},
		{"placed", classic.Group(c.Placed)},
		{"rejected", classic.Group(c.Rejected)},
		{"backtracks", classic.Group(c.Backtracks)},
		{"time", roundDuration(c.Elapsed).String()},
	} {
		if _, err := fmt.Fprintf(w, "%-11s %s\n", kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// groupBig writes a big number exactly with thousands separators, or
// roughly (1.05e+26) when it has more than 30 digits.
func groupBig(v *big.Int) string {
	s := v.String()
	if len(s) > 30 {
		f, _ := new(big.Float).SetInt(v).Float64()
		return fmt.Sprintf("%.3g", f)
	}
	var b strings.Builder
	for i, d := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}
