#!/usr/bin/env bash
# Time and peak memory of `nl2sql serve` (stdio) given one long line and
# then a ping, per line size. The server exits when stdin ends and every
# request has its answer, so the wall time is the time to refuse the long
# line and answer the ping.
#
#   scripts/bench/stdio_lines.sh [BINARY] [SIZES_MB...]
#   e.g. scripts/bench/stdio_lines.sh /tmp/nl2sql 1 10 100
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-}
shift || true
sizes=${*:-1 10 100}
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/nl2sql
	go build -o "$bin" .
fi
cfg=examples/chinook/nl2sql.yaml
printf '%-8s %-8s %-8s %-12s %s\n' size_MB wall_s peak_MB ping_answered first_response
for mb in $sizes; do
	out=$(mktemp)
	tf=$(mktemp)
	{ printf '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_plan","arguments":{"plan":"'
		head -c $((mb * 1024 * 1024)) /dev/zero | tr '\0' x
		printf '"}}}\n{"jsonrpc":"2.0","id":"next","method":"ping"}\n'; } |
		/usr/bin/time -o "$tf" -f '%e %M' "$bin" serve --config "$cfg" >"$out" 2>/dev/null
	read -r wall kb <"$tf"
	pong=no
	grep -q '"id":"next","result"' "$out" && pong=yes
	printf '%-8s %-8s %-8s %-12s %s\n' "$mb" "$wall" "$((kb / 1024))" "$pong" "$(head -1 "$out" | head -c 100)"
	rm -f "$out" "$tf"
done
