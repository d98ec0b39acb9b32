#!/bin/sh
# An exact count of N in K shards with GNU parallel, on this machine or over
# ssh (add --sshloginfile with a shared ledger folder), then the merge.
# A shard that fails is retried (--retries) and resumes from its ledger.
#
#   deploy/parallel/count.sh 18 8       # N = 18 in 8 shards, one core each
set -eu
N=${1:?usage: count.sh N K}
K=${2:?usage: count.sh N K}
case $K in
'' | *[!0-9]* | 0*)
	echo "count.sh: K must be a whole number from 1, got \"$K\"" >&2
	exit 2
	;;
esac
LEDGERS=${LEDGERS:-ledgers}
NQUEENS=${NQUEENS:-nqueens}
mkdir -p "$LEDGERS"
# -q: parallel passes each argument as it is, instead of joining them into
# one shell command (which splits a path with a space in it).
# A shard that still fails after its retries is left to merge, which lists
# exactly the units missing, and exits 1.
seq 0 $((K - 1)) | parallel -q --retries 3 --halt never \
	"$NQUEENS" count "$N" --shard {}/"$K" --ledger "$LEDGERS/n$N-shard-{}.jsonl" --workers 1 ||
	echo "count.sh: parallel exited with status $? (the number of shards that failed); merge lists the missing units" >&2
exec "$NQUEENS" merge "$LEDGERS"/n"$N"-shard-*.jsonl
