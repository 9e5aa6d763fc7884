#!/usr/bin/env bash
# bench/writes.sh: editors writing through the records API while readers run the mixed list
# and N change-feed streams are open, beside the same run without writes; on SQLite and on
# PostgreSQL.
#
#   bench/writes.sh                  # small dataset, both stores
#   QUICK=1 bench/writes.sh          # demo dataset, short runs
#   STORES=sqlite bench/writes.sh    # one store
#
# What it does, for each store (details in docs/PERFORMANCE.md, "Write workload"):
#   1. builds sportsdb and the load generator; generates the dataset (SQLite: into a file of
#      its own under $BENCH_DATA/run/writes-$SCALE; PostgreSQL: into a database of its own,
#      PG_DB on BENCH_POSTGRES, created first and dropped at the end), and adds PREMIUM_KEYS
#      premium and FREE_KEYS free keys (the readers'), EDITORS business keys with the editor
#      role (the writers') and one business key (the streams');
#   2. starts `sportsdb serve` with the stream key's open streams and every limit raised, and
#      builds the mixed request list from the dataset through the API (`loadgen lists`);
#   3. `loadgen writes` primes the response cache with the list, opens N streams on
#      /api/v2/json/stream/changes?kinds=livescore,team, then RUNS times: the mixed list alone
#      for DURATION, then the same while WRITERS connections PATCH at RATE writes/s in turn a
#      score update of an event (in-play status, the minute, the home score = the write's
#      sequence number: its live score entry carries it to the streams) and an edit of a team
#      (strKeywords "bench-write SEQ"). Every stream's events are matched with the writes by
#      record and marker; a write has arrived on a stream at the first sighting of its record
#      with its marker or a later one (a stream sends a record as it is when sent);
#   4. prints per run: reads/s, writes/s, write p99 (from when each write was due), the time
#      from the write's answer (its commit came before) to its arrival on the last stream
#      (p50, p99, max; also from when it was sent), the server's CPU over the measured span
#      (process_cpu_seconds_total: per answer, reads and writes, and in cores) and the load
#      average; then the targets (read throughput with writes >= 0.8 of without, arrival p99
#      <= 1 s) and the server's CPU the writes take (cores, ms a write) as JSON lines, also in
#      $BENCH_DATA/results/writes-$SCALE-STAMP.jsonl, with the server's CPU profiles of the
#      runs beside it; stops what it started.
#
# Settings (environment):
#   QUICK=1                demo dataset, DURATION=5s WARMUP=1s N=1000 LIST_N=1000, 4 premium and
#                          2 free keys, unless set
#   SCALE=small|demo|full  dataset scale (default small)
#   STORES="sqlite postgres"   stores to run (default both; postgres needs psql and a server)
#   BENCH_POSTGRES=URL     PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable)
#   PG_DB=sportsdb_bench_writes   the database created and dropped there
#   BENCH_DATA=DIR         binaries, databases, lists and results (default bench/.data)
#   N=1000                 streams
#   RATE=100 WRITERS=8 EDITORS=4   writes per second, their connections, editor keys
#   DURATION=15s WARMUP=2s CONNS=32 RUNS=1   each run's measured time, warm-up, reading
#                          connections, pairs of runs (alone, with writes)
#   PREMIUM_KEYS=16 FREE_KEYS=8 LIST_N=5000   the mixed list
#   PORT_BASE=18096        sportsdb listens there, its profiling on PORT_BASE+1
#   SERVER_CPUS=1 LOADGEN_CPUS=0   pin the server and the load generator to those CPUs
#                          (taskset lists; default: unpinned), so that the load generator does
#                          not take the server's cycles: the server alone on its cores
#   PROFILE=on|off         the server's CPU profiles over the last runs, beside the results:
#                          writes-$SCALE-STAMP-STORE.cpu.pprof with writes, ...-STORE-alone.cpu.pprof
#                          alone (what the writes add: go tool pprof -diff_base ALONE WITH);
#                          default on
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
QUICK=${QUICK:-0}
if [[ $QUICK == 1 ]]; then
	SCALE=${SCALE:-demo} DURATION=${DURATION:-5s} WARMUP=${WARMUP:-1s} LIST_N=${LIST_N:-1000}
	PREMIUM_KEYS=${PREMIUM_KEYS:-4} FREE_KEYS=${FREE_KEYS:-2}
