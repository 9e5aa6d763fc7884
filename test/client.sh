#!/usr/bin/env bash
# Starts sportsdb on a new demo database (as `sportsdb serve` does on first start) and runs the
# published npm client `thesportsdb` against it (test/npm-client/run.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
. test/serve-demo.sh
echo "sportsdb at $url"

cd test/npm-client
npm ci --no-audit --no-fund --loglevel=error
SPORTSDB_URL="$url" SPORTSDB_PREMIUM_KEY="$key" node run.mjs
