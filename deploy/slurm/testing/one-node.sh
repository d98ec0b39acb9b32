#!/usr/bin/env bash
# A one-node Slurm on this machine, for trying the scripts of deploy/slurm
# before a real cluster: munged, slurmctld and slurmd with all their files in
# DIR, on free loopback ports, configured from slurm.conf.in for the cores
# and memory "slurmd -C" finds. Needs root (slurmd starts jobs as their
# users) and Debian's slurm-wlm and munge (apt-get install slurm-wlm munge).
#
#   sudo deploy/slurm/testing/one-node.sh start /tmp/slurm-try
#   export SLURM_CONF=/tmp/slurm-try/slurm.conf     # for sbatch, squeue, scontrol
#   sbatch --array=0-3 --cpus-per-task=1 --export=ALL,N=15,SHARDS=4 deploy/slurm/count-array.sbatch
#   …
#   sudo deploy/slurm/testing/one-node.sh stop /tmp/slurm-try
#
# stop cancels the jobs still there and stops the three daemons (by the
# process ids in their pid files); DIR is left for you to read or delete.
set -euo pipefail

usage() {
	echo "usage: one-node.sh start|stop DIR" >&2
	exit 2
}
[ $# -eq 2 ] || usage
action=$1
dir=$2
here=$(cd "$(dirname "$0")" && pwd)

# free_port prints a TCP port from 20000 on that nothing on 127.0.0.1
# answers, skipping the ports given as arguments.
free_port() {
	local p=$((20000 + RANDOM % 20000)) taken
	while :; do
		taken=
		for q in "$@"; do [ "$p" = "$q" ] && taken=1; done
		if [ -z "$taken" ] && ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
		p=$((p + 1))
	done
}

# stop_pid stops the daemon whose id is in pid file $1: SIGTERM, then
# SIGKILL after 10 s.
stop_pid() {
	local file=$1 pid _
	[ -s "$file" ] || return 0
	pid=$(cat "$file")
	kill "$pid" 2>/dev/null || return 0
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
}

start() {
	if [ "$(id -u)" != 0 ]; then
		echo "one-node.sh: slurmd must run as root (try sudo)" >&2
		exit 1
	fi
	for cmd in munged slurmctld slurmd sinfo; do
		command -v "$cmd" >/dev/null || { echo "one-node.sh: $cmd not found: apt-get install slurm-wlm munge" >&2; exit 1; }
	done
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
	if [ ! -s "$dir/munge/munge.key" ]; then
		(umask 077 && head -c 1024 /dev/urandom >"$dir/munge/munge.key")
	fi
	# --force: munged wants every folder above its socket open to all users;
	# here only root's daemons and commands use it, so a private DIR will do.
	munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
		--pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
		--seed-file="$dir/munge/munged.seed"

	local host node ctld slurmd
	host=$(hostname -s)
	# "NodeName=vm CPUs=2 … RealMemory=24105": everything but the name.
	node=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //')
	ctld=$(free_port)
	slurmd=$(free_port "$ctld")
	sed -e "s|@DIR@|$dir|g" -e "s|@HOST@|$host|g" -e "s|@NODE@|$node|g" \
		-e "s|@CTLD_PORT@|$ctld|g" -e "s|@SLURMD_PORT@|$slurmd|g" \
		-e "s|@USER@|$(id -un)|g" -e "s|@CLUSTER@|nqueens-one-node|g" \
		"$here/slurm.conf.in" >"$dir/slurm.conf"
	export SLURM_CONF=$dir/slurm.conf
	slurmctld -f "$SLURM_CONF"
	slurmd -f "$SLURM_CONF" -N "$host"

	local _ state
	for _ in $(seq 150); do
		state=$(sinfo -h -o %t 2>/dev/null || true)
		if [ "$state" = idle ]; then
			echo "one-node.sh: Slurm is up: node $host ($node), controller on 127.0.0.1:$ctld; files in $dir" >&2
			echo "one-node.sh: use it with: export SLURM_CONF=$SLURM_CONF" >&2
			return
		fi
		sleep 0.2
	done
	echo "one-node.sh: the node did not become idle in 30 s (state \"$state\"); see $dir/slurmctld.log and $dir/slurmd.log" >&2
	exit 1
}

stop() {
	dir=$(cd "$dir" && pwd)
	export SLURM_CONF=$dir/slurm.conf
	if [ -s "$dir/slurmctld.pid" ] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null; then
		local jobs _
		jobs=$(squeue -h -o %F 2>/dev/null | sort -u)
		if [ -n "$jobs" ]; then
			# shellcheck disable=SC2086 # one argument per job id
			scancel $jobs || true
			for _ in $(seq 100); do
				[ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
				sleep 0.2
			done
		fi
	fi
	stop_pid "$dir/slurmd.pid"
	stop_pid "$dir/slurmctld.pid"
	stop_pid "$dir/munge/munged.pid"
	echo "one-node.sh: stopped slurmd, slurmctld and munged of $dir" >&2
}

case $action in
start) start ;;
stop) stop ;;
*) usage ;;
esac