fi
SCALE=${SCALE:-small}
STORES=${STORES:-sqlite postgres}
BENCH_POSTGRES=${BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}
PG_DB=${PG_DB:-sportsdb_bench_writes}
DATA=${BENCH_DATA:-$HERE/.data}
N=${N:-1000}
RATE=${RATE:-100}
WRITERS=${WRITERS:-8}
EDITORS=${EDITORS:-4}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-2s}
CONNS=${CONNS:-32}
RUNS=${RUNS:-1}
PREMIUM_KEYS=${PREMIUM_KEYS:-16}
FREE_KEYS=${FREE_KEYS:-8}
LIST_N=${LIST_N:-5000}
PORT_BASE=${PORT_BASE:-18096}
PROFILE=${PROFILE:-on}
SERVER_CPUS=${SERVER_CPUS:-}
LOADGEN_CPUS=${LOADGEN_CPUS:-}
# The commands' prefixes that pin them (taskset execs the command: $! stays the server's).
PIN_SERVER=() PIN_LOADGEN=()
[[ -n $SERVER_CPUS ]] && PIN_SERVER=(taskset -c "$SERVER_CPUS")
[[ -n $LOADGEN_CPUS ]] && PIN_LOADGEN=(taskset -c "$LOADGEN_CPUS")
ADDR=127.0.0.1:$PORT_BASE
PPROF=127.0.0.1:$((PORT_BASE + 1))

case $SCALE in demo | small | full) ;; *) echo "writes.sh: SCALE=$SCALE: want demo, small or full" >&2; exit 2 ;; esac
[[ $N =~ ^[1-9][0-9]*$ ]] || { echo "writes.sh: N=$N: want a positive number" >&2; exit 2; }
[[ $PG_DB =~ ^[a-z_][a-z0-9_]*$ ]] || { echo "writes.sh: PG_DB=$PG_DB: want a plain name" >&2; exit 2; }

STAMP=$(date -u +%Y%m%dT%H%M%SZ)
BIN=$DATA/bin
RUN=$DATA/run/writes-$SCALE
RESULTS=$DATA/results/writes-$SCALE-$STAMP.jsonl
mkdir -p "$BIN" "$RUN" "$(dirname "$RESULTS")"
: >"$RESULTS"
ulimit -n "$(ulimit -Hn)"

