#!/bin/sh
# An exact count of N in K shards with GNU parallel, on this machine or over
# ssh (add --sshloginfile with a shared ledger folder), then the merge.
# A shard that fails is retried (--retries) and resumes from its ledger.
#
#   deploy/parallel/count.sh 18 8       # N = 18 in 8 shards, one core each
set -eu
N=${1:?usage: count.sh N K}
K=${2:?usage: count.sh N K}
LEDGERS=${LEDGERS:-ledgers}
NQUEENS=${NQUEENS:-nqueens}
mkdir -p "$LEDGERS"
seq 0 $((K - 1)) | parallel --retries 3 --halt never \
	"$NQUEENS" count "$N" --shard {}/"$K" --ledger "$LEDGERS/n$N-shard-{}.jsonl" --workers 1
exec "$NQUEENS" merge "$LEDGERS"/n"$N"-shard-*.jsonl
