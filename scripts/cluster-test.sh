#!/usr/bin/env bash
# Runs deploy/ on real engines, on this machine (see deploy/README.md):
#   1. the Go tests of deploy/ (a module of its own): the Kubernetes
#      manifests decoded strictly and checked against the CLI, the
#      Dockerfile's build, and the NATS work queue across processes on a
#      standalone nats-server with TLS and NKey users;
#   2. Slurm: a one-node cluster (deploy/slurm/testing/one-node.sh), the
#      array of count-array.sbatch for N = 15 in 4 shards and merge.sbatch
#      after it, a task requeued while it holds a unit (a test build of
#      nqueens, see internal/faults), a lost ledger named by merge;
#   3. GNU parallel: deploy/parallel/count.sh.
# As root it installs what is missing (slurm-wlm, munge, parallel) from
# Debian. A part that cannot run here (not root, no Slurm) is skipped with a
# message, unless CI is set: then it fails. Every daemon it starts is
# stopped on exit. CLUSTER_TEST_KEEP=1 keeps its folder of logs and ledgers.
#
#   scripts/cluster-test.sh                  # all three parts
#   sudo scripts/cluster-test.sh slurm       # only some: go, slurm, parallel
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
parts=" ${*:-go slurm parallel} "
for p in $parts; do
	case $p in
	go | slurm | parallel) ;;
	*)
		echo "usage: cluster-test.sh [go] [slurm] [parallel]" >&2
		exit 2
		;;
	esac
done
# want PART: whether PART was asked for.
want() { [[ $parts == *" $1 "* ]]; }

