#!/bin/sh
# Times the exact counter, in one run, against its own past and against the
# other counters it is measured by, and prints benchstat's table and the
# ratios of the milestones (docs/engine.md).
#
# For each N it runs, alternating, REPS times (default 3): the seed
# articles' counter (bench/seed_bitmask.c, cc -O2; up to SEED_MAX, default
# 17), `nqueens count N --workers 1` built from the commit BASELINE (default
# 46a4036, the batch search before the join), this tree's `nqueens count N
# --workers 1` and `nqueens count N` on all cores, and, when QUADRANT_SRC
# names a copy of the quadrant join (below) and a C++20 compiler is
# present, that program on one thread. Each run is timed twice over: the
# wall-clock seconds of the whole process and its CPU seconds (user +
# system, to the microsecond, by bench/c/rusage.c), which other work on a
# shared machine stretches far less; each total (and unique count) is
# checked against internal/reference/queens-counts.tsv. The raw figures go to
# bench/out/count-TIME.txt in Go's benchmark format (ns/op the wall time,
# cpu-ns/op the CPU time, peak-kB the peak resident memory), benchstat
# reads them, and the two ratio tables, wall and CPU, take the minimum of
# the repetitions, as the machine may be shared.
#
# The quadrant join is EvgenyKluev/N-Queens-Count-Sol (C++20, MIT), which
# this repository does not carry; the script fetches nothing. Get it once:
#     git clone https://github.com/EvgenyKluev/N-Queens-Count-Sol ~/src/quadrant
#     git -C ~/src/quadrant checkout 580f444
# and run QUADRANT_SRC=~/src/quadrant bench/count.sh. Any copy of its files
# at that commit will do (git archive 580f444 | tar -x -C DIR, say): the
# commit is checked only where DIR is a git checkout. The board size and
# tuning are compile-time settings of its solcounter.h: the script builds a
# copy per N in a scratch folder with its author's table (sieve cuts and
# match sizes from N = 20, BMI2 from N = 19, prefetch on where the table
# has it), -O3 -march=native.
#
# Usage: bench/count.sh [N ...]        (default: 16 17 18 19)
# Environment: REPS (default 3); SEED_MAX (default 17); BASELINE (a commit,
# default 46a4036); ALLCORES (default 1; 0 leaves out the run on all
# cores, to spend a shared machine's time on the one-worker ratios);
# QUADRANT_SRC (default: none); CXX (default c++);
# BENCHSTAT (default: go run golang.org/x/perf/cmd/benchstat at a pinned
# version, downloaded once by the go command).
# shellcheck disable=SC2046 # set -- $(timeit …) splits "seconds kb" on purpose
set -eu
cd "$(dirname "$0")/.."
ns=${*:-16 17 18 19}
reps=${REPS:-3}
seedmax=${SEED_MAX:-17}
baseline=${BASELINE:-46a4036}
quad=${QUADRANT_SRC:-}
allcores=${ALLCORES:-1}
cxx=${CXX:-c++}
benchstat=${BENCHSTAT:-go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da}
ref=internal/reference/queens-counts.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p bench/out
out=bench/out/count-$(date -u +%Y%m%dT%H%M%SZ).txt

cc -O2 -o "$tmp/seed" bench/seed_bitmask.c
cc -O2 -o "$tmp/rusage" bench/c/rusage.c
go build -o "$tmp/nqueens" ./cmd/nqueens
mkdir "$tmp/base"
git archive "$baseline" | tar -x -C "$tmp/base"
(cd "$tmp/base" && go build -o "$tmp/nqueens-base" ./cmd/nqueens)

