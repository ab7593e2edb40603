// A benchmark, not a test: how long calls on a small datasource take while
// a big one is still indexing in the same server. It connects once over
// streamable HTTP, waits until the small datasource is ready, then sends
// run_plan on it N times in a row, noting each call's wall time and
// whether the big one was still not ready when the call ended.
//
// usage: node latency_while_indexing.mjs URL SMALL BIG PLAN.json N 2>/dev/null
// (the SDK warns about abort listeners after 1,500 calls on one client)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync } from "node:fs";

const [url, small, big, planFile, n] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, "utf8"));
const c = new Client({ name: "latency", version: "1" });
const t0 = performance.now();
await c.connect(new StreamableHTTPClientTransport(new URL(url)));
const status = async () => {
  const r = await c.callTool({ name: "list_datasources", arguments: {} });
  return Object.fromEntries((r.structuredContent?.datasources ?? []).map((d) => [d.id, d.status]));
};
let s = await status();
while (s[small] !== "ready") {
  await new Promise((r) => setTimeout(r, 50));
  s = await status();
}
const readyMs = performance.now() - t0;
const during = [];
let after = 0;
for (let i = 0; i < Number(n); i++) {
  const start = performance.now();
  const r = await c.callTool({ name: "run_plan", arguments: { datasource: small, plan } });
  const ms = performance.now() - start;
  if (r.isError) throw new Error("run_plan failed: " + JSON.stringify(r.content));
  if ((await status())[big] !== "ready") during.push(ms);
  else after++;
}
await c.close();
during.sort((a, b) => a - b);
const q = (p) => (during.length ? during[Math.min(during.length - 1, Math.floor(p * during.length))].toFixed(1) : null);
console.log(JSON.stringify({ small_ready_ms: Math.round(readyMs), calls_while_big_indexed: during.length, calls_after: after,
  median_ms: q(0.5), p95_ms: q(0.95), p99_ms: q(0.99), max_ms: during.length ? during[during.length - 1].toFixed(1) : null }));
