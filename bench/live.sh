#!/usr/bin/env bash
# bench/live.sh: the mixed workload on unchanging data, and while another process imports
# live scores and a few events every 2 s, as on a match day.
#
#   bench/live.sh                # small dataset (built once, reused; shared with run.sh)
#   SCALE=full bench/live.sh     # the full-scale dataset
#   QUICK=1 bench/live.sh        # one short run of each kind
#
# What it does, in order (details in docs/PERFORMANCE.md, "Live workload"):
#   1. builds sportsdb and the load generator (bench/loadgen); generates the dataset into
#      $BENCH_DATA/$SCALE.db once, as run.sh does, and copies it to a database of its own,
#      which the imports change (the shared dataset stays as it is).
#   2. creates PREMIUM_KEYS premium and FREE_KEYS free keys in the copy, starts sportsdb on it
#      with raised per-minute limits, and builds the mixed request list from the dataset
#      through the API (`loadgen lists`, as run.sh).
#   3. `loadgen live` runs the mixed workload RUNS times on unchanging data and RUNS times while
#      it imports, alternating: every TICK it writes the changed records (every live score's
#      home score, SCORES of them, and EVENTS events' scores and status) as an NDJSON file and
#      runs `sportsdb import` on it, a process of its own. A poller asks for the changed live
#      score and event URLs every 10 ms and times when each change first shows.
#   4. prints a small table with the targets (throughput while importing at least 0.8 of
#      unchanging, no errors, every change visible within 1 s of its commit at p99) on
#      standard error, and the results as JSON lines on standard output (loadgen run lines,
#      {"type":"metric",...} and {"type":"target","name","wanted","measured","met"}), which it
#      also appends to $BENCH_DATA/results/live-$SCALE-STAMP.jsonl (`loadgen report` reads
#      them); stops every process it started (also on Ctrl-C or error).
#
# bench/run.sh runs it with LIVE=on, giving BIN (built binaries), DB (the dataset), RUN (a
# scratch folder, where the results file then goes), SCALE, DURATION, WARMUP, CONNS,
# PORT_BASE and QUICK; the JSON lines join run.sh's results.
#
# Settings (environment):
#   QUICK=1                short runs (DURATION=3s WARMUP=1s RUNS=1 LIST_N=2000, 8 premium
#                          and 4 free keys) unless set
#   SCALE=small|full|demo  dataset scale (default small)
#   BENCH_DATA=DIR         datasets, binaries, lists and results (default bench/.data)
#   BIN=DIR DB=FILE RUN=DIR   binaries (built there when missing), the dataset (default
#                          $BENCH_DATA/$SCALE.db, generated once) and the scratch folder
#   DURATION=15s WARMUP=2s measured time and unmeasured warm-up of each run
#   CONNS=32               connections of every run
#   RUNS=2                 runs of each kind (unchanging, importing), alternating
#   TICK=2s                time between imports
#   SCORES=20 EVENTS=3     live scores and events each import changes
#   PREMIUM_KEYS=48 FREE_KEYS=16   keys the list spreads requests over
#   LIST_N=5000            requests in the mixed list
#   LIMITS=free:200000,... sportsdb --limits for the runs (requests per key and minute)
#   PORT_BASE=18086        sportsdb listens on PORT_BASE (run.sh uses 18080 to 18085)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
QUICK=${QUICK:-0}
if [[ $QUICK == 1 ]]; then
	DURATION=${DURATION:-3s} WARMUP=${WARMUP:-1s} RUNS=${RUNS:-1} LIST_N=${LIST_N:-2000}
	PREMIUM_KEYS=${PREMIUM_KEYS:-8} FREE_KEYS=${FREE_KEYS:-4}
fi
SCALE=${SCALE:-small}
DATA=${BENCH_DATA:-$HERE/.data}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-2s}
CONNS=${CONNS:-32}
RUNS=${RUNS:-2}
TICK=${TICK:-2s}
SCORES=${SCORES:-20}
EVENTS=${EVENTS:-3}
PREMIUM_KEYS=${PREMIUM_KEYS:-48}
FREE_KEYS=${FREE_KEYS:-16}
LIST_N=${LIST_N:-5000}
PORT_BASE=${PORT_BASE:-18086}
LIMITS=${LIMITS:-free:200000,premium:200000,business:200000}
ADDR=127.0.0.1:$PORT_BASE

case $SCALE in demo | small | full) ;; *) echo "live.sh: SCALE=$SCALE: want demo, small or full" >&2; exit 2 ;; esac
case $RUNS in [1-9] | 1[0-9] | 20) ;; *) echo "live.sh: RUNS=$RUNS: want a number from 1 to 20" >&2; exit 2 ;; esac

