#!/usr/bin/env bash
# bench/run.sh: sportsdb against nginx serving the same answers as static files, on loopback.
#
#   bench/run.sh                 # full-scale dataset (built once, reused)
#   SCALE=small bench/run.sh     # a quicker run on the small dataset
#   QUICK=1 bench/run.sh         # small dataset, short runs: a check that finishes in minutes
#
# What it does, in order (details in docs/PERFORMANCE.md):
#   1. installs nginx from Debian if it is missing (apt-get update first; bench/lib/nginx.sh,
#      which both benchmarks against nginx share, installs and starts it); builds sportsdb, the
#      load generator (bench/loadgen); profiles come from `sportsdb serve --pprof ADDR`;
#      generates the dataset into $BENCH_DATA/$SCALE.db once and reuses it on later runs;
#      prints the machine and an estimate of the whole run's duration.
#   2. measures the time to the first answer of `sportsdb serve` on a fresh demo database
#      (serve creates it) and on an existing one; starts sportsdb on the dataset with raised
#      per-minute limits and creates PREMIUM_KEYS premium and FREE_KEYS free keys.
#   3. builds four request lists from the dataset through the API (no ids are hard-coded):
#      hot (a few lookups, repeated), mixed (every v1 and v2 endpoint, random ids and names,
#      many keys), search (name searches alone; with COLD=on, LIST_N distinct searches from
#      the cold walk, each run of it on a restarted server with an empty response cache),
#      cold (COLD_N distinct requests over every endpoint, from a wider walk of the dataset).
#   4. fetches every request once and stores each answer under an nginx root, then starts
#      nginx (its own config, prefix, pid and logs, loopback port, current user).
#   5. drives each workload against sportsdb and nginx with the same connections and
#      duration; runs mixed and search again at half of sportsdb's peak rate (constant rate,
#      latency counted from when each request was due), right after the peak's run and on the
#      server as it left it, RATED_RUNS times, each run followed
#      by nginx at the same rate; the targets take the median run, since one 15-second
#      window on a shared machine can be disturbed; reads sportsdb's peak RSS (VmHWM);
#      takes CPU profiles of the same, warm server under one more mixed and search run
#      (PROFILE=off skips them). Every sportsdb run records its response cache's hit ratio
#      and the server's CPU time per request.
#   6. cold: each request of the cold list sent once, no warm-up, to a sportsdb restarted with
#      an empty response cache (memory and disk) before every cold run, its database file read
#      once into the system's page cache before every start (as nginx's files are); nginx serves the same
#      answers after one unmeasured pass has warmed its page cache; then RATED_RUNS runs at
#      half of sportsdb's cold peak, each on a restarted server, beside nginx at that rate;
#      a CPU profile of one more cold run. Times `sportsdb import` of an export of the small
#      dataset into a new SQLite file.
#   7. PostgreSQL (PG=on): imports an export of the dataset into a fresh schema (timed), starts
#      one replica on it with Redis limits and an empty cache, sends it the cold list once
#      (cold-pg), restarts it and drives mixed against it (mixed-pg), then restarts it beside
#      a second replica on the same PostgreSQL and Redis and drives mixed round-robin over
#      both (mixed-pg-2), then drives the search list against one replica (search-pg), at
#      full speed and RATED_RUNS times at half of that peak; every run's replicas start with
#      empty caches.
#   8. live (LIVE=on): runs bench/live.sh if it exists; the JSON lines it prints join the results.
#   9. prints the table and the targets, writes them to $BENCH_DATA/results/, stops every
#      process it started (also on Ctrl-C or error). Exits non-zero on a broken run (errors,
#      a server that died), never on a missed target.
#
# Settings (environment):
#   QUICK=1                small dataset and short runs (DURATION=3s WARMUP=1s COLD_N=20000
#                          COLD_DURATION=20s RATED_RUNS=1 LIST_N=2000 PROFILE=off) unless set
#   SCALE=full|small|demo  dataset scale (default full)
#   BENCH_DATA=DIR         where datasets, binaries, lists and results go (default bench/.data)
#   DURATION=15s WARMUP=2s measured time and unmeasured warm-up of each run
#   CONNS=32               connections of every run, both servers
#   RATED_RUNS=3           runs of each workload at half of peak rate, on each server
#   PREMIUM_KEYS=48 FREE_KEYS=16   keys the lists spread requests over
#   LIST_N=5000            requests in the mixed and search lists
#   COLD_N=200000          distinct requests in the cold list, each sent once per run
#   COLD_DURATION=300s     longest full-speed cold run (it ends when the list does, normally)
#   COLD_LEAGUES=200       leagues the cold list's ids and names are read from
#   COLD=on|off            the cold workloads (default on)
#   PG=on|off              the PostgreSQL workloads and import (default on)
#   BENCH_POSTGRES=URL     PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test?sslmode=disable);
#                          the script creates, and at the end drops, schema sportsdb_bench_$SCALE
#   BENCH_REDIS=URL        Redis of the PostgreSQL replicas (default redis://127.0.0.1:6379/0)
#   LIVE=on|off            run bench/live.sh, if present (default off)
#   ACCESS_LOG=on|off      access logs on both servers (sportsdb at info level to a file,
#                          nginx access_log to a file), or off on both (default on)
#   PROFILE=on|off         CPU profiles of the server under the mixed, search and cold
#                          workloads (default on)
#   LIMITS=free:200000,... sportsdb --limits for the runs (requests per key and minute)
#   PORT_BASE=18080        sportsdb, nginx, the demo server, profiling and the two PostgreSQL
#                          replicas use PORT_BASE..+5; bench/live.sh gets PORT_BASE+6..+9
#
# bench/live.sh is run with BIN (binaries), DB (the dataset), RUN (a scratch folder), SCALE,
# DURATION, WARMUP, CONNS, PORT_BASE (its first port) and QUICK in its environment; it prints
# results as JSON lines (loadgen run lines, {"type":"metric",...} and {"type":"target","name",
# "wanted","measured","met"}) on standard output.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
# shellcheck source=SCRIPTDIR/lib/nginx.sh
source "$HERE/lib/nginx.sh"
QUICK=${QUICK:-0}
if [[ $QUICK == 1 ]]; then
	SCALE=${SCALE:-small} DURATION=${DURATION:-3s} WARMUP=${WARMUP:-1s} COLD_N=${COLD_N:-20000}
	COLD_DURATION=${COLD_DURATION:-20s} RATED_RUNS=${RATED_RUNS:-1} LIST_N=${LIST_N:-2000} PROFILE=${PROFILE:-off}
