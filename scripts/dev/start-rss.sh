#!/usr/bin/env bash
# The API process's memory as `npm start` runs it (compiled, dist/src/server.js) against the same server through tsx:
# `bash scripts/dev/start-rss.sh`. Each starts on a fresh embedded store with the demo directory, answers a few
# searches, the widget's script and the home page, then prints VmRSS and VmHWM of the process and of its children
# (tsx keeps an esbuild helper process). Not run by CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
node scripts/dev/build-server.mjs >/dev/null
PORT=18124
measure() {
  local label=$1; shift
  local dir; dir="$(mktemp -d /tmp/agp-start-rss.XXXXXX)"
  DATA_DIR="$dir" PORT=$PORT HOST=127.0.0.1 LOG_LEVEL=warn "$@" >"$dir/server.log" 2>&1 &
  local pid=$! i
  for i in $(seq 1 240); do curl -sf "localhost:$PORT/api/health" >/dev/null && break; sleep 0.5; done
  sleep 5
  for q in dentist plumber bakery+in+Paris software+consultancy vet+near+me; do curl -s "localhost:$PORT/api/v1/agent/companies?q=$q" >/dev/null; done
  curl -sf -o /dev/null "localhost:$PORT/widget.js"; curl -sf -o /dev/null "localhost:$PORT/"
  sleep 3
  for p in $pid $(pgrep -P $pid || true); do
    echo "$label pid $p $(grep -h 'VmRSS\|VmHWM' /proc/$p/status | tr -s ' \t' ' ' | tr '\n' ' ')"
  done
  pkill -P $pid || true; kill $pid; wait $pid 2>/dev/null || true
  rm -rf "$dir"
}
measure compiled node dist/src/server.js
measure tsx node --import tsx src/server.ts
