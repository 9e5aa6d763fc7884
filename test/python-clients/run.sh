#!/usr/bin/env bash
# Runs three published Python clients of TheSportsDB, unchanged, against sportsdb:
#   test/python-clients/run.sh TRALAHM_DIR KODI_TV_DIR ENEN92_DIR
# the checkouts of TralahM/thesportsdb, pkscout/metadata.tvshows.thesportsdb.python and
# enen92/script.module.thesportsdb. It builds sportsdb, fills a new database with the demo
# data and the recorded public answers (testdata/recorded), starts the server and runs
# driver.py for each client with the free keys 123 and 3 and a premium key. Needs
# /usr/bin/python3 with requests (Debian: python3-requests). Exit 1 when a call fails in a
# way test/README.md does not list as the client's own bug.
set -euo pipefail
[ $# -eq 3 ] || { sed -n '2,9p' "$0"; exit 2; }
tralahm=$(realpath "$1") koditv=$(realpath "$2") enen92=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
SERVE_DEMO=0 . test/serve-demo.sh
db="$tmp/sportsdb.db"
"$tmp/sportsdb" gen --db "$db" --scale demo >/dev/null
"$tmp/sportsdb" import --db "$db" testdata/recorded >/dev/null
premium=$("$tmp/sportsdb" keys add --db "$db" --tier premium --label python-clients)
# The drivers make a few hundred calls a minute; the limits are not what is tested here.
serve_db "$db" --limits free:100000,premium:100000,business:100000
echo "sportsdb at $url"

status=0
for run in "tralahm $tralahm" "kodi-tv $koditv" "enen92 $enen92"; do
  set -- $run
  for key in 123 3 premium; do
    tier=free k=$key
    [ "$key" = premium ] && tier=premium k=$premium
    home="$tmp/kodi-$1-$key"
    mkdir -p "$home"
    SPORTSDB_URL="$url" SPORTSDB_KEY="$k" SPORTSDB_TIER="$tier" SPORTSDB_KODI_HOME="$home" \
      PYTHONPATH="$here/stubs" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 "$here/driver.py" "$1" "$2" || status=1
  done
done
exit $status
