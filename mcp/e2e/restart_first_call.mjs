// A benchmark, not a test: how long after a server process starts its
// first tool call is answered (a restart on a warm storage path: stored
// snapshot and retrieval index). Start this first (the SDK takes a moment
// to load), then the server, writing its start time in milliseconds to
// T0FILE atomically (write a temporary file, then mv it):
//
//   node restart_first_call.mjs URL T0FILE TOOL 'ARGS_JSON' &
//   sleep 2; date +%s%3N > t0.tmp && mv t0.tmp T0FILE
//   nl2sql serve --http … --storage WARM_DIR --db big=big.sqlite
//
// It connects as soon as the server listens and calls TOOL until it is
// answered without an error, printing both times.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync, existsSync } from "node:fs";

const [url, t0File, tool, args] = process.argv.slice(2);
while (!existsSync(t0File)) await new Promise((r) => setTimeout(r, 5));
const t0 = Number(readFileSync(t0File, "utf8"));
const c = new Client({ name: "restart", version: "1" });
for (;;) {
  try {
    await c.connect(new StreamableHTTPClientTransport(new URL(url)));
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 10));
  }
}
const connected = Date.now() - t0;
for (let tries = 1; ; tries++) {
  const r = await c.callTool({ name: tool, arguments: JSON.parse(args) });
  if (!r.isError) {
    console.log(JSON.stringify({ connected_ms: connected, first_answer_ms: Date.now() - t0, tries }));
    break;
  }
  if (tries >= 500) throw new Error("never answered: " + JSON.stringify(r.content));
  await new Promise((r) => setTimeout(r, 10));
}
await c.close();
