#!/bin/sh
# Writes the users of nats-server.conf from the workers' public NKeys (one
# "U…" per line, # comments allowed: the file the coordinator reads with
# --auth-nkeys): the coordinator, logging in with the password whose bcrypt
# hash is in $NQ_COORDINATOR_PASSWORD when the server starts, and one user
# per worker NKey with the permissions the embedded server gives a worker
# (cluster/queue/server.go, workerPermissions; a test of the nqueens module
# holds the two together). A worker reads and writes only what a worker
# needs, and its results, alarms, presence and failure reports only under
# its own key, reads only its own results, ban and refusal and its own
# inboxes, and publishes no block message, only notices of copies it gave
# back on its own subject: one credential cannot cast, change or read
# another's vote, forge a block or a ban, nor read another's blocks.
#
#   deploy/nats/users.sh workers.pub > deploy/nats/users.conf
set -eu
if [ $# -ne 1 ]; then
	echo "usage: users.sh WORKERS.pub > users.conf" >&2
	exit 2
fi
pubs=$1
if [ ! -r "$pubs" ]; then
	echo "users.sh: cannot read $pubs" >&2
	exit 1
fi
# The keys first: a bad line writes nothing.
keys=
line=0
# The last line may lack its newline.
while IFS= read -r key || [ -n "$key" ]; do
	line=$((line + 1))
	key=$(printf '%s' "$key" | sed 's/#.*//; s/[[:space:]]//g')
	[ -n "$key" ] || continue
	case $key in
	U*) keys="$keys $key" ;;
	*)
		echo "users.sh: $pubs:$line: \"$key\" is no public user NKey (U…)" >&2
		exit 1
		;;
	esac
done <"$pubs"
echo "# Made by deploy/nats/users.sh from $(basename "$pubs"): the coordinator, and one user per worker NKey."
echo "users: ["
echo "  { user: coordinator, password: \$NQ_COORDINATOR_PASSWORD }"
for key in $keys; do
	cat <<USER
  { nkey: $key, permissions: {
      publish: { allow: [
        "\$JS.API.INFO",
        "\$JS.API.STREAM.LIST", "\$JS.API.STREAM.NAMES", "\$JS.API.STREAM.INFO.*",
        "\$JS.API.CONSUMER.INFO.*.workers", "\$JS.API.CONSUMER.MSG.NEXT.*.workers",
        "\$JS.ACK.*.workers.>",
        "\$KV.*.vote.*.$key", "\$KV.*.alarm.*.$key.*", "\$KV.*.worker.$key", "\$KV.*.failed.*.$key",
        "\$JS.API.DIRECT.GET.*.\$KV.*.vote.*.$key", "\$JS.API.DIRECT.GET.*.\$KV.*.banned.$key", "\$JS.API.DIRECT.GET.*.\$KV.*.refused.$key",
        "nqueens.*.back.$key"
      ] }
      subscribe: { allow: [ "_INBOX.$key.>" ] }
  } }
USER
done
echo "]"