# The quadrant join, one binary per N.
if [ -n "$quad" ]; then
	if ! echo 'int main() {}' | "$cxx" -std=c++20 -x c++ -fsyntax-only - 2>/dev/null; then
		echo "bench/count.sh: $cxx takes no -std=c++20; the quadrant join is left out" >&2
		quad=
	elif [ ! -f "$quad/solcounter.h" ]; then
		echo "bench/count.sh: $quad has no solcounter.h; the quadrant join is left out" >&2
		quad=
	elif [ -d "$quad/.git" ] && ! git -C "$quad" rev-parse HEAD | grep -q '^580f444'; then
		echo "bench/count.sh: $quad is not at commit 580f444, the one measured in docs/engine.md" >&2
	fi
fi
buildquad() { # N: builds $tmp/quadrant-N with its author's settings for N
	n=$1 cuts=0 min=40 bmi=false prefetch=true
	[ "$n" -ge 19 ] && bmi=true
	[ "$n" -ge 20 ] && cuts=3 min=60
	[ "$n" -eq 21 ] && prefetch=false
	[ "$n" -ge 22 ] && cuts=6 min=80
	d=$tmp/q$n
	cp -r "$quad" "$d"
	sed -i "s/inline constexpr int size = [0-9]*;/inline constexpr int size = $n;/;
		s/\.sieveCuts = [0-9]*,/.sieveCuts = $cuts,/; s/\.matchMinSize = [0-9]*,/.matchMinSize = $min,/;
		s/\.bmiIntrin = [a-z]*,/.bmiIntrin = $bmi,/; s/\.prefetch = [a-z]*,/.prefetch = $prefetch,/" "$d/solcounter.h"
	sed -i 's|^//#include "prefetchx86.h"|#include "prefetchx86.h"|' "$d/prefetch.h"
	if [ "$bmi" = true ]; then
		sed -i 's|^//#include "bmi2.h"|#include "bmi2.h"|' "$d/bmintrin.h"
	fi
	"$cxx" -std=c++20 -O3 -march=native -o "$tmp/quadrant-$n" "$d/main.cpp" -lpthread
}
if [ -n "$quad" ]; then
	for n in $ns; do buildquad "$n"; done
fi

timeit() { # prints "seconds maxrss_kb cpu_seconds" of the command, its stdout to $tmp/out
	t0=$(date +%s%N)
	"$tmp/rusage" "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err" || {
		echo "bench/count.sh: $* failed: $(cat "$tmp/err")" >&2
		exit 1
	}
	t1=$(date +%s%N)
	echo "$(((t1 - t0) / 1000)) $(cat "$tmp/time")" | awk '{ print $1 / 1e6, $2, $3 + $4 }'
}
json() { # field of the JSON object in $tmp/out
	sed -n "s/.*\"$1\":\"*\([0-9.e+-]*\).*/\1/p" "$tmp/out"
}
want() { # N: "total unique" of the table
	awk -v n="$1" '$1 == n { print $2, $3 }' "$ref"
}
record() { # N impl seconds kb cpu_seconds: one benchmark line
	echo "BenchmarkCount/n=$1/impl=$2 1 $(echo "$3" | awk '{ printf "%.0f", $1 * 1e9 }') ns/op $4 peak-kB $(echo "$5" | awk '{ printf "%.0f", $1 * 1e9 }') cpu-ns/op" >>"$out"
}

