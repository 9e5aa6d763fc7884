#!/usr/bin/env bash
# bench/run.sh: sportsdb against nginx serving the same answers as static files, on loopback.
#
#   bench/run.sh                 # full-scale dataset (built once, reused)
#   SCALE=small bench/run.sh     # a quicker run on the small dataset
#
# What it does, in order (details in docs/PERFORMANCE.md):
#   1. installs nginx from Debian if it is missing (apt-get update first); builds sportsdb, the
#      load generator (bench/loadgen); profiles come from `sportsdb serve --pprof ADDR`;
#      generates the dataset into $BENCH_DATA/$SCALE.db once and reuses it on later runs.
#   2. measures the time to the first answer of `sportsdb serve` on a fresh demo database
#      (serve creates it) and on an existing one; starts sportsdb on the dataset with raised
#      per-minute limits and creates PREMIUM_KEYS premium and FREE_KEYS free keys.
#   3. builds three request lists from the dataset through the API (no ids are hard-coded):
#      hot (a few lookups, repeated), mixed (every v1 and v2 endpoint, random ids and names,
#      many keys), search (name searches alone).
#   4. fetches every request once and stores each answer under an nginx root, then starts
#      nginx (its own config, prefix, pid and logs, loopback port, current user).
#   5. drives each workload against sportsdb and nginx with the same connections and
#      duration; runs mixed and search again at half of sportsdb's peak rate (constant rate,
#      latency counted from when each request was due), RATED_RUNS times, each run followed
#      by nginx at the same rate; the targets take the median run, since one 15-second
#      window on a shared machine can be disturbed; reads sportsdb's peak RSS (VmHWM);
#      takes CPU profiles of the same, warm server under one more mixed and search run
#      (PROFILE=off skips them); times `sportsdb import` of an export of the small dataset
#      into a new SQLite file.
#   6. prints the table and the targets, writes them to $BENCH_DATA/results/, stops every
#      process it started (also on Ctrl-C or error).
#
# Settings (environment):
#   SCALE=full|small|demo  dataset scale (default full)
#   BENCH_DATA=DIR         where datasets, binaries, lists and results go (default bench/.data)
#   DURATION=15s WARMUP=2s measured time and unmeasured warm-up of each run
#   CONNS=32               connections of every run, both servers
#   RATED_RUNS=3           runs of each workload at half of peak rate, on each server
#   PREMIUM_KEYS=48 FREE_KEYS=16   keys the lists spread requests over
#   LIST_N=5000            requests in the mixed and search lists
#   ACCESS_LOG=on|off      access logs on both servers (sportsdb at info level to a file,
#                          nginx access_log to a file), or off on both (default on)
#   PROFILE=on|off         CPU profiles of the server under the mixed and search workloads
#                          (default on)
#   LIMITS=free:200000,... sportsdb --limits for the runs (requests per key and minute)
#   PORT_BASE=18080        sportsdb, nginx, the demo server and profiling use PORT_BASE..+3
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
SCALE=${SCALE:-full}
DATA=${BENCH_DATA:-$HERE/.data}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-2s}
CONNS=${CONNS:-32}
RATED_RUNS=${RATED_RUNS:-3}
PREMIUM_KEYS=${PREMIUM_KEYS:-48}
FREE_KEYS=${FREE_KEYS:-16}
LIST_N=${LIST_N:-5000}
ACCESS_LOG=${ACCESS_LOG:-on}
PROFILE=${PROFILE:-on}
PORT_BASE=${PORT_BASE:-18080}
SPORTSDB_ADDR=127.0.0.1:$PORT_BASE
NGINX_ADDR=127.0.0.1:$((PORT_BASE + 1))
DEMO_ADDR=127.0.0.1:$((PORT_BASE + 2))
PPROF_ADDR=127.0.0.1:$((PORT_BASE + 3))
# Per key and minute: well above what one key gets in the busiest minute of a run (at 33,000
# requests/s, about 36,000 for a premium key), so no run is limited. The in-memory limiter's
# memory follows the requests in the window, not the limit.
LIMITS=${LIMITS:-free:200000,premium:200000,business:200000}

case $SCALE in demo | small | full) ;; *) echo "run.sh: SCALE=$SCALE: want demo, small or full" >&2; exit 2 ;; esac
case $ACCESS_LOG in on | off) ;; *) echo "run.sh: ACCESS_LOG=$ACCESS_LOG: want on or off" >&2; exit 2 ;; esac
case $RATED_RUNS in [1-9] | [1-9][0-9]) ;; *) echo "run.sh: RATED_RUNS=$RATED_RUNS: want a number from 1 to 99" >&2; exit 2 ;; esac

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

install_tools() {
	if command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]]; then
		return
	fi
	say "installing nginx from Debian"
	local sudo=()
	[[ $(id -u) == 0 ]] || sudo=(sudo)
	"${sudo[@]}" apt-get update >&2
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends nginx-light >&2 ||
		DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends nginx >&2
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