say() { echo "cluster-test: $*" >&2; }
step() { printf '\ncluster-test: == %s ==\n' "$*" >&2; }
fail() {
	say "FAIL: $*"
	exit 1
}
# skip reports a part that cannot run on this machine; under CI every part
# must run.
skipped=
skip() {
	[ -z "${CI:-}" ] || fail "$* (CI is set, so nothing may be skipped)"
	say "SKIPPED: $*"
	skipped+=" ${1%%:*}"
}
elapsed() { echo "$((SECONDS - $1)) s"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/nqueens-cluster-test.XXXXXX")
# The seal key the runs make on first use and share (jobs get it with
# --export=ALL), in a folder of the test's, not the user's.
export XDG_CONFIG_HOME=$work/config
slurm_dir=
cleanup() {
	local rc=$?
	if [ -n "$slurm_dir" ]; then
		"$repo/deploy/slurm/testing/one-node.sh" stop "$slurm_dir" || rc=1
	fi
	if [ -n "${CLUSTER_TEST_KEEP:-}" ] || [ "$rc" != 0 ]; then
		say "logs, ledgers and Slurm files kept in $work"
	else
		rm -rf "$work"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

total_start=$SECONDS

if want go; then
	step "1. Go tests of deploy/: manifests, Dockerfile, NATS across processes"
	t=$SECONDS
	# -count=1: the tests run programs built from the nqueens module, which
	# go test does not see change, so a cached pass could be stale. No
	# -race: the tests' concurrency is in the processes they start, and
	# instrumenting k8s.io/api costs minutes on a cold build cache.
	(cd deploy && go vet ./... && go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./... && go test -count=1 ./...)
	say "deploy/ Go tests passed in $(elapsed "$t")"
fi

# What the engines need, installed as root when missing.
t=$SECONDS
missing=()
if want slurm; then
	for c in sbatch slurmctld slurmd; do command -v "$c" >/dev/null || { missing+=(slurm-wlm); break; }; done
	command -v munged >/dev/null || missing+=(munge)
fi
if want parallel && ! command -v parallel >/dev/null; then
	missing+=(parallel)
fi
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	step "installing ${missing[*]} from Debian"
	apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	say "installed in $(elapsed "$t")"
fi

# Which engine parts can run here.
run_slurm='' run_parallel=''
if ! want slurm; then
	:
elif ! command -v sbatch >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
	skip "Slurm: slurm-wlm and munge are not installed, and only root may install them here"
elif [ "$(id -u)" != 0 ]; then
	skip "Slurm: slurmd must run as root; run this script with sudo to try deploy/slurm"
else
	run_slurm=1
fi
if ! want parallel; then
	:
elif ! command -v parallel >/dev/null; then
	skip "GNU parallel: not installed, and only root may install it here"
else
	run_parallel=1
fi

nqueens=$work/bin/nqueens
nqueens_faults=$work/bin/nqueens-faults
if [ -n "$run_slurm$run_parallel" ]; then
	step "building nqueens"
	go build -o "$nqueens" ./cmd/nqueens
fi
if [ -n "$run_slurm" ]; then
	go build -tags nqueens_faults -o "$nqueens_faults" ./cmd/nqueens
fi

# published N prints "total unique" from the project's reference table
# (OEIS A000170 and A002562).
published() { awk -v n="$1" '$1 == n { print "total " $2 "\nunique " $3 }' "$repo/internal/reference/queens-counts.tsv"; }
# check_total N FILE: FILE holds exactly the published total and unique of N.
check_total() {
	local want
	want=$(published "$1")
	[ "$(cat "$2")" = "$want" ] || fail "N = $1: $2 says \"$(tr '\n' ' ' <"$2")\", want \"$(echo "$want" | tr '\n' ' ')\""
	say "N = $1: $(tr '\n' ' ' <"$2")(published: $(echo "$want" | tr '\n' ' '| sed 's/ $//'))"
}

slurm_part() {
	local part=$SECONDS
	slurm_dir=$work/slurm
	"$repo/deploy/slurm/testing/one-node.sh" start "$slurm_dir"
	export SLURM_CONF=$slurm_dir/slurm.conf
	local jobs=$work/slurm-jobs
	mkdir -p "$jobs"
	cd "$jobs"
	# On a small machine: one core a task, instead of the script's 8.
	local sbatch_count=(sbatch --parsable --cpus-per-task=1 --mem=256M)
	local env=ALL,NQUEENS=$nqueens

	# wait_jobs ID…: until none of the jobs is pending or running (3 min).
	wait_jobs() {
		local ids _
		ids=$(IFS=,; echo "$*")
		for _ in $(seq 900); do
			[ -z "$(squeue -h -j "$ids" -o %i 2>/dev/null)" ] && return
			sleep 0.2 # polling squeue; the bound is the 3 minutes of the loop
		done
		fail "jobs $ids still queued after 3 minutes: $(squeue -h -j "$ids" -o '%i %T %r' | tr '\n' ';')"
	}
	# job_field ID FIELD: FIELD of a finished job, e.g. JobState or ExitCode.
	job_field() { scontrol show job -o "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }

	step "2a. Slurm: count-array.sbatch for N = 15 in 4 shards, merge.sbatch after it (afterany)"
	local t=$SECONDS aid mid
	aid=$("${sbatch_count[@]}" --array=0-3 --export="$env,N=15,SHARDS=4" "$repo/deploy/slurm/count-array.sbatch")
	mid=$(sbatch --parsable --dependency=afterany:"$aid" --export="$env,N=15" "$repo/deploy/slurm/merge.sbatch")
	say "sbatch --array=0-3 … count-array.sbatch: job $aid; sbatch --dependency=afterany:$aid … merge.sbatch: job $mid"
	wait_jobs "$aid" "$mid"
	[ "$(job_field "$mid" JobState)" = COMPLETED ] || fail "merge job $mid: $(job_field "$mid" JobState): $(cat "nqueens-merge-$mid.out")"
	check_total 15 "nqueens-merge-$mid.out"
	say "done in $(elapsed "$t")"

	step "2b. Slurm: a task requeued while it runs resumes from its ledger (N = 14 in 4 shards)"
	t=$SECONDS
	# A test build holds unit 401, task 1's 101st (units 1, 5, 9, …), until
	# SIGUSR1 (NQUEENS_FAULT_HOLD_UNIT, internal/faults): the requeue comes
	# while task 1 holds it, whatever the engine's speed, and the requeued
	# run, holding it again, is let go by scancel --signal=USR1.
	local held=401 before=100 log
	aid=$("${sbatch_count[@]}" --array=0-3 --export="$env,NQUEENS=$nqueens_faults,NQUEENS_FAULT_HOLD_UNIT=$held,N=14,SHARDS=4" "$repo/deploy/slurm/count-array.sbatch")
	mid=$(sbatch --parsable --dependency=afterany:"$aid" --export="$env,N=14" "$repo/deploy/slurm/merge.sbatch")
	say "count job $aid, merge job $mid"
	log=nqueens-${aid}_1.out
	# wait_held K: until task 1's log says K times that it holds the unit.
	wait_held() {
		local _ c
		for _ in $(seq 1200); do
			c=$(grep -c "holding unit $held " "$log" 2>/dev/null || true)
			[ "${c:-0}" -ge "$1" ] && return
			sleep 0.1 # polling the log; the bound is the 2 minutes of the loop
		done
		fail "task ${aid}_1 did not hold unit $held (run $1) within 2 minutes: $(cat "$log" 2>/dev/null)"
	}
	wait_held 1
	say "task ${aid}_1 holds unit $held: scontrol requeue ${aid}_1"
	scontrol requeue "${aid}_1"
	wait_held 2
	say "task ${aid}_1 runs again and holds unit $held: scancel --signal=USR1 ${aid}_1"
	scancel --signal=USR1 "${aid}_1"
	wait_jobs "$aid" "$mid"
	grep -q "DUE TO JOB REQUEUE" "$log" || fail "task ${aid}_1 was not requeued while running: $(cat "$log")"
	local found units
	found=$(sed -n 's/.*: \([0-9]*\) of its [0-9]* units were already in .*/\1/p' "$log")
	units=$(sed -n 's/.*: [0-9]* of its \([0-9]*\) units were already in .*/\1/p' "$log")
	[ -n "$found" ] || fail "task ${aid}_1 did not resume from its ledger: $(cat "$log")"
	[ "$found" -eq "$before" ] || fail "task ${aid}_1 found $found of its $units units on restart, want the $before before unit $held"
	say "task ${aid}_1, requeued, found $found of its $units units in its ledger and counted the rest:"
	sed 's/^/    /' "$log" >&2
	[ "$(job_field "$mid" JobState)" = COMPLETED ] || fail "merge job $mid: $(cat "nqueens-merge-$mid.out")"
	check_total 14 "nqueens-merge-$mid.out"
	say "done in $(elapsed "$t")"

	step "2c. Slurm: shard 2 of N = 15 loses its ledger; merge names it and fails; rerun --array=2; merge"
	t=$SECONDS
	rm ledgers/n15-shard-2.jsonl
	mid=$(sbatch --parsable --export="$env,N=15" "$repo/deploy/slurm/merge.sbatch")
	wait_jobs "$mid"
	local state code
	state=$(job_field "$mid" JobState)
	code=$(job_field "$mid" ExitCode)
	if [ "$state" != FAILED ] || [ "$code" != 1:0 ]; then
		fail "merge without shard 2: JobState=$state ExitCode=$code, want FAILED 1:0"
	fi
	grep -q "no result at all from shard 2/4" "nqueens-merge-$mid.out" || fail "merge did not name shard 2/4: $(cat "nqueens-merge-$mid.out")"
	say "merge job $mid: JobState=$state ExitCode=$code; it says:"
	cut -c 1-150 "nqueens-merge-$mid.out" | sed 's/^/    /' >&2
	aid=$("${sbatch_count[@]}" --array=2 --export="$env,N=15,SHARDS=4" "$repo/deploy/slurm/count-array.sbatch")
	mid=$(sbatch --parsable --dependency=afterany:"$aid" --export="$env,N=15" "$repo/deploy/slurm/merge.sbatch")
	say "sbatch --array=2 … count-array.sbatch: job $aid; merge job $mid"
	wait_jobs "$aid" "$mid"
	[ "$(job_field "$mid" JobState)" = COMPLETED ] || fail "merge job $mid: $(cat "nqueens-merge-$mid.out")"
	check_total 15 "nqueens-merge-$mid.out"
	say "done in $(elapsed "$t")"

	cd "$repo"
	"$repo/deploy/slurm/testing/one-node.sh" stop "$slurm_dir"
	slurm_dir=
	unset SLURM_CONF
	say "Slurm part passed in $(elapsed "$part")"
}

if [ -n "$run_slurm" ]; then
	slurm_part
fi

if [ -n "$run_parallel" ]; then
	step "3. GNU parallel: deploy/parallel/count.sh 14 4"
	t=$SECONDS
	# A space in both paths: the script must pass them to parallel intact.
	mkdir -p "$work/parallel run/bin"
	cp "$nqueens" "$work/parallel run/bin/nqueens"
	(cd "$work/parallel run" && LEDGERS="$work/parallel run/my ledgers" NQUEENS="$work/parallel run/bin/nqueens" \
		"$repo/deploy/parallel/count.sh" 14 4 >total.txt)
	(cd "$work/parallel run" && find "my ledgers" -type f | sort | sed 's/^/    /' >&2)
	check_total 14 "$work/parallel run/total.txt"
	say "done in $(elapsed "$t")"
fi

ran=
want go && ran+=" go"
[ -n "$run_slurm" ] && ran+=" slurm"
[ -n "$run_parallel" ] && ran+=" parallel"
step "passed:${ran:- nothing} in $(elapsed "$total_start")${skipped:+ (skipped:$skipped)}"