fi
SCALE=${SCALE:-full}
DATA=${BENCH_DATA:-$HERE/.data}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-2s}
CONNS=${CONNS:-32}
RATED_RUNS=${RATED_RUNS:-3}
PREMIUM_KEYS=${PREMIUM_KEYS:-48}
FREE_KEYS=${FREE_KEYS:-16}
LIST_N=${LIST_N:-5000}
COLD_N=${COLD_N:-200000}
COLD_DURATION=${COLD_DURATION:-300s}
COLD_LEAGUES=${COLD_LEAGUES:-200}
COLD=${COLD:-on}
PG=${PG:-on}
BENCH_POSTGRES=${BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
BENCH_REDIS=${BENCH_REDIS:-redis://127.0.0.1:6379/0}
LIVE=${LIVE:-off}
ACCESS_LOG=${ACCESS_LOG:-on}
PROFILE=${PROFILE:-on}
PORT_BASE=${PORT_BASE:-18080}
SPORTSDB_ADDR=127.0.0.1:$PORT_BASE
NGINX_ADDR=127.0.0.1:$((PORT_BASE + 1))
DEMO_ADDR=127.0.0.1:$((PORT_BASE + 2))
PPROF_ADDR=127.0.0.1:$((PORT_BASE + 3))
PG1_ADDR=127.0.0.1:$((PORT_BASE + 4))
PG2_ADDR=127.0.0.1:$((PORT_BASE + 5))
PG_SCHEMA=sportsdb_bench_$SCALE
# Per key and minute: well above what one key gets in the busiest minute of a run (at 33,000
# requests/s, about 36,000 for a premium key), so no run is limited. The in-memory limiter's
# memory follows the requests in the window, not the limit.
LIMITS=${LIMITS:-free:200000,premium:200000,business:200000}

case $SCALE in demo | small | full) ;; *) echo "run.sh: SCALE=$SCALE: want demo, small or full" >&2; exit 2 ;; esac
for setting in ACCESS_LOG PROFILE COLD PG LIVE; do
	case ${!setting} in on | off) ;; *) echo "run.sh: $setting=${!setting}: want on or off" >&2; exit 2 ;; esac
done
case $RATED_RUNS in [1-9] | [1-9][0-9]) ;; *) echo "run.sh: RATED_RUNS=$RATED_RUNS: want a number from 1 to 99" >&2; exit 2 ;; esac
case $COLD_N in [1-9][0-9][0-9]*) ;; *) echo "run.sh: COLD_N=$COLD_N: want a number of at least 100" >&2; exit 2 ;; esac
for setting in DURATION WARMUP COLD_DURATION; do
	[[ ${!setting} =~ ^[0-9]+s$ ]] || { echo "run.sh: $setting=${!setting}: want whole seconds, like 15s" >&2; exit 2; }
