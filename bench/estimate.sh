#!/bin/sh
# Holds the join's estimate of one worker's time to a real count's, both in
# CPU time, so that a busy machine stretches neither: for each N, `nqueens
# estimate N --json` (its seconds_one_worker and the spread of its probes'
# pairs) and `nqueens count N --workers 1` under /usr/bin/time (user +
# system seconds of the process), and their ratio, which issue 35 wants
# within 0.75 to 1.25. The estimates' seeds are 1 to SEEDS (default 2).
#
# Usage: bench/estimate.sh [N ...]     (default: 19 20 21; N = 21 counts
# for about 6 minutes of CPU, N = 22 for about 2 hours)
# Environment: SEEDS (default 2).
set -eu
cd "$(dirname "$0")/.."
ns=${*:-19 20 21}
seeds=${SEEDS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/nqueens" ./cmd/nqueens
echo "commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-4s %-6s %12s %12s %7s\n' N seed estimate_s count_cpu_s ratio
for n in $ns; do
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$tmp/nqueens" count "$n" --workers 1 --quiet --yes >/dev/null
	cpu=$(awk '{print $1 + $2}' "$tmp/time")
	seed=1
	while [ "$seed" -le "$seeds" ]; do
		est=$("$tmp/nqueens" estimate "$n" --json --seed "$seed" | sed 's/.*"seconds_one_worker":\([0-9.e+]*\).*/\1/')
		awk -v n="$n" -v s="$seed" -v e="$est" -v c="$cpu" 'BEGIN { printf "%-4s %-6s %12.2f %12.2f %7.2f\n", n, s, e, c, e / c }'
		seed=$((seed + 1))
	done
done
