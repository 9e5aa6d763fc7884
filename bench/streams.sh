#!/usr/bin/env bash
# bench/streams.sh: many open Server-Sent Events streams on one sportsdb server, on loopback.
#
#   bench/streams.sh                   # 10,000 streams on the demo dataset
#   N=1000 SCALE=small bench/streams.sh
#
# What it does (details in docs/PERFORMANCE.md, "Streams at scale"):
#   1. builds sportsdb and the load generator; generates the dataset into its own file
#      ($BENCH_DATA/run/streams-$SCALE.db, since the run imports into it) and adds a business key;
#   2. starts `sportsdb serve` with the key's stream limit and request limit raised to N and
#      more (--open-streams, --limits), profiling on (--pprof), and the open files limit
#      raised (ulimit -n: every stream is a socket);
#   3. `loadgen streams` reads the server's RSS (after a forced GC), opens N streams on
#      /api/v2/json/stream/livescore over source addresses 127.0.0.1..127.0.0.$SOURCES, reads
#      the RSS again, then CHANGES times imports one changed live score with a separate
#      `sportsdb import` and times its arrival on every stream;
#   4. saves a heap profile of the server with the streams open (PROFILE=off skips it), prints
#      the figures, writes them to $BENCH_DATA/results/, and stops the server.
#
# Settings (environment):
#   N=10000            streams
#   SCALE=demo|small   dataset scale (default demo)
#   CHANGES=3          changes imported, one after the other
#   SOURCES=4          loopback source addresses (one has about 28,000 ephemeral ports)
#   BENCH_DATA=DIR     where binaries, the database and results go (default bench/.data)
#   PORT_BASE=18090    sportsdb and its profiling use PORT_BASE and PORT_BASE+1
#   PROFILE=on|off     heap profile with the streams open (default on)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
N=${N:-10000}
SCALE=${SCALE:-demo}
CHANGES=${CHANGES:-3}
SOURCES=${SOURCES:-4}
DATA=${BENCH_DATA:-$HERE/.data}
PORT_BASE=${PORT_BASE:-18090}
PROFILE=${PROFILE:-on}
ADDR=127.0.0.1:$PORT_BASE
PPROF=127.0.0.1:$((PORT_BASE + 1))

case $SCALE in demo | small) ;; *) echo "streams.sh: SCALE=$SCALE: want demo or small" >&2; exit 2 ;; esac
[[ $N =~ ^[1-9][0-9]*$ ]] || { echo "streams.sh: N=$N: want a positive number" >&2; exit 2; }

BIN=$DATA/bin
RUN=$DATA/run
OUT=$DATA/results
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$BIN" "$RUN" "$OUT"

# Every stream holds a socket in the server and one in the load generator (which raises its
# own limit); serve inherits this shell's.
ulimit -n "$(ulimit -Hn)"
if (($(ulimit -n) < N + 256)); then
	echo "streams.sh: $N streams need an open files limit of at least $((N + 256)) (ulimit -Hn is $(ulimit -Hn))" >&2
	exit 2
fi

PID=""
cleanup() {
	if [[ -n $PID ]]; then
		kill "$PID" 2>/dev/null || true
		wait "$PID" 2>/dev/null || true
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
say() { printf '\n== %s\n' "$*" >&2; }

say "building sportsdb and loadgen"
(cd "$ROOT" && go build -o "$BIN/sportsdb" ./cmd/sportsdb && go build -o "$BIN/loadgen" ./bench/loadgen)

DB=$RUN/streams-$SCALE.db
KEY=$RUN/streams-$SCALE.key
if [[ ! -s $DB || ! -s $KEY ]]; then
	say "generating the $SCALE dataset into $DB"
	rm -f "$DB" "$DB-wal" "$DB-shm" "$KEY"
	"$BIN/sportsdb" gen --scale "$SCALE" --db "$DB" >&2
	(umask 077 && "$BIN/sportsdb" keys add --tier business --label streams-bench --db "$DB" >"$KEY")
fi

say "starting sportsdb (open files limit $(ulimit -n))"
"$BIN/sportsdb" serve --db "$DB" --addr "$ADDR" --pprof "$PPROF" --log-level warn \
	--open-streams "business:$((N + 10))" --limits "business:$((N * 2 + 100))" \
	>"$RUN/streams-serve.out" 2>"$RUN/streams-serve.log" &
PID=$!
"$BIN/loadgen" wait -url "http://$ADDR/readyz" -since "$(date +%s%N)" -timeout 120s >/dev/null

profile=()
[[ $PROFILE == on ]] && profile=(-heap-profile "$OUT/streams-$STAMP.heap.pprof")
say "$N streams, $CHANGES changes (load average $(cut -d' ' -f1-3 /proc/loadavg))"
"$BIN/loadgen" streams -addr "$ADDR" -key-file "$KEY" -pid "$PID" -pprof "$PPROF" \
	-sportsdb "$BIN/sportsdb" -db "$DB" -n "$N" -changes "$CHANGES" -sources "$SOURCES" "${profile[@]}" \
	| tee "$OUT/streams-$STAMP.json"
echo "results: $OUT/streams-$STAMP.json (load average after: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