PID=""
PG_MADE=""
psql_admin() { PGOPTIONS=--client-min-messages=warning psql "$BENCH_POSTGRES" -v ON_ERROR_STOP=1 -qAtc "$1" >&2; }
cleanup() {
	if [[ -n $PID ]]; then
		kill "$PID" 2>/dev/null || true
		wait "$PID" 2>/dev/null || true
		PID=""
	fi
	if [[ -n $PG_MADE ]]; then
		psql_admin "DROP DATABASE IF EXISTS $PG_DB" || true
		PG_MADE=""
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
say() { printf '\n== %s\n' "$*" >&2; }

# keys TIER COUNT [ROLE]: COUNT new keys in $DSN, one per line in a file.
keys() {
	local file=$RUN/keys-$1${3:+-$3}.txt role=()
	[[ -n ${3:-} ]] && role=(--role "$3")
	: >"$file" && chmod 600 "$file"
	for _ in $(seq "$2"); do
		"$BIN/sportsdb" keys add --tier "$1" "${role[@]}" --label bench-writes --db "$DSN" >>"$file"
	done
	echo "$file"
}

# store NAME: generates the dataset into the store, serves it and drives the workload.
store() {
	local name=$1
	case $name in
	sqlite)
		DSN=$RUN/writes.db
		rm -f "$DSN" "$DSN-wal" "$DSN-shm"
		;;
	postgres)
		if ! command -v psql >/dev/null || ! psql "$BENCH_POSTGRES" -qAtc 'select 1' >/dev/null 2>&1; then
			echo "writes.sh: no PostgreSQL at BENCH_POSTGRES (or no psql): skipping it" >&2
			return
		fi
		psql_admin "DROP DATABASE IF EXISTS $PG_DB"
		psql_admin "CREATE DATABASE $PG_DB"
		PG_MADE=1
		DSN=${BENCH_POSTGRES/\/postgres\?//$PG_DB?}
		psql "$DSN" -qAtc 'CREATE EXTENSION IF NOT EXISTS pg_trgm' >&2
		;;
	*) echo "writes.sh: store $name: want sqlite or postgres" >&2; exit 2 ;;
	esac
	say "$name: generating the $SCALE dataset"
	"$BIN/sportsdb" gen --scale "$SCALE" --db "$DSN" >&2
	local premium free editors stream
	premium=$(keys premium "$PREMIUM_KEYS")
	free=$(keys free "$FREE_KEYS")
	editors=$(keys business "$EDITORS" editor)
	stream=$(keys business 1)

	say "$name: starting sportsdb"
	"${PIN_SERVER[@]}" "$BIN/sportsdb" serve --db "$DSN" --addr "$ADDR" --pprof "$PPROF" --log-level warn \
		--open-streams "business:$((N + 10))" \
		--limits "free:1000000,premium:1000000,business:1000000" \
		>"$RUN/serve-$name.out" 2>"$RUN/serve-$name.log" &
	PID=$!
	"$BIN/loadgen" wait -url "http://$ADDR/readyz" -since "$(date +%s%N)" -timeout 120s >/dev/null

	say "$name: the mixed request list"
	rm -rf "$RUN/lists" && mkdir -p "$RUN/lists"
	"$BIN/loadgen" lists -base "http://$ADDR" -premium "$premium" -free "$free" -out "$RUN/lists" -n "$LIST_N" >&2

	local profile=()
	[[ $PROFILE == on ]] && profile=(-pprof "$PPROF" -cpu-profile "${RESULTS%.jsonl}-$name.cpu.pprof")
	say "$name: $N streams; mixed alone, then with $RATE writes/s ($CONNS readers, $DURATION, load average $(cut -d' ' -f1-3 /proc/loadavg))"
	"${PIN_LOADGEN[@]}" "$BIN/loadgen" writes -addr "$ADDR" -list "$RUN/lists/mixed.txt" -premium "$premium" -editors "$editors" \
		-stream-key "$stream" -label "$name" -out "$RESULTS" -n "$N" -rate "$RATE" -writers "$WRITERS" \
		-c "$CONNS" -d "$DURATION" -warmup "$WARMUP" -runs "$RUNS" "${profile[@]}"
	cleanup
}

say "building sportsdb and loadgen"
(cd "$ROOT" && go build -o "$BIN/sportsdb" ./cmd/sportsdb && go build -o "$BIN/loadgen" ./bench/loadgen)
echo "machine: $(nproc) cores, $(uptime)${SERVER_CPUS:+; the server on CPUs $SERVER_CPUS}${LOADGEN_CPUS:+, the load generator on CPUs $LOADGEN_CPUS}" >&2
if [[ -n $SERVER_CPUS$LOADGEN_CPUS ]] && ! command -v taskset >/dev/null; then
	echo "writes.sh: SERVER_CPUS and LOADGEN_CPUS need taskset (util-linux)" >&2
	exit 2
fi
for s in $STORES; do
	store "$s"
done
echo "results: $RESULTS (load average after: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
