#!/usr/bin/env bash
# bench/push.sh: webhooks to local receivers (healthy, slow, failing) and an MQTT subscriber
# while the live workload's imports change live scores and events every 2 s.
#
#   bench/push.sh                      # demo dataset, 200 webhooks, 30 s runs, MQTT at 127.0.0.1:1883
#   MQTT=off bench/push.sh             # webhooks only
#   QUICK=1 bench/push.sh              # 20 webhooks, 10 s runs
#
# What it does (details in docs/PERFORMANCE.md, "Push"):
#   1. builds sportsdb and the load generator; generates the dataset into a file of its own
#      ($BENCH_DATA/run/push-$SCALE.db: the imports change it) and adds a premium key for every
#      10 webhooks (a key registers at most 10);
#   2. starts `sportsdb serve` with --webhook-allow-private (the receivers are on loopback)
#      and, unless MQTT=off, --mqtt on MQTT under a prefix of the run's own;
#   3. `loadgen push` starts HEALTHY + SLOW + FAILING receivers, each an HTTP server on a
#      loopback port of its own (healthy: 204 at once; slow: 204 after SLOW_DELAY; failing:
#      503), and a subscriber to the prefix's live score and event topics. It imports once and
#      waits for that change on the subscriber (a database never published is published
#      whole first), then runs twice: the healthy receivers' webhooks alone, then with the slow
#      and failing ones registered beside them. Each run imports every TICK for DURATION (the
#      changer of bench/live.sh: SCORES live scores and EVENTS events, a marker in their
#      home score) and waits up to SETTLE for the last changes to reach every healthy
#      receiver and the subscriber;
#   4. prints per run deliveries/s, commit-to-delivery p50/p99/max over every (change,
#      healthy receiver) pair and for MQTT, the server's CPU per delivery, the load average;
#      then the targets, as JSON lines also in $BENCH_DATA/results/push-$SCALE-STAMP.jsonl;
#      stops the server and clears the prefix's retained messages from the broker.
#
# Only 127.0.0.1 is used. The run stops by itself: every wait has a deadline.
#
# Settings (environment):
#   QUICK=1                HEALTHY=16 SLOW=2 FAILING=2 DURATION=10s SETTLE=15s unless set
#   SCALE=demo|small       dataset scale (default demo)
#   HEALTHY=160 SLOW=20 FAILING=20   receivers (200 webhooks in the second run)
#   SLOW_DELAY=2s          how long a slow receiver takes to answer
#   DURATION=30s SETTLE=30s TICK=2s SCORES=20 EVENTS=3   each run's imports, and the wait after
#   MQTT=mqtt://127.0.0.1:1883 (or off)   the broker
#   BENCH_DATA=DIR         binaries, database and results (default bench/.data)
#   PORT_BASE=18100        sportsdb listens there, its profiling (--pprof) on PORT_BASE+1
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
QUICK=${QUICK:-0}
if [[ $QUICK == 1 ]]; then
	HEALTHY=${HEALTHY:-16} SLOW=${SLOW:-2} FAILING=${FAILING:-2} DURATION=${DURATION:-10s} SETTLE=${SETTLE:-15s}
fi
SCALE=${SCALE:-demo}
HEALTHY=${HEALTHY:-160}
SLOW=${SLOW:-20}
FAILING=${FAILING:-20}
SLOW_DELAY=${SLOW_DELAY:-2s}
DURATION=${DURATION:-30s}
SETTLE=${SETTLE:-30s}
TICK=${TICK:-2s}
SCORES=${SCORES:-20}
EVENTS=${EVENTS:-3}
MQTT=${MQTT:-mqtt://127.0.0.1:1883}
DATA=${BENCH_DATA:-$HERE/.data}
PORT_BASE=${PORT_BASE:-18100}
ADDR=127.0.0.1:$PORT_BASE
PPROF=127.0.0.1:$((PORT_BASE + 1))

case $SCALE in demo | small) ;; *) echo "push.sh: SCALE=$SCALE: want demo or small" >&2; exit 2 ;; esac
for n in "$HEALTHY" "$SLOW" "$FAILING"; do
	[[ $n =~ ^[0-9]+$ ]] || { echo "push.sh: HEALTHY, SLOW and FAILING want numbers" >&2; exit 2; }
