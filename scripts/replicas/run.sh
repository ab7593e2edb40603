#!/usr/bin/env bash
# Two nl2sql replicas on loopback sharing one PostgreSQL state store.
#
#   NL2SQL_STORE_DSN=postgres://USER:PW@127.0.0.1:5432/DB scripts/replicas/run.sh [--check]
#
# Builds the binary, starts replica A on 127.0.0.1:${PORT_A:-18181} and B on
# 127.0.0.1:${PORT_B:-18182} (serve --http --insecure-no-auth, JSON logs) on
# examples/chinook/nl2sql.yaml with storage.postgres=$NL2SQL_STORE_DSN and a
# storage.path of their own, and waits until both /readyz answer. With
# --check it asks one question on A, then on B, prints each plan_source and
# exits 1 unless B answered from the shared plan cache (B's own storage path
# is fresh, so only the shared store can hold A's plan); without it the replicas run until Ctrl-C.
# Put any load balancer in front of the two ports: no session affinity is
# needed. Logs: $WORK/a.log, $WORK/b.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${NL2SQL_STORE_DSN:?set NL2SQL_STORE_DSN to the shared PostgreSQL store DSN}"
PORT_A=${PORT_A:-18181}
PORT_B=${PORT_B:-18182}
WORK=$(mktemp -d -t nl2sql-replicas-XXXXXX)
go build -o "$WORK/nl2sql" .

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

start() { # name port
  mkdir -p "$WORK/$1"
  NL2SQL_STORAGE__PATH="$WORK/$1" NL2SQL_STORAGE__POSTGRES="$NL2SQL_STORE_DSN" \
    "$WORK/nl2sql" serve --config examples/chinook/nl2sql.yaml --http "127.0.0.1:$2" \
    --insecure-no-auth --log-format json --log-level info 2>"$WORK/$1.log" &
  pids+=($!)
}
start a "$PORT_A"
start b "$PORT_B"

for port in "$PORT_A" "$PORT_B"; do
  for _ in $(seq 1 300); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    sleep 0.2
  done
  curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null || { echo "replica on $port not ready; see $WORK" >&2; exit 1; }
done
echo "replica A: http://127.0.0.1:$PORT_A/mcp   replica B: http://127.0.0.1:$PORT_B/mcp   (metrics at /metrics, readiness at /readyz)"

# ask PORT QUESTION: one MCP session (2025-06-18 revision) and one ask call;
# prints the plan_source of the answer.
ask() {
  local url="http://127.0.0.1:$1/mcp" h=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream')
  local sid
  sid=$(curl -fsS -D - -o /dev/null "${h[@]}" "$url" \
    -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"run.sh","version":"1"}}}' |
    tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')
  h+=(-H "Mcp-Session-Id: $sid" -H 'Mcp-Protocol-Version: 2025-06-18')
  curl -fsS -o /dev/null "${h[@]}" "$url" -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  curl -fsS "${h[@]}" "$url" \
    -d "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"ask\",\"arguments\":{\"question\":\"$2\"}}}" |
    grep -o 'plan_source":"[a-z]*"' | head -1
}

if [[ "${1:-}" == "--check" ]]; then
  # B has a storage path of its own (fresh above), so a plan-cache hit on B
  # can only come from the shared store: that is what this checks.
  q="Which artist has released the most albums?"
  a=$(ask "$PORT_A" "$q") b=$(ask "$PORT_B" "$q")
  echo "A: ${a:-no answer}   B: ${b:-no answer}"
  [[ "$a" =~ plan_source\":\"(llm|replay|cache)\" ]] || { echo "check FAILED: replica A gave no plan (see $WORK/a.log)" >&2; exit 1; }
  [[ "$b" == *'plan_source":"cache"'* ]] || { echo "check FAILED: replica B did not answer from the shared plan cache (see $WORK/b.log)" >&2; exit 1; }
  echo "check ok: B answered from the plan A stored in the shared store"
  exit 0
fi
echo "Ctrl-C stops both."
wait