done

BIN=$DATA/bin
RUN=$DATA/run/$SCALE
OUT=$DATA/results
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RESULTS=$OUT/$SCALE-$STAMP.jsonl
mkdir -p "$BIN" "$RUN" "$OUT"
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
	drop_schema
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { printf '\n== %s\n' "$*" >&2; }

# metric NAME VALUE UNIT [NOTE] appends one measurement to the results.
metric() {
	printf '{"type":"metric","name":"%s","value":%s,"unit":"%s","note":"%s"}\n' "$1" "$2" "$3" "${4:-}" >>"$RESULTS"
}

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# stop PID: ends one process this script started and forgets it.
stop() {
	kill "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
	forget "$1"
}

forget() {
	local keep=() pid
	for pid in "${PIDS[@]}"; do [[ $pid == "$1" ]] || keep+=("$pid"); done
	PIDS=("${keep[@]}")
}

build() {
	say "building sportsdb and loadgen"
	(cd "$ROOT" && go build -o "$BIN/sportsdb" ./cmd/sportsdb && go build -o "$BIN/loadgen" ./bench/loadgen)
}

# dataset SCALE: the database of that scale, generated once (into a temporary file first, so
# an interrupted generation is never reused).
dataset() {
	local db=$DATA/$1.db
	if [[ ! -s $db ]]; then
		say "generating the $1 dataset into $db (once)"
		rm -f "$db.tmp" "$db.tmp-wal" "$db.tmp-shm"
		"$BIN/sportsdb" gen --scale "$1" --db "$db.tmp" >&2
		mv "$db.tmp" "$db"
		rm -f "$DATA/$1-keys-"*.txt
	fi
	echo "$db"
}

# first_answer: time from starting `sportsdb serve` to its first 200, on a fresh demo
# database (serve generates it) and again on the now existing one.
first_answer() {
	say "time to first answer on the demo database"
	local dir=$RUN/demo-first pid ms
	rm -rf "$dir" && mkdir -p "$dir"
	for case in "fresh (serve creates it)" "existing"; do
		local t0
		t0=$(date +%s%N)
		"$BIN/sportsdb" serve --db "$dir/demo.db" --addr "$DEMO_ADDR" --log-level warn >"$dir/serve.out" 2>&1 &
		pid=$!
		PIDS+=("$pid")
		ms=$("$BIN/loadgen" wait -url "http://$DEMO_ADDR/api/v1/json/123/all_sports.php" -since "$t0" -timeout 60s)
		stop "$pid"
		echo "first answer, $case: $ms ms" >&2
		if [[ $case == existing ]]; then
			metric "first answer after start, existing demo database" "$ms" ms
		else
			metric "first answer after start, demo database" "$ms" ms "fresh file: includes generating the demo data"
		fi
	done
}

# start_server NAME DB ADDR [FLAG...]: sportsdb serve on DB at ADDR with an empty response
# cache (its disk part in $RUN/cache-NAME, emptied first), logging to $RUN/NAME.log; waits
# until it says ready and sets SERVER_PID. /readyz is 503 until the name index is built and the
# server's warm-up answers are done: a run that began before measured the start's stall.
start_server() {
	local name=$1 db=$2 addr=$3 level=warn
	shift 3
	[[ $ACCESS_LOG == on ]] && level=info
	rm -rf "$RUN/cache-$name" && mkdir -p "$RUN/cache-$name"
	# Logs of every start of a server, one after another, so a restart keeps what came before.
	echo "== start $(date -u +%H:%M:%S)" >>"$RUN/$name.log"
	"$BIN/sportsdb" serve --db "$db" --addr "$addr" --limits "$LIMITS" --log-level "$level" \
		--cache-dir "$RUN/cache-$name" "$@" >>"$RUN/$name.out" 2>>"$RUN/$name.log" &
	SERVER_PID=$!
	PIDS+=("$SERVER_PID")
	"$BIN/loadgen" wait -url "http://$addr/readyz" -since "$(date +%s%N)" -timeout 120s >/dev/null
}

start_sportsdb() {
	warm_file "$1" "$1-wal"
	start_server sportsdb "$1" "$SPORTSDB_ADDR" --pprof "$PPROF_ADDR"
	SPORTSDB_PID=$SERVER_PID
}

# warm_file FILE...: one read of each file that exists, so that the system's page cache holds
# it, as one unmeasured pass holds nginx's answers before the cold runs. The machine's page
# cache does not always keep the database between runs (the answers nginx serves are 11 GB at
# full scale): without this, the first seconds after a restart measured the disk.
warm_file() {
	local f
	for f in "$@"; do
		[[ -f $f ]] && cat "$f" >/dev/null
	done
	return 0
}

