#!/bin/sh
# Holds the join's estimate of one worker's time to a real count's, both in
# CPU time, so that a busy machine stretches neither: for each N, `nqueens
# estimate N --json` (its seconds_one_worker and the spread of its probes'
# pairs, nodes_stderr / nodes) and `nqueens count N --workers 1` under
# bench/c/rusage.c (user + system seconds of the process, to the
# microsecond), and their ratio, which issue 35 wants within 0.75 to 1.25.
# The estimates' seeds are 1 to SEEDS (default 2). Each row also says the
# load average when its count started. The table, with this tree's commit,
# the date and the load, goes to stdout and to bench/out/estimate-TIME.txt.
#
# Usage: bench/estimate.sh [N ...]     (default: 19 20 21; N = 21 counts
# for about 6 minutes of CPU, N = 22 for about 2 hours)
# Environment: SEEDS (default 2).
set -eu
cd "$(dirname "$0")/.."
ns=${*:-19 20 21}
seeds=${SEEDS:-2}
. bench/table.sh
table_start estimate
say "$(printf '%-4s %-6s %12s %9s %12s %7s %6s' N seed estimate_s pairs_se count_cpu_s ratio load)"
for n in $ns; do
	load=$(cut -d' ' -f1 /proc/loadavg)
	"$tmp/rusage" "$tmp/time" "$tmp/nqueens" count "$n" --workers 1 --quiet --yes >/dev/null
	cpu=$(awk '{print $2 + $3}' "$tmp/time")
	seed=1
	while [ "$seed" -le "$seeds" ]; do
		"$tmp/nqueens" estimate "$n" --json --seed "$seed" >"$tmp/est"
		est=$(field seconds_one_worker "$tmp/est")
		nodes=$(field nodes "$tmp/est")
		se=$(field nodes_stderr "$tmp/est")
		say "$(awk -v n="$n" -v s="$seed" -v e="$est" -v c="$cpu" -v p="$nodes" -v q="$se" -v l="$load" \
			'BEGIN { printf "%-4s %-6s %12.2f %8.1f%% %12.2f %7.2f %6s", n, s, e, 100 * q / p, c, e / c, l }')"
		seed=$((seed + 1))
	done
done
table_end
