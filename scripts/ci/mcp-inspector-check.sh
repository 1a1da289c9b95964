#!/usr/bin/env bash
# Starts the service as production runs it (`npm start`: the compiled dist/, no tsx) on a free port with an empty
# temporary store, waits for /api/health, checks that the files the compiled code reads beside it or from the project
# folder are served (the widget's script, the public pages' stylesheet, the dashboard), then asks the official MCP
# Inspector (CLI mode, a devDependency, works offline) for the tool list of /mcp. Fails when the server does not come
# up, a file is missing or the Inspector reports an error.
set -euo pipefail

cd "$(dirname "$0")/../.."

PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/agp-mcp-check.XXXXXX")"
LOG="$DATA_DIR/server.log"
BASE="http://127.0.0.1:$PORT"

cleanup() {
  if [[ -n "${SERVER_PID:-}" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$DATA_DIR"
}
trap cleanup EXIT

# What `npm start` runs: its prestart builds dist/, then node runs the compiled server.
npm run build --silent
PORT="$PORT" HOST=127.0.0.1 BASE_URL="$BASE" DATA_DIR="$DATA_DIR/data" SEED_DEMO=false \
  DATABASE_URL= LOG_LEVEL=warn RUN_JOBS=false NODE_ENV=development \
  node dist/src/server.js >"$LOG" 2>&1 &
SERVER_PID=$!

for _ in $(seq 1 120); do
  if curl -fsS "$BASE/api/health" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "mcp-inspector-check: server exited before becoming healthy" >&2
    cat "$LOG" >&2
    exit 1
  fi
  sleep 0.5
done
if ! curl -fsS "$BASE/api/health" >/dev/null 2>&1; then
  echo "mcp-inspector-check: server not healthy after 60 s" >&2
  cat "$LOG" >&2
  exit 1
fi

for path in /widget.js /app/ /; do
  if ! curl -fsS -o /dev/null "$BASE$path"; then
    echo "mcp-inspector-check: the compiled server does not serve $path" >&2
    cat "$LOG" >&2
    exit 1
  fi
done
STYLESHEET="$(curl -fsS "$BASE/" | grep -o 'href="/[^"]*\.css"' | head -1 | cut -d'"' -f2)"
if [[ -z "$STYLESHEET" ]] || ! curl -fsS -o /dev/null "$BASE$STYLESHEET"; then
  echo "mcp-inspector-check: the home page's stylesheet is not served" >&2
  exit 1
fi

OUT="$DATA_DIR/tools.json"
if ! npx --no-install @modelcontextprotocol/inspector@2.12.0 --cli "$BASE/mcp" --transport http --method tools/list >"$OUT" 2>"$DATA_DIR/inspector.err"; then
  echo "mcp-inspector-check: inspector failed" >&2
  cat "$DATA_DIR/inspector.err" "$OUT" >&2
  exit 1
fi

# The answer must be a tool list that includes the search tool.
node -e '
  const out = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const names = (out.tools || []).map((t) => t.name);
  if (!names.includes("search_companies")) { console.error("mcp-inspector-check: unexpected answer", JSON.stringify(out).slice(0, 500)); process.exit(1); }
  console.log(`mcp-inspector-check: ok, ${names.length} tools: ${names.join(", ")}`);
' "$OUT"
