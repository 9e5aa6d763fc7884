#!/usr/bin/env bash
# Runs docs/LEAGUE.md as it stands: its shell blocks, in order, against a real server on an
# empty database (the block that starts `sportsdb serve` is replaced by starting it here on a
# free port), then checks what a client sees after them. A step of the walk-through that
# stops working fails this script.
set -euo pipefail
cd "$(dirname "$0")/.."
SERVE_DEMO=0 . test/serve-demo.sh

blocks="$tmp/blocks"
mkdir "$blocks"
awk -v dir="$blocks" '
  /^```sh$/ { n++; file = sprintf("%s/%02d.sh", dir, n); inblock = 1; next }
  /^```$/   { inblock = 0; next }
  inblock   { print > file }
' docs/LEAGUE.md
[ -f "$blocks/01.sh" ] || { echo "docs/LEAGUE.md has no shell blocks"; exit 1; }

work="$tmp/work"
mkdir "$work"
cd "$work"
export PATH="$tmp:$PATH"
run="$tmp/run.out"
url=""
for f in "$blocks"/*.sh; do
  if grep -q '^sportsdb serve' "$f"; then
    serve_db "$work/league.db"
    echo "sportsdb at $url"
    continue
  fi
  if [ -z "$url" ]; then # before the server: run now (the database is made here)
    bash -euo pipefail "$f" >>"$run" 2>&1 || { cat "$run"; echo "the walk-through failed at $f"; exit 1; }
    continue
  fi
  # Blocks share their variables, as in one terminal: run them in one shell, in order.
  sed "s#http://127.0.0.1:8080#$url#g" "$f" >>"$tmp/session.sh"
done
bash -euo pipefail "$tmp/session.sh" >"$run" 2>&1 || { cat "$run"; echo "the walk-through failed"; exit 1; }

fails=0
check() { # check NAME COMMAND...: runs the command, counts a failure with its name
  local name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
has() { grep -qF -- "$2" <<<"$1"; }
count() { grep -oF -- "$2" <<<"$1" | wc -l; }

out=$(cat "$run")
check "the batch kept every line" has "$out" '{"upserted":7,"deleted":0,"unchanged":0}'
check "the duplicate team's delete answered 204" grep -qx 204 "$run"
check "the second scorekeeper's write was refused with 412" has "$out" '{"Message":"Precondition failed"} 412'
check "the live score showed the first goal" has "$out" '"idEvent":"9200001","strSport":"Soccer"'
check "an editor's write to the locked result was refused with 423" has "$out" '{"Message":"Locked"} 423'

key=$(cat "$work/scorekeeper.key")
teams=$(curl -s "$url/api/v1/json/3/search_all_teams.php?l=Riverside%20Sunday%20League")
check "the league has its three teams" test "$(count "$teams" '"idTeam"')" = 3
check "the deleted duplicate is gone" test "$(count "$teams" '"idTeam":"9000004"')" = 0
event=$(curl -s "$url/api/v1/json/3/lookupevent.php?id=9200001")
for want in '"strEvent":"Riverside FC vs Hillside Rovers"' '"intHomeScore":"2"' '"intAwayScore":"1"' \
  '"strStatus":"FT"' '"intSpectators":"212"' '"strLocked":"locked"' '"strVenue":"Riverside Park"'; do
  check "the event holds $want" has "$event" "$want"
done
day=$(curl -s "$url/api/v1/json/3/eventsday.php?d=$(date -u +%F)")
check "the day lists the fixture" has "$day" '"idEvent":"9200001"'
ics=$(curl -s "$url/calendar/$key/league/9100001.ics")
check "the league's calendar has the game" has "$ics" 'UID:9200001@sportsdb'
history=$(curl -s -H "X-API-KEY: $key" "$url/api/v2/json/records/event/9200001/history")
# 10 writes: the fixture, 7 taps, the attendance, the lock (the 412 and the 423 wrote nothing)
check "the history keeps every version (10 writes)" test "$(count "$history" '"cursor"')" = 10
check "the history names the scorekeeper" has "$history" '"by":"scorekeeper"'
check "the history names the operator" has "$history" '"by":"operator"'
check "the history never holds a key" test "$(count "$history" "$key")" = 0
table=$(curl -s "$url/api/v1/json/3/lookuptable.php?l=9100001&s=2026-2027")
check "the table has its three rows" test "$(count "$table" '"idStanding"')" = 3
check "the table's first row is the winner" has "${table:0:80}" '"idStanding":"9400001"'

[ "$fails" = 0 ] || { echo "--- the walk-through's output"; cat "$run"; echo "$fails checks failed"; exit 1; }
echo "docs/LEAGUE.md: every step works"
