#!/bin/sh
# Speed of the variants (issue 26): the work rate of each variant against the
# plain counter's, and the wall time of the targets, in markdown.
#
# Part 1 runs go test -bench 'Variants|PlainCounter' in package variant (one
# worker each, BENCHTIME, default 3x) and prints each variant's search nodes
# per second and its ratio to the plain counter's (count's tree search,
# N = 15, one worker: the join that counts N = 15 compares pairs, not nodes).
# Nodes differ in kind (the plain counter branches on the row with the
# fewest free squares; the variants fill rows in order, with knight masks or
# rows left empty), so the ratio is of work rates, not of times.
#
# Part 2 times, with the nqueens command on all cores, the minimum of REPS
# runs (default 3): count 19 --torus, count 18 --super, and dominate N
# --count, plain and --independent, for N = 8 … 12; each target is 60 s.
# The machine may be shared: the load average is printed before and after.
#
# Usage: bench/variants.sh        Environment: REPS, BENCHTIME.
set -eu
cd "$(dirname "$0")/.."
reps=${REPS:-3}
benchtime=${BENCHTIME:-3x}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/nqueens" ./cmd/nqueens
echo "Machine: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); $(go version | cut -d' ' -f3-)"
echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
go test -run '^$' -bench 'Variants|PlainCounter' -benchtime "$benchtime" ./variant >"$tmp/bench"
echo "| variant (1 worker) | nodes | nodes/s | vs plain counter |"
echo "|---|---|---|---|"
awk '
/^BenchmarkPlainCounter/ { for (i = 1; i < NF; i++) if ($(i+1) == "nodes/s") plain = $i }
/^Benchmark/ { name = $1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
	for (i = 1; i < NF; i++) { if ($(i+1) == "nodes/s") rate[name] = $i; if ($(i+1) == "nodes/op") nodes[name] = $i }
	order[++n] = name }
END { for (k = 1; k <= n; k++) { m = order[k]; printf "| %s | %.3g | %.3g | %.2f |\n", m, nodes[m], rate[m], rate[m] / plain } }
' "$tmp/bench"
echo
least() { echo "$1 ${2:-$1}" | awk '{ print ($1 < $2) ? $1 : $2 }'; }
timeit() { # prints the least wall-clock seconds of REPS runs of the command
	best=
	for _ in $(seq "$reps"); do
		/usr/bin/time -f '%e' -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err"
		best=$(least "$(cat "$tmp/time")" "$best")
	done
	echo "$best"
}
echo "| run (all $(nproc) workers) | seconds (least of $reps) | target | result |"
echo "|---|---|---|---|"
for run in "count 19 --torus" "count 18 --super"; do
	# shellcheck disable=SC2086 # the run's words are its arguments
	s=$(timeit "$tmp/nqueens" $run --quiet)
	echo "| nqueens $run | $s | 60 | $(head -1 "$tmp/out" | cut -d' ' -f2) |"
done
for n in 8 9 10 11 12; do
	for flag in "" "--independent"; do
		# shellcheck disable=SC2086
		s=$(timeit "$tmp/nqueens" dominate "$n" --count $flag)
		echo "| nqueens dominate $n --count $flag | $s | 60 | minimum $(head -1 "$tmp/out" | cut -d' ' -f2), $(tail -1 "$tmp/out" | cut -d' ' -f1-2) |"
	done
done
echo
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
