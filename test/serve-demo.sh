# test/serve-demo.sh, sourced: builds sportsdb and starts it on a new demo database (as
# `sportsdb serve` does on first start) on a free loopback port. The caller must be at the
# repository's root. It sets
#   tmp   a temporary folder, removed on exit
#   url   the server's base URL, http://127.0.0.1:PORT (https:// with --tls-cert)
#   key   the demo premium key it printed
# and stops the server on exit. With SERVE_DEMO=0 it only builds $tmp/sportsdb and defines
# serve_db, so the caller can fill a database first and then call serve_db DB [ARGS...].
tmp=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT

go build -o "$tmp/sportsdb" ./cmd/sportsdb

# serve_db DB [ARGS...] starts `sportsdb serve` on DB with ARGS and sets url and pid.
serve_db() {
  local db=$1
  shift
  "$tmp/sportsdb" serve --addr 127.0.0.1:0 --db "$db" "$@" >"$tmp/out" 2>"$tmp/log" &
  pid=$!
  url=""
  for _ in $(seq 1 100); do
    url=$(sed -n 's#^sportsdb listening on \(https\{0,1\}://[^ ]*\)$#\1#p' "$tmp/out")
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$tmp/out" "$tmp/log"; echo "sportsdb exited"; exit 1; }
    sleep 0.1
  done
  [ -n "$url" ] || { cat "$tmp/out" "$tmp/log"; echo "sportsdb did not start"; exit 1; }
}

if [ "${SERVE_DEMO:-1}" != 0 ]; then
  serve_db "$tmp/demo.db"
  key=$(sed -n 's#^.*demo premium key (shown once): \([^ ]*\)$#\1#p' "$tmp/out")
fi
