#!/usr/bin/env bash
# tools/cluster.sh: a felt house of N nodes on this machine, for trying the
# cluster and for load runs (docs/scaling.md, "Running two or three nodes here").
#
#   tools/cluster.sh [NODES] [TABLES]        # default 3 nodes, 30 tables
#
# It starts nats-server with JetStream (built from the version go.mod names),
# makes a fresh schema in the PostgreSQL database $DB (default: felt_test as
# .ci/run sets it up), builds felt, writes each node's house config and starts
# the nodes, then waits; Ctrl-C or SIGTERM (kill -TERM, not -INT: a script
# started in the background ignores SIGINT) stops everything and drops the
# schema. $DIR (default /tmp/felt-cluster.$$) holds the logs and a file
# `nodes`, one line per node: its name, base URL, process id and the indexes
# of the tables it opened first (for tools/loadgen's -kill-tables).
#
# The tables are L0 ... L{TABLES-1}, no-limit 10/20, six seats, for
# tools/loadgen, with guests allowed without limit from one address. Every
# node would open every table of a shared config at once, the first node
# started winning them all; so node k's config lists the tables of nodes 1..k
# and node k opens its own share (the tables the nodes before it do not run).
# A lost node's tables go to the nodes that know them: the first node's to
# every node, the last node's to none. Spreading tables over the nodes by
# lease is not built (docs/scaling.md, "What remains").
#
# Environment: DB, DIR, PORT (the first node's, default 18081; the next
# nodes take the next ports), NATS_PORT (default 14222), NATS_MON_PORT
# (nats-server's monitoring, /varz has its message counts; default 18222),
# LEASE_TTL (default 3s), LOG_LEVEL (the nodes', default warn; info logs each
# table taken over). $DIR/schema names the PostgreSQL schema
# (pg_stat_user_tables there counts the rows written).
set -euo pipefail

N=${1:-3}
TABLES=${2:-30}
DB=${DB:-postgres://felt:felt@127.0.0.1:5432/felt_test?sslmode=disable}
DIR=${DIR:-/tmp/felt-cluster.$$}
PORT=${PORT:-18081}
NATS_PORT=${NATS_PORT:-14222}
NATS_MON_PORT=${NATS_MON_PORT:-18222}
LEASE_TTL=${LEASE_TTL:-3s}
LOG_LEVEL=${LOG_LEVEL:-warn}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$DIR"

pids=()
schema=felt_cluster_$$
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	psql -q "$DB" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
	echo "cluster stopped; logs in $DIR" >&2
}
trap cleanup EXIT
trap 'exit 0' INT TERM

echo "building felt and nats-server into $DIR" >&2
natsver=$(awk '$1 == "github.com/nats-io/nats-server/v2" {print $2}' "$ROOT/go.mod")
(cd "$ROOT" && go build -o "$DIR/felt" ./cmd/felt &&
	go build -o "$DIR/nats-server" "github.com/nats-io/nats-server/v2@$natsver" 2>/dev/null ||
	go build -o "$DIR/nats-server" github.com/nats-io/nats-server/v2)

"$DIR/nats-server" -js -sd "$DIR/jetstream" -a 127.0.0.1 -p "$NATS_PORT" -m "$NATS_MON_PORT" >"$DIR/nats.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
	grep -q "Server is ready" "$DIR/nats.log" && break
	sleep 0.1
done

psql -q "$DB" -c "CREATE SCHEMA $schema" >/dev/null
echo "$schema" >"$DIR/schema"
sep='?'
[[ $DB == *\?* ]] && sep='&'
NODEDB="$DB${sep}search_path=$schema"

# tables_of k: the first index and one past the last of node k's share (1-based k).
share() { echo $(((($1 - 1) * TABLES) / N)) $((($1 * TABLES) / N)); }

write_config() { # write_config K FILE
	local hi
	read -r _ hi < <(share "$1")
	cat >"$2" <<TOML
name = "Load House"
guest_credits = 100000000
max_conns_per_ip = 0
max_http_conns_per_ip = 0
announce = "off"
[limits]
guests = 1000000
guest_every = "1ms"
TOML
	for ((i = 0; i < hi; i++)); do
		printf '[[tables]]\nname = "L%d"\nvariant = "nlhe"\nseats = 6\nsmall_blind = 10\nbig_blind = 20\nmin_buy_in = 400\nmax_buy_in = 2000\naction_seconds = 60\n' "$i" >>"$2"
	done
}

: >"$DIR/nodes"
for ((k = 1; k <= N; k++)); do
	write_config "$k" "$DIR/node$k.toml"
	port=$((PORT + k - 1))
	mkdir -p "$DIR/node$k"
	"$DIR/felt" serve --config "$DIR/node$k.toml" --db "$NODEDB" --nats "nats://127.0.0.1:$NATS_PORT" \
		--node "node$k" --addr "127.0.0.1:$port" --data "$DIR/node$k" --lease-ttl "$LEASE_TTL" \
		--log-level "$LOG_LEVEL" >"$DIR/node$k.log" 2>&1 &
	pid=$!
	pids+=("$pid")
	until curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; do
		kill -0 "$pid" 2>/dev/null || { echo "node$k failed: see $DIR/node$k.log" >&2; tail -5 "$DIR/node$k.log" >&2; exit 1; }
		sleep 0.2
	done
	read -r lo hi < <(share "$k")
	echo "node$k http://127.0.0.1:$port $pid $lo-$((hi - 1))" | tee -a "$DIR/nodes"
done
echo "ready: $N nodes, $TABLES tables; nodes listed in $DIR/nodes" >&2
wait