# restart_sportsdb: the SQLite server again, with an empty response cache and the database
# file warm in the system's page cache (warm_file), as nginx's files are.
restart_sportsdb() {
	alive "$SPORTSDB_PID" sportsdb
	note_peak "$SPORTSDB_PID"
	stop "$SPORTSDB_PID"
	start_sportsdb "$DB"
}

# alive PID NAME: a server that died during the runs makes the run broken.
alive() {
	if ! kill -0 "$1" 2>/dev/null; then
		echo "run.sh: $2 (pid $1) is no longer running; its log: $RUN/$2.log" >&2
		BROKEN=1
	fi
}

# keys TIER COUNT: COUNT keys of TIER, created with `sportsdb keys add` once per dataset.
keys() {
	local file=$DATA/$SCALE-keys-$1.txt
	if [[ ! -s $file ]] || (($(wc -l <"$file") < $2)); then
		: >"$file.tmp"
		chmod 600 "$file.tmp"
		for _ in $(seq "$2"); do
			"$BIN/sportsdb" keys add --tier "$1" --label bench --db "$DB" >>"$file.tmp"
		done
		mv "$file.tmp" "$file"
	fi
	echo "$file"
}

# start_nginx ROOT: nginx serving the answers stored under ROOT (bench/lib/nginx.sh).
start_nginx() {
	local log=off
	[[ $ACCESS_LOG == on ]] && log="$RUN/nginx/access.log"
	nginx_start "$RUN/nginx" "$NGINX_ADDR" "$1" "$log" application/json \
		"http://$NGINX_ADDR/$(head -1 "$RUN/lists/hot.nginx.txt" | sed 's|^/||')"
}

# drive WORKLOAD SERVER ADDRS LIST [RATE [LOADGEN FLAG...]]: one run, appended to the
# results; prints its req/s. ADDRS is one address or several, comma-separated (requests go
# round-robin); for sportsdb the run also reads the response cache's hits from /metrics.
drive() {
	local workload=$1 server=$2 addrs=$3 list=$4 rate=${5:-0} line metrics=() a x
	shift $(($# < 5 ? $# : 5))
	if [[ $server == sportsdb ]]; then
		local urls=()
		IFS=, read -ra a <<<"$addrs"
		for x in "${a[@]}"; do urls+=("http://$x/metrics"); done
		metrics=(-metrics "$(IFS=,; echo "${urls[*]}")")
	fi
	line=$("$BIN/loadgen" run -addr "$addrs" -list "$list" -c "$CONNS" -d "$DURATION" -warmup "$WARMUP" \
		-rate "$rate" -workload "$workload" -server "$server" "${metrics[@]}" "$@")
	echo "$line" >>"$RESULTS"
	local rps hits cpu
	rps=$(grep -o '"rps":[0-9.]*' <<<"$line" | cut -d: -f2)
	hits=$(grep -o '"hit_ratio":[0-9.]*' <<<"$line" | cut -d: -f2 || true)
	cpu=$(grep -o '"server_cpu_us":[0-9.]*' <<<"$line" | cut -d: -f2 || true)
	local at=""
	[[ $rate != 0 ]] && at=" at $rate/s"
	echo "$workload on $server$at: $rps req/s${hits:+, cache hit ratio $hits}${cpu:+, server CPU $cpu µs a request}, load average $(loadavg)" >&2
	echo "$rps"
}

half() { awk -v r="$1" 'BEGIN{printf "%d", r/2}'; }

import_speed() {
	say "import speed: export of the small dataset into a new SQLite file"
	local small dir=$RUN/import records t0 t1
	small=$(dataset small)
	rm -rf "$dir" && mkdir -p "$dir"
	"$BIN/sportsdb" export --db "$small" "$dir/export" 2>"$dir/export.log"
	records=$(cat "$dir/export/"* | wc -l)
	t0=$(date +%s%N)
	"$BIN/sportsdb" import --db "$dir/imported.db" "$dir/export" 2>"$dir/import.log"
	t1=$(date +%s%N)
	local secs
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b-a)/1e9}')
	echo "imported $records records in $secs s" >&2
	metric "import speed" "$(awk -v n="$records" -v s="$secs" 'BEGIN{printf "%.0f", n/s}')" "records/s" "$records records in $secs s, wall clock of the whole command"
}

