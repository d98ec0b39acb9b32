#!/bin/sh
# Prints the performance table of random solutions (N = 10^5 … 10^8: time,
# peak memory, construction beside it as the floor) and of completion on
# generated hard instances (n = 18, 20, 21: median and worst), in markdown.
# Usage: bench/solve.sh [-sizes 100000,1000000] [-instances 15]
set -eu
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/solve-bench" ./bench/solve
"$bin/solve-bench" "$@"
