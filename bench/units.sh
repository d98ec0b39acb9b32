#!/bin/sh
# Checks the join's estimate on a handful of full units: for each shard I/K
# of N, `nqueens estimate N --shard I/K --json` forecasts the CPU time of
# one worker on the shard's units from probes of its own row sets, then
# `nqueens count N --shard I/K --workers 1` counts those units in full
# under bench/c/rusage.c (user + system seconds of the process). Each row
# gives both, their ratio (issue 35 wants 0.75 to 1.25), the pairs the
# estimate forecast against those the count compared, and what the
# estimate of the whole of N says the shard takes (its seconds per pair
# times the shard's pairs). A last line adds up all the units counted,
# every K-th unit from I on, a systematic sample, and scales them to the
# whole of N against the estimate of the whole. The table, with this
# tree's commit, the date and the load, goes to stdout and to
# bench/out/units-TIME.txt.
#
# Usage: bench/units.sh N K I...     (default: 23 512 0 1 2: three shards
# of 9 units each, about 45 s of CPU apiece at N = 23)
set -eu
cd "$(dirname "$0")/.."
n=${1:-23}
k=${2:-512}
[ $# -ge 2 ] && shift 2 || set --
shards=${*:-0 1 2}
. bench/table.sh
table_start units
"$tmp/nqueens" estimate "$n" --json >"$tmp/whole"
wholes=$(field seconds_one_worker "$tmp/whole")
wholep=$(field nodes "$tmp/whole")
say "N = $n, the whole: $(field units "$tmp/whole") units, estimate $wholes s on one worker, $wholep pairs ($(field probes "$tmp/whole") probes, seed 1)"
say "$(printf '%-8s %5s %11s %11s %6s %10s %10s %6s %11s %6s %5s' shard units estimate_s count_cpu_s ratio est_pairs pairs ratio by_whole_s ratio load)"
for i in $shards; do
	load=$(cut -d' ' -f1 /proc/loadavg)
	"$tmp/nqueens" estimate "$n" --shard "$i/$k" --json >"$tmp/est"
	est=$(field seconds_one_worker "$tmp/est")
	estp=$(field nodes "$tmp/est")
	units=$(field units "$tmp/est")
	rm -f "$tmp/ledger"
	# A seal key of its own, made in $tmp, not the user's.
	XDG_CONFIG_HOME=$tmp/config "$tmp/rusage" "$tmp/time" "$tmp/nqueens" count "$n" --shard "$i/$k" \
		--ledger "$tmp/ledger" --workers 1 --quiet --yes >/dev/null
	cpu=$(awk '{print $2 + $3}' "$tmp/time")
	# The pairs of every record of the ledger (one per sync).
	pairs=$(sed -n 's/.*"subtotal":[0-9]*,"nodes":\([0-9]*\).*/\1/p' "$tmp/ledger" | awk '{s += $1} END {printf "%.0f", s}')
	echo "$units $cpu $pairs" >>"$tmp/sums"
	say "$(awk -v sh="$i/$k" -v u="$units" -v e="$est" -v c="$cpu" -v ep="$estp" -v p="$pairs" -v ws="$wholes" -v wp="$wholep" -v l="$load" \
		'BEGIN { w = ws * p / wp; printf "%-8s %5d %11.2f %11.2f %6.2f %10.3g %10.3g %6.2f %11.2f %6.2f %5s", sh, u, e, c, e / c, ep, p, ep / p, w, w / c, l }')"
done
# All the units counted, scaled to the whole of N, against the estimate of
# the whole: the shards are every K-th unit, a systematic sample.
say "$(awk -v all="$(field units "$tmp/whole")" -v ws="$wholes" -v wp="$wholep" \
	'{u += $1; c += $2; p += $3} END { printf "all %d units counted: %.2f s of CPU, %.4g pairs; scaled to the %d units of N: %.4g s (the whole estimate / it: %.2f), %.4g pairs (%.2f)", u, c, p, all, c * all / u, ws / (c * all / u), p * all / u, wp / (p * all / u) }' "$tmp/sums")"
table_end
