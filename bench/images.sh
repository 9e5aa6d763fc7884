#!/usr/bin/env bash
# bench/images.sh: pictures served by sportsdb beside nginx serving the same files, the time
# to make a smaller copy of a large original, and the server's memory while many first
# requests for copies of distinct large originals arrive at once.
#
#   bench/images.sh                  # 15 s runs
#   QUICK=1 bench/images.sh          # 3 s runs, a smaller burst
#
# What it does (details in docs/PERFORMANCE.md, "Images"):
#   1. installs nginx from Debian if it is missing (bench/lib/nginx.sh, as bench/run.sh does);
#      builds sportsdb and the load generator; fills a new database with the demo dataset and
#      its pictures (`gen --scale demo`), starts `sportsdb serve` on it and adds an editor key;
#   2. walks one league through the API (the league, its teams, their players, its season's
#      events) and lists every picture their image fields name that the server holds: the
#      originals, and each with /medium, /small, /preview and /tiny (the copies);
#   3. fetches every request of both lists once (which makes and keeps each copy), stores the
#      answers under an nginx root (`loadgen mirror`) and starts nginx on them;
#   4. drives originals and copies against sportsdb and nginx, CONNS connections for DURATION
#      each, with the server's CPU per answer;
#   5. `loadgen images`: uploads RUNS distinct SIDE x SIDE originals of each format (JPEG, PNG)
#      and times the first request for a /medium copy (made) and two more (kept); uploads
#      BURST distinct BURST_W x BURST_H JPEG originals, then asks for a /small copy of each at
#      once while it samples the server's RSS;
#   6. prints the table and the targets (originals and kept copies at least 0.8 of nginx; RSS
#      in the burst under the server's peak before it plus 200 MB) as JSON lines, also in
#      $BENCH_DATA/results/images-STAMP.jsonl; stops what it started.
#
# Settings (environment):
#   QUICK=1                DURATION=3s BURST=16 RUNS=3 unless set
#   BENCH_DATA=DIR         binaries, databases, lists and results (default bench/.data)
#   DURATION=15s WARMUP=0s CONNS=32   each run
#   SIDE=2000 RUNS=5       the originals timed for a copy
#   BURST=64 BURST_W=4000 BURST_H=3000   the burst (12 megapixels each)
#   PORT_BASE=18110        sportsdb there, nginx on PORT_BASE+1
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
# shellcheck source=SCRIPTDIR/lib/nginx.sh
source "$HERE/lib/nginx.sh"
if [[ ${QUICK:-0} == 1 ]]; then
	DURATION=${DURATION:-3s} BURST=${BURST:-16} RUNS=${RUNS:-3}
fi
DATA=${BENCH_DATA:-$HERE/.data}
DURATION=${DURATION:-15s}
# No warm-up: the mirror's pass has read every answer once (and made every copy), and the
# server's CPU per answer counts the measured requests alone.
WARMUP=${WARMUP:-0s}
CONNS=${CONNS:-32}
SIDE=${SIDE:-2000}
RUNS=${RUNS:-5}
BURST=${BURST:-64}
BURST_W=${BURST_W:-4000}
BURST_H=${BURST_H:-3000}
PORT_BASE=${PORT_BASE:-18110}
ADDR=127.0.0.1:$PORT_BASE
NGINX_ADDR=127.0.0.1:$((PORT_BASE + 1))

STAMP=$(date -u +%Y%m%dT%H%M%SZ)
BIN=$DATA/bin
RUN=$DATA/run/images
RESULTS=$DATA/results/images-$STAMP.jsonl
rm -rf "$RUN" && mkdir -p "$BIN" "$RUN/lists" "$RUN/www" "$(dirname "$RESULTS")"
: >"$RESULTS"

PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
say() { printf '\n== %s\n' "$*" >&2; }

nginx_install
say "building sportsdb and loadgen"
(cd "$ROOT" && go build -o "$BIN/sportsdb" ./cmd/sportsdb && go build -o "$BIN/loadgen" ./bench/loadgen)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(uptime)" >&2

say "the demo dataset and its pictures (gen draws them before it ends), then sportsdb on it"
DB=$RUN/images.db
"$BIN/sportsdb" gen --scale demo --db "$DB" >&2
"$BIN/sportsdb" serve --db "$DB" --addr "$ADDR" --log-level warn \
	--limits "free:1000000,premium:1000000,business:1000000" >"$RUN/serve.out" 2>"$RUN/serve.log" &
SERVER=$!
PIDS+=("$SERVER")
"$BIN/loadgen" wait -url "http://$ADDR/readyz" -since "$(date +%s%N)" -timeout 120s >/dev/null
EDITOR=$RUN/editor.key
"$BIN/sportsdb" keys add --tier business --role editor --label bench-images --db "$DB" >"$EDITOR"
BASE=http://$ADDR/api/v1/json/3