start_sportsdb() {
	local db=$1 level=warn
	[[ $ACCESS_LOG == on ]] && level=info
	"$BIN/sportsdb" serve --db "$db" --addr "$SPORTSDB_ADDR" --limits "$LIMITS" --log-level "$level" \
		--pprof "$PPROF_ADDR" >"$RUN/sportsdb.out" 2>"$RUN/sportsdb.log" &
	SPORTSDB_PID=$!
	PIDS+=("$SPORTSDB_PID")
	"$BIN/loadgen" wait -url "http://$SPORTSDB_ADDR/healthz" -since "$(date +%s%N)" -timeout 120s >/dev/null
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

start_nginx() {
	local www=$1 conf=$RUN/nginx/nginx.conf log=off user=""
	mkdir -p "$RUN/nginx/tmp"
	[[ $ACCESS_LOG == on ]] && log="$RUN/nginx/access.log"
	# As root nginx would hand its workers to nobody, who may not read the data folder.
	[[ $(id -u) == 0 ]] && user="user $(id -un) $(id -gn);"
	cat >"$conf" <<EOF
$user
worker_processes auto;
daemon off;
pid $RUN/nginx/nginx.pid;
error_log $RUN/nginx/error.log warn;
events { worker_connections 4096; }
http {
	access_log $log;
	client_body_temp_path $RUN/nginx/tmp/body;
	proxy_temp_path $RUN/nginx/tmp/proxy;
	fastcgi_temp_path $RUN/nginx/tmp/fastcgi;
	uwsgi_temp_path $RUN/nginx/tmp/uwsgi;
	scgi_temp_path $RUN/nginx/tmp/scgi;
	default_type application/json;
	sendfile on;
	keepalive_timeout 120s;
	keepalive_requests 1000000;
	server {
		listen $NGINX_ADDR;
		root $www;
		location / { try_files \$uri =404; }
	}
}
EOF
	local nginx
	nginx=$(command -v nginx || echo /usr/sbin/nginx)
	"$nginx" -e "$RUN/nginx/error.log" -p "$RUN/nginx" -c "$conf" -t 2>"$RUN/nginx/check.log" || {
		cat "$RUN/nginx/check.log" >&2
		return 1
	}
	"$nginx" -e "$RUN/nginx/error.log" -p "$RUN/nginx" -c "$conf" &
	NGINX_PID=$!
	PIDS+=("$NGINX_PID")
	"$BIN/loadgen" wait -url "http://$NGINX_ADDR/$(head -1 "$RUN/lists/hot.nginx.txt" | sed 's|^/||')" -since "$(date +%s%N)" -timeout 30s >/dev/null
}

cache_counts() {
	curl -s "http://$SPORTSDB_ADDR/metrics" | awk '/^sportsdb_response_cache_total\{result="hit"\}/{h=$2} /^sportsdb_response_cache_total\{result="miss"\}/{m=$2} /^sportsdb_response_cache_total\{result="refresh"\}/{f=$2} END{printf "%d %d %d\n", h, m, f}'
}

# drive WORKLOAD SERVER ADDR LIST [RATE]: one run, appended to the results; prints its req/s.
drive() {
	local workload=$1 server=$2 addr=$3 list=$4 rate=${5:-0} before after line
	[[ $server == sportsdb ]] && before=$(cache_counts)
	line=$("$BIN/loadgen" run -addr "$addr" -list "$list" -c "$CONNS" -d "$DURATION" -warmup "$WARMUP" \
		-rate "$rate" -workload "$workload" -server "$server")
	echo "$line" >>"$RESULTS"
	if [[ $server == sportsdb ]]; then
		after=$(cache_counts)
		read -r h0 m0 f0 <<<"$before"
		read -r h1 m1 f1 <<<"$after"
		local hits=$((h1 - h0)) misses=$((m1 - m0)) refreshes=$((f1 - f0)) label=$workload
		[[ $rate != 0 ]] && label="$workload @ $rate/s"
		metric "response cache hit ratio, $label" "$(awk -v h=$hits -v m=$misses 'BEGIN{printf "%.3f", (h+m)?h/(h+m):0}')" "" "$hits hits, $misses misses, $refreshes background refreshes"
	fi
	local rps
	rps=$(grep -o '"rps":[0-9.]*' <<<"$line" | cut -d: -f2)
	echo "$workload on $server${5:+ at $rate/s}: $rps req/s, load average $(loadavg)" >&2
	echo "$rps"
}

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

# profile WORKLOAD: a CPU profile of the measured sportsdb, its cache as the runs left it,
# under one more full-rate run of a workload; the profile and its top functions go to the
# results folder.
profile() {
	local workload=$1 lg_pid prefix=$OUT/$SCALE-$STAMP.$1
	say "CPU profile under the $workload workload"
	local secs=${DURATION%s}
	"$BIN/loadgen" run -addr "$SPORTSDB_ADDR" -list "$RUN/lists/$workload.txt" -c "$CONNS" -d "${secs}s" -warmup "$WARMUP" \
		-workload "$workload" -server sportsdb-pprof >/dev/null &
	lg_pid=$!
	PIDS+=("$lg_pid")
	sleep "${WARMUP%s}"
	curl -s -o "$prefix.cpu.pprof" "http://$PPROF_ADDR/debug/pprof/profile?seconds=$secs" || true
	wait "$lg_pid" || true
	forget "$lg_pid"
	(cd "$ROOT" && go tool pprof -top -nodecount=40 "$BIN/sportsdb" "$prefix.cpu.pprof" >"$prefix.cpu.top.txt" 2>&1 &&
		go tool pprof -top -cum -nodecount=60 "$BIN/sportsdb" "$prefix.cpu.pprof" >"$prefix.cpu.cum.txt" 2>&1) ||
		echo "run.sh: pprof could not read $prefix.cpu.pprof" >&2
	echo "profile: $prefix.cpu.pprof (top functions: $prefix.cpu.top.txt)" >&2
}

# memory PID: the peak and the present resident memory of a process, split as the kernel
# counts it (heap and other anonymous memory, mapped files).
memory() {
	local status=/proc/$1/status
	metric "sportsdb peak RSS" "$(awk '/^VmHWM/{printf "%.0f", $2/1024}' "$status")" MB "VmHWM after every run, $SCALE dataset"
	metric "sportsdb RSS at end" "$(awk '/^VmRSS/{printf "%.0f", $2/1024}' "$status")" MB \
		"$(awk '/^RssAnon|^RssFile/{printf "%s %.0f MB ", $1, $2/1024}' "$status")"
	# What the Go runtime holds; the rest of the anonymous memory is SQLite's own C heap
	# (page caches of its connections, sorts).
	metric "Go runtime memory at end" "$(curl -s "http://$SPORTSDB_ADDR/metrics" |
		awk '/^go_memstats_sys_bytes /{printf "%.0f", $2/1048576}')" MB "go_memstats_sys_bytes"
}