done
case $MQTT in off | mqtt://127.0.0.1:* | mqtt://localhost:*) ;; *) echo "push.sh: MQTT=$MQTT: want off or a broker on 127.0.0.1" >&2; exit 2 ;; esac

STAMP=$(date -u +%Y%m%dT%H%M%SZ)
BIN=$DATA/bin
RUN=$DATA/run/push-$SCALE
RESULTS=$DATA/results/push-$SCALE-$STAMP.jsonl
PREFIX=sportsdb-bench-push-$STAMP
mkdir -p "$BIN" "$RUN" "$(dirname "$RESULTS")"
: >"$RESULTS"
ulimit -n "$(ulimit -Hn)"

PID=""
cleanup() {
	if [[ -n $PID ]]; then
		kill "$PID" 2>/dev/null || true
		wait "$PID" 2>/dev/null || true
		PID=""
	fi
	if [[ $MQTT != off ]] && command -v mosquitto_sub >/dev/null; then
		# Each pass clears what it receives within its 2 s; until one receives nothing.
		local hp=${MQTT#mqtt://} pass
		for pass in $(seq 30); do
			[[ $(mosquitto_sub -h "${hp%:*}" -p "${hp##*:}" -t "$PREFIX/#" --remove-retained --retained-only -W 2 2>/dev/null | wc -l) == 0 ]] && break
		done
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
say() { printf '\n== %s\n' "$*" >&2; }
metric() {
	printf '{"type":"metric","name":"%s","value":"%s","unit":"","note":"%s"}\n' "$1" "$2" "${3:-}" | tee -a "$RESULTS"
}

say "building sportsdb and loadgen"
(cd "$ROOT" && go build -o "$BIN/sportsdb" ./cmd/sportsdb && go build -o "$BIN/loadgen" ./bench/loadgen)
metric "push: machine" "$(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "nproc, /proc/cpuinfo"
metric "push: load average at start" "$(cut -d' ' -f1-3 /proc/loadavg)" "1, 5 and 15 minutes; the machine is shared"

DB=$RUN/push.db
say "generating the $SCALE dataset into $DB"
rm -f "$DB" "$DB-wal" "$DB-shm"
"$BIN/sportsdb" gen --scale "$SCALE" --db "$DB" >&2
KEYS=$RUN/keys-premium.txt
: >"$KEYS" && chmod 600 "$KEYS"
for _ in $(seq $(((HEALTHY + SLOW + FAILING + 9) / 10))); do
	"$BIN/sportsdb" keys add --tier premium --label bench-push --db "$DB" >>"$KEYS"
done

mqtt=()
[[ $MQTT != off ]] && mqtt=(--mqtt "$MQTT" --mqtt-prefix "$PREFIX")
say "starting sportsdb (webhooks to loopback allowed${mqtt:+, MQTT under $PREFIX})"
"$BIN/sportsdb" serve --db "$DB" --addr "$ADDR" --pprof "$PPROF" --log-level warn --webhook-allow-private "${mqtt[@]}" \
	--limits "free:1000000,premium:1000000,business:1000000" >"$RUN/serve.out" 2>"$RUN/serve.log" &
PID=$!
"$BIN/loadgen" wait -url "http://$ADDR/readyz" -since "$(date +%s%N)" -timeout 120s >/dev/null

sub=()
[[ $MQTT != off ]] && sub=(-mqtt "$MQTT" -mqtt-prefix "$PREFIX")
say "$HEALTHY healthy receivers, then beside $SLOW slow ($SLOW_DELAY) and $FAILING failing; imports every $TICK for $DURATION"
"$BIN/loadgen" push -addr "$ADDR" -premium "$KEYS" -db "$DB" -sportsdb "$BIN/sportsdb" -dir "$RUN/imports" \
	-out "$RESULTS" -label sqlite -healthy "$HEALTHY" -slow "$SLOW" -failing "$FAILING" -slow-delay "$SLOW_DELAY" \
	-d "$DURATION" -settle "$SETTLE" -tick "$TICK" -scores "$SCORES" -events "$EVENTS" "${sub[@]}"
metric "push: load average at end" "$(cut -d' ' -f1-3 /proc/loadavg)" "1, 5 and 15 minutes"
echo "results: $RESULTS" >&2
