#!/bin/sh
# Speed of `nqueens list` against the plain C enumerator, in one run.
#
# Builds bench/c/seed_list.c (the seed articles' bitmask search printing
# every solution, one core, cc -O2), this tree's nqueens, and nqueens at
# commit BASELINE (default 46a4036, the one-solution-at-a-time listing),
# then times, alternating REPS times (default 3) and keeping the minimum of
# each, as the machine may be shared:
#   seed_list N > /dev/null
#   nqueens list N --workers W > /dev/null                (W default 2)
#   nqueens(BASELINE) list N --unique --json > /dev/null
#   nqueens list N --unique --json --workers W > /dev/null
# and prints the two ratios the listing is held to, with the peak RSS of
# this tree's runs. The timed runs write to /dev/null, as the goals say
# (hashing 590 MB on the way would take a core from a two-worker run);
# before them, one untimed run of each is checked: the same bytes as the
# seed's (list) and as the baseline's (unique, json), by SHA-256.
# With LAST=M (say 18) it also runs `nqueens list M | tail -1`, checks the
# last line (the mirror image of the first) and prints its time and RSS.
#
# Usage: bench/list.sh [N]        (default 16)
# Environment: REPS, W, BASELINE, LAST; GOAMD64 is passed to go build.
# shellcheck disable=SC2046 # set -- $(timeit …) splits "seconds kb" on purpose
set -eu
cd "$(dirname "$0")/.."
n=${1:-16}
reps=${REPS:-3}
w=${W:-2}
baseline=${BASELINE:-46a4036}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/seed_list" bench/c/seed_list.c
go build -o "$tmp/nqueens" ./cmd/nqueens
mkdir "$tmp/base"
git archive "$baseline" | tar -x -C "$tmp/base"
(cd "$tmp/base" && go build -o "$tmp/nqueens-base" ./cmd/nqueens)
timeit() { # prints "seconds maxrss_kb" of the command, its stdout to /dev/null
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" 2>"$tmp/err" >/dev/null
	cat "$tmp/time"
}
sum() { # writes the SHA-256 of the command's stdout to $tmp/sum
	"$@" 2>"$tmp/err" | sha256sum >"$tmp/sum"
}
least() { # the smaller of a time and the minimum so far (empty at first)
	echo "$1 ${2:-$1}" | awk '{ print ($1 < $2) ? $1 : $2 }'
}
most() { echo "$1 ${2:-0}" | awk '{ print ($1 > $2) ? $1 : $2 }'; }
same() { # checks that $tmp/sum equals the sum in $1
	if ! cmp -s "$tmp/sum" "$1"; then
		echo "N=$n: $2 differs from its reference" >&2
		exit 1
	fi
}
echo "Machine: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); $(go version | cut -d' ' -f3-); GOAMD64=${GOAMD64:-v1}; $(cc --version | head -1); baseline $baseline"
echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg); each time is the minimum of $reps runs, alternating."
sum "$tmp/seed_list" "$n"
cp "$tmp/sum" "$tmp/seed.sum"
sum "$tmp/nqueens" list "$n" --workers "$w"
same "$tmp/seed.sum" "list $n"
sum "$tmp/nqueens-base" list "$n" --unique --json
cp "$tmp/sum" "$tmp/base.sum"
sum "$tmp/nqueens" list "$n" --unique --json --workers "$w"
same "$tmp/base.sum" "list $n --unique --json"
seed=; list=; base=; uniq=; rss=0
for _ in $(seq "$reps"); do
	set -- $(timeit "$tmp/seed_list" "$n")
	seed=$(least "$1" "$seed")
	set -- $(timeit "$tmp/nqueens" list "$n" --workers "$w")
	list=$(least "$1" "$list")
	rss=$(most "$2" "$rss")
	set -- $(timeit "$tmp/nqueens-base" list "$n" --unique --json)
	base=$(least "$1" "$base")
	set -- $(timeit "$tmp/nqueens" list "$n" --unique --json --workers "$w")
	uniq=$(least "$1" "$uniq")
	rss=$(most "$2" "$rss")
done
echo
echo "| run | seconds | ratio | goal |"
echo "|---|---|---|---|"
awk -v n="$n" -v w="$w" -v s="$seed" -v l="$list" -v b="$base" -v u="$uniq" -v bl="$baseline" '
	function ratio(a, b) { return b > 0 ? sprintf("%.3f", a / b) : "—" }
	BEGIN {
	printf "| seed_list %d > /dev/null | %.2f | 1 | |\n", n, s
	printf "| nqueens list %d --workers %d > /dev/null | %.2f | %s of seed_list | at most 0.25 |\n", n, w, l, ratio(l, s)
	printf "| nqueens %s list %d --unique --json | %.2f | 1 | |\n", bl, n, b
	printf "| nqueens list %d --unique --json --workers %d | %.2f | %s of %s | at most 0.1 |\n", n, w, u, ratio(u, b), bl }'
echo
echo "Peak RSS of this tree's listings: $((rss / 1024)) MB."
if [ -n "${LAST:-}" ]; then
	first=$("$tmp/nqueens" list "$LAST" --limit 1)
	want=$(echo "$first" | awk -v m="$LAST" '{ for (i = 1; i <= NF; i++) printf "%s%d", (i > 1 ? " " : ""), m + 1 - $i; print "" }')
	/usr/bin/time -f '%e %M' -o "$tmp/time" sh -c "\"$tmp/nqueens\" list $LAST --workers $w | tail -1 > \"$tmp/last\""
	set -- $(cat "$tmp/time")
	got=$(cat "$tmp/last")
	if [ "$got" != "$want" ]; then
		echo "list $LAST: last line $got, want $want" >&2
		exit 1
	fi
	echo "nqueens list $LAST | tail -1: $got, right (the mirror of the first line), in $1 s, peak RSS $(($2 / 1024)) MB."
fi
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