# profile WORKLOAD [LOADGEN FLAG...]: a CPU profile of the measured sportsdb, its cache as
# the runs left it, under one more full-rate run of a workload; the profile and its top
# functions go to the results folder.
profile() {
	local workload=$1 lg_pid prefix=$OUT/$SCALE-$STAMP.$1
	shift
	say "CPU profile under the $workload workload"
	local secs=${DURATION%s}
	"$BIN/loadgen" run -addr "$SPORTSDB_ADDR" -list "$RUN/lists/$workload.txt" -c "$CONNS" -d "${secs}s" -warmup "$WARMUP" \
		-workload "$workload" -server sportsdb-pprof "$@" >/dev/null &
	lg_pid=$!
	PIDS+=("$lg_pid")
	[[ " $* " == *" -once "* ]] || sleep "${WARMUP%s}"
	curl -s -o "$prefix.cpu.pprof" "http://$PPROF_ADDR/debug/pprof/profile?seconds=$secs" || true
	wait "$lg_pid" || true
	forget "$lg_pid"
	(cd "$ROOT" && go tool pprof -top -nodecount=40 "$BIN/sportsdb" "$prefix.cpu.pprof" >"$prefix.cpu.top.txt" 2>&1 &&
		go tool pprof -top -cum -nodecount=60 "$BIN/sportsdb" "$prefix.cpu.pprof" >"$prefix.cpu.cum.txt" 2>&1) ||
		echo "run.sh: pprof could not read $prefix.cpu.pprof" >&2
	echo "profile: $prefix.cpu.pprof (top functions: $prefix.cpu.top.txt)" >&2
}

# note_peak PID: keeps the highest peak resident memory (VmHWM) of the measured servers, read
# before each is stopped, in PEAK_KB.
PEAK_KB=0
note_peak() {
	local kb
	kb=$(awk '/^VmHWM/{print $2}' "/proc/$1/status" 2>/dev/null || echo 0)
	((${kb:-0} > PEAK_KB)) && PEAK_KB=$kb
	return 0
}

# memory PID: the peak and the present resident memory of a process, split as the kernel
# counts it (heap and other anonymous memory, mapped files).
memory() {
	local status=/proc/$1/status
	note_peak "$1"
	metric "sportsdb peak RSS" "$((PEAK_KB / 1024))" MB "highest VmHWM of the servers of the hot, mixed and search runs, $SCALE dataset"
	metric "sportsdb RSS at end" "$(awk '/^VmRSS/{printf "%.0f", $2/1024}' "$status")" MB \
		"$(awk '/^RssAnon|^RssFile/{printf "%s %.0f MB ", $1, $2/1024}' "$status")"
	# What the Go runtime holds; the rest of the anonymous memory is SQLite's own C heap
	# (page caches of its connections, sorts).
	metric "Go runtime memory at end" "$(curl -s "http://$SPORTSDB_ADDR/metrics" |
		awk '/^go_memstats_sys_bytes /{printf "%.0f", $2/1048576}')" MB "go_memstats_sys_bytes"
}

# machine: what the figures were measured on.
machine() {
	local cpu mem
	cpu=$(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo)
	mem=$(awk '/^MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo)
	metric "machine" "\"$(nproc) CPUs, ${cpu:-unknown CPU}, $mem\"" "" "nproc, /proc/cpuinfo, MemTotal"
	echo "machine: $(nproc) CPUs, ${cpu:-unknown CPU}, $mem; load average $(loadavg)" >&2
}

# estimate: the run's duration told up front, from the settings: a full-speed cold run takes
# the list's length at about 1,500 requests/s (1,000 on PostgreSQL), COLD_DURATION at most;
# generating, mirroring, exporting and importing are guessed from the
# records of the dataset (4.3 million at full scale) at rates measured on a two-core machine.
estimate() {
	local d=${DURATION%s} w=${WARMUP%s} cd=${COLD_DURATION%s} runs fixed=60 records
	case $SCALE in full) records=4320000 ;; small) records=259000 ;; *) records=30000 ;; esac
	runs=$(((3 * 2 + RATED_RUNS * 4) * (d + w)))
	[[ $PROFILE == on ]] && runs=$((runs + 2 * (d + w)))
	[[ -s $DATA/$SCALE.db ]] || fixed=$((fixed + records / 20000))
	fixed=$((fixed + 259000 / 20000)) # the SQLite import of the small dataset
	local cold_sqlite=$((COLD_N / 1500 < cd ? COLD_N / 1500 : cd)) cold_pg=$((COLD_N / 1000 < cd ? COLD_N / 1000 : cd))
	if [[ $COLD == on ]]; then
		runs=$((runs + cold_sqlite + 2 * COLD_N / 15000 + RATED_RUNS * 2 * d))
		[[ $PROFILE == on ]] && runs=$((runs + d))
		fixed=$((fixed + COLD_N / 1000 + 30)) # the cold list's discovery and mirroring
	fi
	if [[ $PG == on ]]; then
		[[ $COLD == on ]] && runs=$((runs + cold_pg))
		runs=$((runs + (3 + RATED_RUNS) * (d + w))) # mixed on one and two replicas, search
		[[ -s $DATA/$SCALE-export.records ]] || fixed=$((fixed + records / 20000))
		fixed=$((fixed + records / 20000))
	fi
	echo "estimated duration: about $(((runs + fixed + 59) / 60)) minutes ($(((runs + 59) / 60)) of measured runs, $(((fixed + 59) / 60)) of generating, mirroring, exporting and importing; longer on a loaded machine)" >&2
}