say "listing one league's pictures"
api() { curl -sf "$BASE/$1"; }
paths() { grep -o '\\/images\\/[^"]*' | sed 's#\\/#/#g'; }
league=$(api all_leagues.php | grep -o '"idLeague":"[0-9]*"' | head -1 | grep -o '[0-9]\+')
name=$(api "lookupleague.php?id=$league" | grep -o '"strLeague":"[^"]*"' | head -1 | cut -d'"' -f4)
season=$(api "lookupleague.php?id=$league" | grep -o '"strCurrentSeason":"[^"]*"' | head -1 | cut -d'"' -f4)
{
	api "lookupleague.php?id=$league" | paths
	teams=$(api "search_all_teams.php?l=$(printf %s "$name" | sed 's/ /%20/g')")
	paths <<<"$teams"
	for t in $(grep -o '"idTeam":"[0-9]*"' <<<"$teams" | grep -o '[0-9]\+'); do
		api "lookup_all_players.php?id=$t" | paths
	done
	api "eventsseason.php?id=$league&s=$season" | paths
} | sort -u >"$RUN/lists/named.txt"
: >"$RUN/lists/originals.txt"
while read -r p; do
	[[ $(curl -s -o /dev/null -w '%{http_code}' -I "http://$ADDR$p") == 200 ]] && echo "$p" >>"$RUN/lists/originals.txt"
done <"$RUN/lists/named.txt"
held=$(wc -l <"$RUN/lists/originals.txt")
echo "league $league ($name, $season): $(wc -l <"$RUN/lists/named.txt") pictures named, $held held" >&2
[[ $held -gt 0 ]] || { echo "images.sh: the server holds none of the league's pictures" >&2; exit 1; }
for size in medium small preview tiny; do sed "s#\$#/$size#" "$RUN/lists/originals.txt"; done >"$RUN/lists/copies.txt"

say "the same answers under nginx"
for l in originals copies; do
	"$BIN/loadgen" mirror -base "http://$ADDR" -list "$RUN/lists/$l.txt" -root "$RUN/www" -out "$RUN/lists/$l.nginx.txt" >&2
done
nginx_start "$RUN/nginx" "$NGINX_ADDR" "$RUN/www" off application/octet-stream \
	"http://$NGINX_ADDR$(head -1 "$RUN/lists/originals.nginx.txt")" \
	"etag on;" 'add_header Cache-Control "public, max-age=31536000, immutable";'

# drive WORKLOAD SERVER ADDR LIST: one run, appended to the results; prints its req/s.
drive() {
	local metrics=()
	[[ $2 == sportsdb ]] && metrics=(-metrics "http://$3/metrics")
	"$BIN/loadgen" run -addr "$3" -list "$4" -c "$CONNS" -d "$DURATION" -warmup "$WARMUP" \
		-workload "$1" -server "$2" "${metrics[@]}" | tee -a "$RESULTS" | grep -o '"rps":[0-9.]*' | cut -d: -f2
}
declare -A rps
for l in originals copies; do
	say "$l: sportsdb, then nginx ($CONNS connections, $DURATION, load average $(cut -d' ' -f1-3 /proc/loadavg))"
	rps[$l-sportsdb]=$(drive "images-$l" sportsdb "$ADDR" "$RUN/lists/$l.txt")
	rps[$l-nginx]=$(drive "images-$l" nginx "$NGINX_ADDR" "$RUN/lists/$l.nginx.txt")
	echo "$l: sportsdb ${rps[$l-sportsdb]} req/s, nginx ${rps[$l-nginx]} req/s" >&2
done

say "copies of large originals, and memory in a burst of $BURST first copies"
line=$("$BIN/loadgen" images -addr "$ADDR" -editor "$EDITOR" -pid "$SERVER" -side "$SIDE" -runs "$RUNS" \
	-burst "$BURST" -burst-w "$BURST_W" -burst-h "$BURST_H")
echo "$line" >>"$RESULTS"
rise=$(grep -o '"rss_peak_kb":[0-9]*' <<<"$line" | cut -d: -f2)
hwm=$(grep -o '"hwm_before_kb":[0-9]*' <<<"$line" | cut -d: -f2)

ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", (b > 0 ? a / b : 0)}'; }
for l in originals copies; do
	r=$(ratio "${rps[$l-sportsdb]}" "${rps[$l-nginx]}")
	ok=$(awk -v r="$r" 'BEGIN{print (r >= 0.8 ? "true" : "false")}')
	echo "{\"type\":\"target\",\"name\":\"images-$l sportsdb/nginx >= 0.8\",\"value\":$r,\"met\":$ok}" | tee -a "$RESULTS"
done
ok=$([[ $rise -le $((hwm + 200 * 1024)) ]] && echo true || echo false)
echo "{\"type\":\"target\",\"name\":\"burst RSS peak <= peak before + 200 MB\",\"value_kb\":$rise,\"limit_kb\":$((hwm + 200 * 1024)),\"met\":$ok}" | tee -a "$RESULTS"
echo "results: $RESULTS (load average after: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
