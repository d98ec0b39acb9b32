#!/bin/sh
# Performance table of the exact counter against the C seed, in markdown.
#
# For each N it builds ../shared/bench/seed_bitmask.c with cc -O2 and times,
# in the same run and alternating REPS times (default 5): the seed,
# `nqueens count N --workers 1` (total and unique) and `nqueens count N` on
# all cores; each figure is the minimum over the repetitions, as the machine
# may be shared. Times are wall-clock seconds of the whole process (startup
# included); nodes/s is the engine's search nodes over the one-worker time;
# peak RSS is the largest of the all-workers runs; the engine speed-up is
# the same ratio over the seconds the count itself reports, without the
# process start (about 20 ms, which matters at N = 15). The unique overhead
# is the one-worker time over the same time less the rotation searches that
# only the unique count needs (go test -bench Rotations, one core).
#
# Usage: bench/count.sh [N ...]        (default: 15 16 17)
# Environment: REPS (default 5); GOAMD64 (default: Go's default, v1) is
# passed to go build.
set -eu
cd "$(dirname "$0")/.."
ns=${*:-15 16 17}
reps=${REPS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/seed" ../shared/bench/seed_bitmask.c
go build -o "$tmp/nqueens" ./cmd/nqueens
go test -c -o "$tmp/count.test" ./count
timeit() { # prints "seconds maxrss_kb" of the command, its stdout to $tmp/out
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err"
	cat "$tmp/time"
}
json() { # field of the JSON object in $tmp/out
	sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p" "$tmp/out"
}
rotations() { # seconds the rotation searches of N take on one core
	"$tmp/count.test" -test.run '^$' -test.bench "Rotations/N=$1\$" -test.benchtime 3x |
		awk '/^Benchmark/ { print $3 / 1e9 }'
}
echo "Machine: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); $(go version | cut -d' ' -f3-); GOAMD64=${GOAMD64:-v1}; $(cc --version | head -1)"
echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg); each time is the minimum of $reps runs."
echo
echo "| N | seed (s) | 1 worker (s) | ratio | all $(nproc) workers (s) | ratio | speed-up | engine speed-up | unique overhead | nodes | nodes/s (1 worker) | peak RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for n in $ns; do
	seed=; one=; all=; rss=0; eone=; eall=
	for _ in $(seq "$reps"); do
		set -- $(timeit "$tmp/seed" "$n")
		seed=$(echo "$1 ${seed:-$1}" | awk '{ print ($1 < $2) ? $1 : $2 }')
		set -- $(timeit "$tmp/nqueens" count "$n" --workers 1 --yes --json)
		one=$(echo "$1 ${one:-$1}" | awk '{ print ($1 < $2) ? $1 : $2 }')
		nodes=$(json nodes); total1=$(json total); unique1=$(json unique)
		e=$(json seconds); eone=$(echo "$e ${eone:-$e}" | awk '{ print ($1 < $2) ? $1 : $2 }')
		set -- $(timeit "$tmp/nqueens" count "$n" --yes --json)
		all=$(echo "$1 ${all:-$1}" | awk '{ print ($1 < $2) ? $1 : $2 }')
		rss=$(echo "$2 $rss" | awk '{ print ($1 > $2) ? $1 : $2 }')
		total=$(json total)
		e=$(json seconds); eall=$(echo "$e ${eall:-$e}" | awk '{ print ($1 < $2) ? $1 : $2 }')
		[ "$total" = "$total1" ] || { echo "totals differ: $total1 vs $total" >&2; exit 1; }
		grep -q "^$n	$total	$unique1\$" ../shared/reference/queens-counts.tsv || { echo "N=$n: $total $unique1 not in the reference" >&2; exit 1; }
	done
	rot=$(rotations "$n")
	awk -v n="$n" -v s="$seed" -v o="$one" -v a="$all" -v r="$rot" -v nd="$nodes" -v m="$rss" -v eo="$eone" -v ea="$eall" 'BEGIN {
		printf "| %d | %.2f | %.3f | %.3f | %.3f | %.3f | %.2f× | %.2f× | %.4f× | %.3g | %.3g | %.0f MB |\n",
			n, s, o, o / s, a, a / s, o / a, eo / ea, o / (o - r), nd, nd / o, m / 1024 }'
done
echo
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