# cold_sqlite: the cold list sent once to a sportsdb with an empty response cache, beside
# nginx serving the same answers from a warm page cache; then at half that peak rate.
cold_sqlite() {
	say "cold: $(wc -l <"$RUN/lists/cold.txt") distinct requests, each sent once, sportsdb restarted with an empty cache before every run"
	restart_sportsdb
	local peak rate i
	peak=$(drive cold sportsdb "$SPORTSDB_ADDR" "$RUN/lists/cold.txt" 0 -once -d "$COLD_DURATION")
	metric "sportsdb peak RSS, cold" "$(awk '/^VmHWM/{printf "%.0f", $2/1024}' "/proc/$SPORTSDB_PID/status")" MB \
		"VmHWM after the full-speed cold run, from a restart"
	"$BIN/loadgen" run -addr "$NGINX_ADDR" -list "$RUN/lists/cold.nginx.txt" -c "$CONNS" -d "$COLD_DURATION" -once >/dev/null # page cache
	drive cold nginx "$NGINX_ADDR" "$RUN/lists/cold.nginx.txt" 0 -once -d "$COLD_DURATION" >/dev/null
	rate=$(half "$peak")
	for ((i = 1; i <= RATED_RUNS; i++)); do
		restart_sportsdb
		drive cold sportsdb "$SPORTSDB_ADDR" "$RUN/lists/cold.txt" "$rate" -once >/dev/null
		drive cold nginx "$NGINX_ADDR" "$RUN/lists/cold.nginx.txt" "$rate" -once >/dev/null
	done
	if [[ $PROFILE == on ]]; then
		restart_sportsdb
		profile cold -once
	fi
}

# pg_dsn: the PostgreSQL URL of the benchmark's own schema.
pg_dsn() {
	local sep='?'
	[[ $BENCH_POSTGRES == *\?* ]] && sep='&'
	echo "$BENCH_POSTGRES${sep}search_path=$PG_SCHEMA%2Cpublic"
}

psql_bench() { PGOPTIONS=--client-min-messages=warning psql "$BENCH_POSTGRES" -v ON_ERROR_STOP=1 -qAtc "$1" >&2; }

# export_dataset: the dataset in the import format, written once per dataset and reused.
export_dataset() {
	local dir=$DATA/$SCALE-export
	if [[ ! -s $dir.records ]]; then
		say "exporting the $SCALE dataset into $dir (once)"
		rm -rf "$dir" "$dir.tmp"
		"$BIN/sportsdb" export --db "$DB" "$dir.tmp" 2>"$RUN/export.log"
		mv "$dir.tmp" "$dir"
		cat "$dir/"* | wc -l >"$dir.records"
	fi
	echo "$dir"
}