{
	echo "goos: linux"
	echo "goarch: $(go env GOARCH)"
	echo "cpu: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) cores"
	echo "# $(date -u +%Y-%m-%dT%H:%MZ); this tree at $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench' || echo ' (with changes)'); $(go version | cut -d' ' -f3-); baseline $baseline; load average before $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out"
for rep in $(seq "$reps"); do
	for n in $ns; do
		set -- $(want "$n")
		total=$1 unique=$2
		if [ "$n" -le "$seedmax" ]; then
			set -- $(timeit "$tmp/seed" "$n")
			[ "$(cat "$tmp/out")" = "$n $total" ] || { echo "seed N=$n: $(cat "$tmp/out"), want $total" >&2; exit 1; }
			record "$n" seed "$1" "$2" "$3"
		fi
		set -- $(timeit "$tmp/nqueens-base" count "$n" --workers 1 --yes --json)
		[ "$(json total) $(json unique)" = "$total $unique" ] || { echo "$baseline N=$n: $(cat "$tmp/out")" >&2; exit 1; }
		record "$n" "$baseline-1w" "$1" "$2" "$3"
		set -- $(timeit "$tmp/nqueens" count "$n" --workers 1 --yes --json)
		[ "$(json total) $(json unique)" = "$total $unique" ] || { echo "nqueens N=$n: $(cat "$tmp/out")" >&2; exit 1; }
		record "$n" nqueens-1w "$1" "$2" "$3"
		if [ "$allcores" != 0 ]; then
			set -- $(timeit "$tmp/nqueens" count "$n" --yes --json)
			[ "$(json total) $(json unique)" = "$total $unique" ] || { echo "nqueens N=$n: $(cat "$tmp/out")" >&2; exit 1; }
			record "$n" "nqueens-$(nproc)w" "$1" "$2" "$3"
		fi
		if [ -n "$quad" ]; then
			set -- $(timeit "$tmp/quadrant-$n" 1)
			grep -q "^Result: $total\$" "$tmp/out" || { echo "quadrant N=$n: $(cat "$tmp/out"), want $total" >&2; exit 1; }
			record "$n" quadrant-1t "$1" "$2" "$3"
		fi
	done
	echo "bench/count.sh: repetition $rep of $reps done (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
done
echo "# load average after $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out"

head -4 "$out" | sed 's/^# //'
tail -1 "$out" | sed 's/^# //'
echo "Raw figures: $out"
echo
# benchstat: medians and their spread, each column against the first (the
# quadrant join if it ran, else the baseline); the seed only in the table
# below.
cols="$baseline-1w nqueens-1w"
[ "$allcores" != 0 ] && cols="$cols nqueens-$(nproc)w"
[ -n "$quad" ] && cols="quadrant-1t $cols"
$benchstat -col "/impl@($cols)" -filter '-/impl:seed' "$out"
echo
table() { # field last: the ratio table of the minimum of each N and counter, by that field (3 wall, 7 CPU)
	awk -v field="$1" -v last="$2" -v base="$baseline-1w" -v all="nqueens-$(nproc)w" -v w="$(nproc)" '
/^BenchmarkCount/ {
	split($1, f, "/"); n = substr(f[2], 3); impl = substr(f[3], 6); s = $field / 1e9
	if (!((n, impl) in t) || s < t[n, impl]) t[n, impl] = s
	ns[n] = 1
}
function v(n, impl) { return ((n, impl) in t) ? t[n, impl] : 0 }
function sec(x) { return x > 0 ? sprintf("%.3f", x) : "—" }
function ratio(a, b) { return (a > 0 && b > 0) ? sprintf("%.3f", a / b) : "—" }
END {
	printf "| N | seed | %s | nqueens 1 worker | nqueens %d workers | quadrant join, 1 thread | 1 worker / quadrant | 1 worker / %s | %s |\n", base, w, base, last
	print "|---|---|---|---|---|---|---|---|---|"
	k = 0
	for (n in ns) order[k++] = n + 0
	for (i = 0; i < k; i++) for (j = i + 1; j < k; j++) if (order[j] < order[i]) { x = order[i]; order[i] = order[j]; order[j] = x }
	for (i = 0; i < k; i++) {
		n = order[i]; one = v(n, "nqueens-1w"); many = v(n, all)
		printf "| %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", n, sec(v(n, "seed")), sec(v(n, base)), sec(one), sec(many),
			sec(v(n, "quadrant-1t")), ratio(one, v(n, "quadrant-1t")), ratio(one, v(n, base)), (many > 0 ? sprintf("%.2f×", one / many) : "—")
	}
}' "$out"
}
echo "Minimum of $reps alternating runs (wall seconds of the whole process):"
echo
table 3 "$(nproc) workers speed-up"
echo
echo "Minimum of $reps alternating runs (CPU seconds, user + system, of the whole process):"
echo
table 7 "1 worker / $(nproc) workers"
