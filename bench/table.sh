# Sourced by bench/estimate.sh and bench/units.sh, which print a table of
# estimates against counts in CPU time: what they share. table_start NAME
# makes a scratch folder $tmp (removed on exit), builds this tree's
# nqueens and bench/c/rusage.c into it, and opens the table
# bench/out/NAME-TIME.txt ($out) with this tree's commit, the date and
# the load; say writes a line of it to stdout and to $out; field reads a
# number of a JSON object; table_end closes the table with the load after.

table_start() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p bench/out
	out=bench/out/$1-$(date -u +%Y%m%dT%H%M%SZ).txt
	go build -o "$tmp/nqueens" ./cmd/nqueens
	cc -O2 -o "$tmp/rusage" bench/c/rusage.c
	changes=$(git diff --quiet HEAD -- . ':!bench' || echo ' (with changes)')
	say "commit $(git rev-parse --short HEAD)$changes, $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
}

say() { # a line of the table, on stdout and in $out
	echo "$*" | tee -a "$out"
}

field() { # field NAME FILE: a number of the JSON object in FILE
	sed "s/.*\"$1\":\([0-9.e+-]*\).*/\1/" "$2"
}

table_end() {
	say "load after $(cut -d' ' -f1-3 /proc/loadavg); the table is in $out"
}