# postgres: import into a fresh schema (timed), the cold list once against one replica with
# Redis limits, mixed on one replica and on two round-robin, the search list on one replica.
postgres() {
	if ! command -v psql >/dev/null || ! psql "$BENCH_POSTGRES" -qAtc 'select 1' >/dev/null 2>&1; then
		echo "run.sh: no PostgreSQL at BENCH_POSTGRES (or no psql): skipping the PostgreSQL workloads; PG=off hides this" >&2
		metric "PostgreSQL workloads" '"not run"' "" "no server at BENCH_POSTGRES, or no psql"
		return
	fi
	local export records dsn t0 t1 secs
	export=$(export_dataset)
	records=$(cat "$export.records")
	dsn=$(pg_dsn)
	say "import into PostgreSQL: $records records into schema $PG_SCHEMA"
	psql_bench "CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public; DROP SCHEMA IF EXISTS $PG_SCHEMA CASCADE; CREATE SCHEMA $PG_SCHEMA"
	PG_SCHEMA_MADE=1
	t0=$(date +%s%N)
	"$BIN/sportsdb" import --db "$dsn" "$export" 2>"$RUN/import-pg.log"
	t1=$(date +%s%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b-a)/1e9}')
	echo "imported $records records into PostgreSQL in $secs s" >&2
	metric "import speed, PostgreSQL" "$(awk -v n="$records" -v s="$secs" 'BEGIN{printf "%.0f", n/s}')" "records/s" \
		"$records records ($SCALE dataset) in $secs s into a fresh schema, wall clock of the whole command"

	local tier count file keyfiles=() pgkeyfiles=()
	for tier in premium free; do
		count=$(wc -l <"$DATA/$SCALE-keys-$tier.txt")
		file=$RUN/pg-keys-$tier.txt
		: >"$file" && chmod 600 "$file"
		for _ in $(seq "$count"); do
			"$BIN/sportsdb" keys add --tier "$tier" --label bench --db "$dsn" >>"$file"
		done
		keyfiles+=("$DATA/$SCALE-keys-$tier.txt")
		pgkeyfiles+=("$file")
	done
	local w from to
	from=$(IFS=,; echo "${keyfiles[*]}")
	to=$(IFS=,; echo "${pgkeyfiles[*]}")
	for w in cold mixed search; do
		[[ -s $RUN/lists/$w.txt ]] || continue
		"$BIN/loadgen" rekey -list "$RUN/lists/$w.txt" -out "$RUN/lists/$w-pg.txt" -from "$from" -to "$to" >&2
	done

	replica sportsdb-pg1 "$PG1_ADDR" "$dsn"
	if [[ $COLD == on ]]; then
		say "cold on PostgreSQL: the cold list once, one replica with Redis limits and an empty cache"
		drive cold-pg sportsdb "$PG1_ADDR" "$RUN/lists/cold-pg.txt" 0 -once -d "$COLD_DURATION" >/dev/null
	fi
	# Each run starts from empty response caches: a replica that kept the answers of the run
	# before would make the next run's figure the cache's.
	say "mixed on PostgreSQL: one replica, then two round-robin, each run from empty caches"
	replica sportsdb-pg1 "$PG1_ADDR" "$dsn"
	drive mixed-pg sportsdb "$PG1_ADDR" "$RUN/lists/mixed-pg.txt" >/dev/null
	replica sportsdb-pg1 "$PG1_ADDR" "$dsn"
	replica sportsdb-pg2 "$PG2_ADDR" "$dsn"
	drive mixed-pg-2 sportsdb "$PG1_ADDR,$PG2_ADDR" "$RUN/lists/mixed-pg.txt" >/dev/null
	end_replica sportsdb-pg2
	# The search list on one replica, from an empty cache as on SQLite: what it measures is
	# the store's search path on PostgreSQL (the name index in memory, the docs read by seq).
	local peak rate i
	say "search on PostgreSQL: one replica from an empty cache, then at half of its peak rate"
	replica sportsdb-pg1 "$PG1_ADDR" "$dsn"
	peak=$(drive search-pg sportsdb "$PG1_ADDR" "$RUN/lists/search-pg.txt")
	rate=$(half "$peak")
	for ((i = 1; i <= RATED_RUNS; i++)); do
		replica sportsdb-pg1 "$PG1_ADDR" "$dsn"
		drive search-pg sportsdb "$PG1_ADDR" "$RUN/lists/search-pg.txt" "$rate" >/dev/null
	done
	end_replica sportsdb-pg1
	drop_schema
}

# REPLICAS: the pid of each PostgreSQL replica running, by name.
declare -A REPLICAS=()

# replica NAME ADDR DSN: starts a PostgreSQL replica with Redis limits and an empty response
# cache; one of that name still running is checked and stopped first.
replica() {
	local name=$1 addr=$2 dsn=$3
	[[ -n ${REPLICAS[$name]:-} ]] && end_replica "$name"
	start_server "$name" "$dsn" "$addr" --redis "$BENCH_REDIS"
	REPLICAS[$name]=$SERVER_PID
}

# end_replica NAME: a replica that died during its runs makes the run broken; it is stopped.
end_replica() {
	alive "${REPLICAS[$1]}" "$1"
	stop "${REPLICAS[$1]}"
	unset "REPLICAS[$1]"
}

drop_schema() {
	if [[ ${PG_SCHEMA_MADE:-} == 1 ]]; then
		psql_bench "DROP SCHEMA IF EXISTS $PG_SCHEMA CASCADE" || true
		PG_SCHEMA_MADE=""
	fi
}

