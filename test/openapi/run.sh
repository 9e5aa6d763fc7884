#!/usr/bin/env bash
# Starts sportsdb on a new demo database and validates the OpenAPI document it serves with
# the published parser @apidevtools/swagger-parser (test/openapi/validate.mjs).
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/serve-demo.sh

cd test/openapi
npm ci --no-audit --no-fund --loglevel=error
SPORTSDB_URL="$url" node validate.mjs
