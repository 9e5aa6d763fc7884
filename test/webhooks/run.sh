#!/usr/bin/env bash
# Starts sportsdb on a new demo database with --webhook-allow-private, registers a webhook
# and checks a delivery's signature with Standard Webhooks' published verifier, the npm
# package standardwebhooks (test/webhooks/verify.mjs).
set -euo pipefail
cd "$(dirname "$0")/../.."
SERVE_DEMO=0 . test/serve-demo.sh
serve_db "$tmp/demo.db" --webhook-allow-private
key=$(sed -n 's#^.*demo premium key (shown once): \([^ ]*\)$#\1#p' "$tmp/out")

cd test/webhooks
npm ci --no-audit --no-fund --loglevel=error
SPORTSDB_URL="$url" SPORTSDB_KEY="$key" SPORTSDB_BIN="$tmp/sportsdb" SPORTSDB_DB="$tmp/demo.db" TMP="$tmp" node verify.mjs