# live: bench/live.sh, when present and LIVE=on; its JSON lines join the results.
live() {
	local script=$HERE/live.sh
	if [[ ! -f $script ]]; then
		echo "run.sh: LIVE=on but there is no bench/live.sh" >&2
		return
	fi
	say "live: bench/live.sh"
	mkdir -p "$RUN/live"
	BIN=$BIN DB=$DB RUN=$RUN/live SCALE=$SCALE DURATION=$DURATION WARMUP=$WARMUP CONNS=$CONNS \
		PORT_BASE=$((PORT_BASE + 6)) QUICK=$QUICK bash "$script" >"$RUN/live/results.jsonl" || {
		echo "run.sh: bench/live.sh failed" >&2
		BROKEN=1
	}
	cat "$RUN/live/results.jsonl" >>"$RESULTS"
}

main() {
	metric "load average at start" "\"$(loadavg)\"" "" "1, 5 and 15 minutes; the machine is shared"
	machine
	estimate
	nginx_install
	build
	DB=$(dataset "$SCALE")
	first_answer

	say "starting sportsdb on $DB ($SCALE)"
	start_sportsdb "$DB"
	local premium free cold=()
	premium=$(keys premium "$PREMIUM_KEYS")
	free=$(keys free "$FREE_KEYS")

	say "request lists from the dataset"
	[[ $COLD == on ]] && cold=(-cold "$COLD_N" -cold-leagues "$COLD_LEAGUES")
	rm -rf "$RUN/lists" "$RUN/www" && mkdir -p "$RUN/lists" "$RUN/www"
	"$BIN/loadgen" lists -base "http://$SPORTSDB_ADDR" -premium "$premium" -free "$free" -out "$RUN/lists" -n "$LIST_N" "${cold[@]}" >&2
	# The cold answers first: mirroring leaves the response cache as the others' lists left
	# it, warm, as every earlier round measured hot, mixed and search.
	local lists=(hot mixed search)
	[[ $COLD == on ]] && lists=(cold "${lists[@]}")
	for w in "${lists[@]}"; do
		"$BIN/loadgen" mirror -base "http://$SPORTSDB_ADDR" -list "$RUN/lists/$w.txt" -root "$RUN/www" -out "$RUN/lists/$w.nginx.txt" >&2
	done
	[[ $COLD == on ]] && echo "cold answers stored for nginx: $(du -sh "$RUN/www" | cut -f1) in all" >&2
	start_nginx "$RUN/www"

	local peak rate i
	for w in hot mixed search; do
		say "workload $w"
		# Search starts from an empty response cache: with the cold list on, its list holds
		# distinct searches, so what it measures is the store's search path.
		[[ $w == search && $COLD == on ]] && restart_sportsdb
		peak=$(drive "$w" sportsdb "$SPORTSDB_ADDR" "$RUN/lists/$w.txt")
		drive "$w" nginx "$NGINX_ADDR" "$RUN/lists/$w.nginx.txt" >/dev/null
		[[ $w == hot ]] && continue
		# At half of the peak just measured, on the server as that peak left it: mixed on a
		# warm response cache, search each time from a restart. (Run after the search's
		# restart, the rated mixed run measured the restart instead: its first seconds sent
		# every heavy answer to the store at once at a rate set by the warm peak.)
		rate=$(half "$peak")
		say "$w at half of sportsdb's peak rate ($rate/s), $RATED_RUNS times, each beside nginx at the same rate"
		for ((i = 1; i <= RATED_RUNS; i++)); do
			[[ $w == search && $COLD == on ]] && restart_sportsdb
			drive "$w" sportsdb "$SPORTSDB_ADDR" "$RUN/lists/$w.txt" "$rate" >/dev/null
			drive "$w" nginx "$NGINX_ADDR" "$RUN/lists/$w.nginx.txt" "$rate" >/dev/null
		done
	done

	alive "$SPORTSDB_PID" sportsdb
	memory "$SPORTSDB_PID"
	if [[ $PROFILE == on ]]; then
		profile mixed
		profile search
	fi
	[[ $COLD == on ]] && cold_sqlite
	alive "$SPORTSDB_PID" sportsdb
	stop "$NGINX_PID"
	stop "$SPORTSDB_PID"

	import_speed
	[[ $PG == on ]] && postgres
	[[ $LIVE == on ]] && live
	metric "load average at end" "\"$(loadavg)\"" "" "1, 5 and 15 minutes"

	say "results ($SCALE dataset, $CONNS connections, $DURATION per run, access logs $ACCESS_LOG)"
	local status=0
	"$BIN/loadgen" report -check "$RESULTS" >"$OUT/$SCALE-$STAMP.md" || status=$?
	cat "$OUT/$SCALE-$STAMP.md"
	echo "results: $RESULTS" >&2
	if [[ $status != 0 || ${BROKEN:-} == 1 ]]; then
		echo "run.sh: broken run (errors or a server that died): see above" >&2
		exit 1
	fi
}

main "$@"
