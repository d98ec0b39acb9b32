#!/bin/sh
# Performance table of the exact counter against the C seed, in markdown.
#
# For each N it builds ../shared/bench/seed_bitmask.c with cc -O2 and times,
# in the same run and one after another: the seed, `nqueens count N
# --workers 1` (total and unique), and `nqueens count N` on all cores. Times
# are wall-clock seconds of the whole process (startup included); nodes/s is
# the engine's search nodes over the one-worker time; peak memory is the
# maximum RSS of the all-workers run. It then runs the Go benchmarks that
# price the unique count: the rotation searches against the whole count at
# N = 16.
#
# Usage: bench/count.sh [N ...]        (default: 15 16 17)
# Environment: GOAMD64 (default: Go's default, v1) is passed to go build.
set -eu
cd "$(dirname "$0")/.."
ns=${*:-15 16 17}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/seed" ../shared/bench/seed_bitmask.c
go build -o "$tmp/nqueens" ./cmd/nqueens
timeit() { # prints "seconds maxrss_kb" of the command, its stdout to $tmp/out
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err"
	cat "$tmp/time"
}
json() { # field of the JSON object in $tmp/out
	sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p" "$tmp/out"
}
echo "Machine: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); $(go version | cut -d' ' -f3-); GOAMD64=${GOAMD64:-v1}; $(cc --version | head -1)"
echo
echo "| N | seed (s) | 1 worker (s) | ratio | all $(nproc) workers (s) | ratio | speed-up | nodes | nodes/s (1 worker) | peak RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in $ns; do
	set -- $(timeit "$tmp/seed" "$n"); seed=$1
	set -- $(timeit "$tmp/nqueens" count "$n" --workers 1 --yes --json); one=$1
	nodes=$(json nodes); total1=$(json total); unique1=$(json unique)
	set -- $(timeit "$tmp/nqueens" count "$n" --yes --json); all=$1; rss=$2
	total=$(json total)
	[ "$total" = "$total1" ] || { echo "totals differ: $total1 vs $total" >&2; exit 1; }
	grep -q "^$n	$total	$unique1\$" ../shared/reference/queens-counts.tsv || { echo "N=$n: $total $unique1 not in the reference" >&2; exit 1; }
	awk -v n="$n" -v s="$seed" -v o="$one" -v a="$all" -v nd="$nodes" -v m="$rss" 'BEGIN {
		printf "| %d | %.2f | %.3f | %.3f | %.3f | %.3f | %.2f× | %.3g | %.3g | %.0f MB |\n",
			n, s, o, o / s, a, a / s, o / a, nd, nd / o, m / 1024 }'
done
echo
echo "Unique count overhead (go test -bench, one worker, N = 16):"
go test -run '^$' -bench 'Count/N=16|Rotations/N=16' -benchtime 3x ./count |
	awk '/^Benchmark/ { t[$1] = $3 } END {
		for (k in t) if (k ~ /^BenchmarkCount/) c = t[k]; else r = t[k]
		printf "whole count %.3f s, rotation searches %.4f s: total+unique costs %.4f× the total alone\n", c / 1e9, r / 1e9, c / (c - r) }'
