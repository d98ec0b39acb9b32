#!/bin/sh
# Performance table of the exact counter against the C seed and against
# engine version 3, in markdown.
#
# For each N it times, in the same run and alternating REPS times (default
# 5): the seed (../shared/bench/seed_bitmask.c, cc -O2; only up to SEED_MAX,
# default 17, as it takes 7 minutes at N = 18), engine 3's
# `nqueens count N --workers 1` (built from commit BASELINE, default
# b515944, the last one before engine 4), this tree's `nqueens count N
# --workers 1` (total and unique) and `nqueens count N` on all cores; each
# figure is the minimum over the repetitions, as the machine may be shared.
# Times are wall-clock seconds of the whole process (startup included);
# nodes/s is the engine's search nodes over the one-worker time; peak RSS
# is the largest of the all-workers runs; the engine speed-up is the same
# ratio over the seconds the count itself reports, without the process
# start (about 20 ms, which matters at N = 15). The unique overhead is the
# one-worker time over the same time less the rotation searches that only
# the unique count needs (go test -bench Rotations, one core).
#
# Usage: bench/count.sh [N ...]        (default: 15 16 17)
# Environment: REPS (default 5); SEED_MAX (default 17); BASELINE (a commit,
# default b515944); GOAMD64 (default: Go's default, v1) is passed to go
# build.
# shellcheck disable=SC2046 # set -- $(timeit …) splits "seconds kb" on purpose
set -eu
cd "$(dirname "$0")/.."
ns=${*:-15 16 17}
reps=${REPS:-5}
seedmax=${SEED_MAX:-17}
baseline=${BASELINE:-b515944}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/seed" ../shared/bench/seed_bitmask.c
go build -o "$tmp/nqueens" ./cmd/nqueens
go test -c -o "$tmp/count.test" ./count
mkdir "$tmp/base"
git archive "$baseline" | tar -x -C "$tmp/base"
(cd "$tmp/base" && go build -o "$tmp/nqueens-base" ./cmd/nqueens)
timeit() { # prints "seconds maxrss_kb" of the command, its stdout to $tmp/out
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err"
	cat "$tmp/time"
}
json() { # field of the JSON object in $tmp/out
	sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p" "$tmp/out"
}
least() { # the smaller of a time and the minimum so far (empty at first)
	echo "$1 ${2:-$1}" | awk '{ print ($1 < $2) ? $1 : $2 }'
}
rotations() { # seconds the rotation searches of N take on one core
	"$tmp/count.test" -test.run '^$' -test.bench "Rotations/N=$1\$" -test.benchtime 3x |
		awk '/^Benchmark/ { print $3 / 1e9 }'
}
echo "Machine: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); $(go version | cut -d' ' -f3-); GOAMD64=${GOAMD64:-v1}; $(cc --version | head -1); engine 3 from $baseline"
echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg); each time is the minimum of $reps runs."
echo
echo "| N | seed (s) | engine 3, 1 worker (s) | 1 worker (s) | vs engine 3 | vs seed | all $(nproc) workers (s) | vs seed | speed-up | engine speed-up | unique overhead | nodes | nodes/s (1 worker) | peak RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for n in $ns; do
	seed=; base=; one=; all=; rss=0; eone=; eall=
	for _ in $(seq "$reps"); do
		if [ "$n" -le "$seedmax" ]; then
			set -- $(timeit "$tmp/seed" "$n")
			seed=$(least "$1" "$seed")
		fi
		set -- $(timeit "$tmp/nqueens-base" count "$n" --workers 1 --yes --json)
		base=$(least "$1" "$base")
		btotal=$(json total); bunique=$(json unique)
		set -- $(timeit "$tmp/nqueens" count "$n" --workers 1 --yes --json)
		one=$(least "$1" "$one")
		nodes=$(json nodes); total1=$(json total); unique1=$(json unique)
		eone=$(least "$(json seconds)" "$eone")
		set -- $(timeit "$tmp/nqueens" count "$n" --yes --json)
		all=$(least "$1" "$all")
		rss=$(echo "$2 $rss" | awk '{ print ($1 > $2) ? $1 : $2 }')
		total=$(json total)
		eall=$(least "$(json seconds)" "$eall")
		if [ "$total" != "$total1" ] || [ "$btotal $bunique" != "$total1 $unique1" ]; then
			echo "N=$n: counts differ: $total1 $unique1, all workers $total, engine 3 $btotal $bunique" >&2
			exit 1
		fi
		grep -q "^$n	$total	$unique1\$" ../shared/reference/queens-counts.tsv || { echo "N=$n: $total $unique1 not in the reference" >&2; exit 1; }
	done
	rot=$(rotations "$n")
	awk -v n="$n" -v s="${seed:-0}" -v b="$base" -v o="$one" -v a="$all" -v r="$rot" -v nd="$nodes" -v m="$rss" -v eo="$eone" -v ea="$eall" 'BEGIN {
		ss = "—"; os = "—"; as = "—"
		if (s > 0) { ss = sprintf("%.2f", s); os = sprintf("%.3f", o / s); as = sprintf("%.3f", a / s) }
		printf "| %d | %s | %.3f | %.3f | %.3f | %s | %.3f | %s | %.2f× | %.2f× | %.4f× | %.3g | %.3g | %.0f MB |\n",
			n, ss, b, o, o / b, os, a, as, o / a, eo / ea, o / (o - r), nd, nd / o, m / 1024 }'
done
echo
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
