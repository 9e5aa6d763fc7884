#!/usr/bin/env bash
# Starts sportsdb on a new demo database and validates the OpenAPI document it serves with
# the published parser @apidevtools/swagger-parser (test/openapi/validate.mjs).
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT

go build -o "$tmp/sportsdb" ./cmd/sportsdb
"$tmp/sportsdb" serve --addr 127.0.0.1:0 --db "$tmp/demo.db" >"$tmp/out" 2>"$tmp/log" &
pid=$!
url=""
for _ in $(seq 1 100); do
  url=$(sed -n 's#^sportsdb listening on \(http://[^ ]*\)$#\1#p' "$tmp/out")
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$tmp/out" "$tmp/log"; echo "sportsdb exited"; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/out" "$tmp/log"; echo "sportsdb did not start"; exit 1; }

cd test/openapi
npm ci --no-audit --no-fund --loglevel=error
SPORTSDB_URL="$url" node validate.mjs