STAMP=$(date -u +%Y%m%dT%H%M%SZ)
BIN=${BIN:-$DATA/bin}
if [[ -n ${RUN:-} ]]; then
	RESULTS=$RUN/live-$STAMP.jsonl
else
	RUN=$DATA/run/live-$SCALE
	RESULTS=$DATA/results/live-$SCALE-$STAMP.jsonl
fi
mkdir -p "$BIN" "$RUN" "$(dirname "$RESULTS")"
: >"$RESULTS"

PIDS=()
cleanup() {
	local pid
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	PIDS=()
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { printf '\n== %s\n' "$*" >&2; }

# metric NAME VALUE UNIT [NOTE]: one measurement, on standard output and in the results file.
metric() {
	printf '{"type":"metric","name":"%s","value":%s,"unit":"%s","note":"%s"}\n' "$1" "$2" "$3" "${4:-}" | tee -a "$RESULTS"
}

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# build: the binaries, unless they are there already (run.sh built them).
build() {
	if [[ -x $BIN/sportsdb && -x $BIN/loadgen && -n ${DB:-} ]]; then
		return
	fi
	say "building sportsdb and loadgen"
	(cd "$ROOT" && go build -o "$BIN/sportsdb" ./cmd/sportsdb && go build -o "$BIN/loadgen" ./bench/loadgen)
}

# dataset: $DB when given, else the database of $SCALE, generated once (as run.sh does: into
# a temporary file first, so an interrupted generation is never reused).
dataset() {
	if [[ -n ${DB:-} ]]; then
		echo "$DB"
		return
	fi
	local db=$DATA/$SCALE.db
	if [[ ! -s $db ]]; then
		say "generating the $SCALE dataset into $db (once)"
		rm -f "$db.tmp" "$db.tmp-wal" "$db.tmp-shm"
		"$BIN/sportsdb" gen --scale "$SCALE" --db "$db.tmp" >&2
		mv "$db.tmp" "$db"
		rm -f "$DATA/$SCALE-keys-"*.txt
	fi
	echo "$db"
}

# keys TIER COUNT: COUNT new keys of TIER in the copy, one per line in a file.
keys() {
	local file=$RUN/keys-$1.txt
	: >"$file"
	chmod 600 "$file"
	for _ in $(seq "$2"); do
		"$BIN/sportsdb" keys add --tier "$1" --label bench-live --db "$LIVE_DB" >>"$file"
	done
	echo "$file"
}

main() {
	metric "live: load average at start" "\"$(loadavg)\"" "" "1, 5 and 15 minutes; the machine is shared"
	build
	local src
	src=$(dataset)
	say "copying $src to a database the imports may change"
	LIVE_DB=$RUN/live.db
	rm -f "$LIVE_DB" "$LIVE_DB-wal" "$LIVE_DB-shm"
	cp "$src" "$LIVE_DB"
	if [[ -f $src-wal ]]; then cp "$src-wal" "$LIVE_DB-wal"; fi
	local premium free
	premium=$(keys premium "$PREMIUM_KEYS")
	free=$(keys free "$FREE_KEYS")

	say "starting sportsdb on $LIVE_DB"
	"$BIN/sportsdb" serve --db "$LIVE_DB" --addr "$ADDR" --limits "$LIMITS" --log-level warn >"$RUN/sportsdb.out" 2>"$RUN/sportsdb.log" &
	PIDS+=("$!")
	"$BIN/loadgen" wait -url "http://$ADDR/readyz" -since "$(date +%s%N)" -timeout 120s >/dev/null

	say "the mixed request list from the dataset"
	rm -rf "$RUN/lists" && mkdir -p "$RUN/lists"
	"$BIN/loadgen" lists -base "http://$ADDR" -premium "$premium" -free "$free" -out "$RUN/lists" -n "$LIST_N" >&2

	say "live workload: $RUNS runs on unchanging data and $RUNS while importing every $TICK, alternating ($CONNS connections, $DURATION each)"
	"$BIN/loadgen" live -addr "$ADDR" -list "$RUN/lists/mixed.txt" -db "$LIVE_DB" -sportsdb "$BIN/sportsdb" \
		-premium "$premium" -dir "$RUN/imports" -out "$RESULTS" -c "$CONNS" -d "$DURATION" -warmup "$WARMUP" \
		-runs "$RUNS" -tick "$TICK" -scores "$SCORES" -events "$EVENTS"
	metric "live: load average at end" "\"$(loadavg)\"" "" "1, 5 and 15 minutes"
	echo "results: $RESULTS" >&2
}

main "$@"