main() {
	metric "load average at start" "\"$(loadavg)\"" "" "1, 5 and 15 minutes; the machine is shared"
	install_tools
	build
	DB=$(dataset "$SCALE")
	first_answer

	say "starting sportsdb on $DB ($SCALE)"
	start_sportsdb "$DB"
	local premium free
	premium=$(keys premium "$PREMIUM_KEYS")
	free=$(keys free "$FREE_KEYS")

	say "request lists from the dataset"
	rm -rf "$RUN/lists" "$RUN/www" && mkdir -p "$RUN/lists" "$RUN/www"
	"$BIN/loadgen" lists -base "http://$SPORTSDB_ADDR" -premium "$premium" -free "$free" -out "$RUN/lists" -n "$LIST_N" >&2
	for w in hot mixed search; do
		"$BIN/loadgen" mirror -base "http://$SPORTSDB_ADDR" -list "$RUN/lists/$w.txt" -root "$RUN/www" -out "$RUN/lists/$w.nginx.txt" >&2
	done
	start_nginx "$RUN/www"

	local peak_mixed peak_search
	for w in hot mixed search; do
		say "workload $w"
		rps=$(drive "$w" sportsdb "$SPORTSDB_ADDR" "$RUN/lists/$w.txt")
		[[ $w == mixed ]] && peak_mixed=$rps
		[[ $w == search ]] && peak_search=$rps
		drive "$w" nginx "$NGINX_ADDR" "$RUN/lists/$w.nginx.txt" >/dev/null
	done
	say "mixed and search at half of sportsdb's peak rate, $RATED_RUNS times, each beside nginx at the same rate"
	local half_mixed half_search i
	half_mixed=$(awk -v r="$peak_mixed" 'BEGIN{printf "%d", r/2}')
	half_search=$(awk -v r="$peak_search" 'BEGIN{printf "%d", r/2}')
	for ((i = 1; i <= RATED_RUNS; i++)); do
		drive mixed sportsdb "$SPORTSDB_ADDR" "$RUN/lists/mixed.txt" "$half_mixed" >/dev/null
		drive mixed nginx "$NGINX_ADDR" "$RUN/lists/mixed.nginx.txt" "$half_mixed" >/dev/null
		drive search sportsdb "$SPORTSDB_ADDR" "$RUN/lists/search.txt" "$half_search" >/dev/null
		drive search nginx "$NGINX_ADDR" "$RUN/lists/search.nginx.txt" "$half_search" >/dev/null
	done

	memory "$SPORTSDB_PID"
	stop "$NGINX_PID"
	if [[ $PROFILE == on ]]; then
		profile mixed
		profile search
	fi
	stop "$SPORTSDB_PID"

	import_speed
	metric "load average at end" "\"$(loadavg)\"" "" "1, 5 and 15 minutes"

	say "results ($SCALE dataset, $CONNS connections, $DURATION per run, access logs $ACCESS_LOG)"
	"$BIN/loadgen" report "$RESULTS" | tee "$OUT/$SCALE-$STAMP.md"
	echo "results: $RESULTS" >&2
}

main "$@"
