// The result view (MCP Apps extension) as a host sees it through the
// official TypeScript SDK client over stdio, on `nl2sql serve --db
// chinook.sqlite`:
//   - ask, run_plan and run_verified_query carry _meta.ui.resourceUri
//     (and the legacy flat "ui/resourceUri") naming ui://nl2sql/result.html;
//   - the resource is listed and reads as one text/html;profile=mcp-app
//     document with _meta.ui.csp declaring no domain;
//   - a client advertising io.modelcontextprotocol/ui gets the view's
//     _meta["nl2sql/view"] (chart and display text) with the same
//     structured content a client without it gets, and that client no
//     view _meta.
//
// Run by mcp/e2e/viewer_test.go (TestMCPAppWithTypeScriptSDK).

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";

import { Client } from "./client.mjs";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { mustEnv, serverEnv } from "./helpers.mjs";

const BIN = mustEnv("NL2SQL_BIN");
const CHINOOK_DB = join(dirname(mustEnv("NL2SQL_CONFIG")), "chinook.sqlite");
const URI = "ui://nl2sql/result.html";
const MIME = "text/html;profile=mcp-app";
const EXT = "io.modelcontextprotocol/ui";
const OPTS = { timeout: 20_000 };

export async function connectApps(apps) {
  const transport = new StdioClientTransport({ command: BIN, args: ["serve", "--db", CHINOOK_DB], env: serverEnv(), stderr: "pipe" });
  transport.stderr.on("data", () => {});
  const capabilities = apps ? { extensions: { [EXT]: { mimeTypes: [MIME] } } } : {};
  const client = new Client({ name: "nl2sql-e2e-apps-host", version: "0.0.0" }, { capabilities });
  await client.connect(transport, OPTS);
  return client;
}

const GENRES = {
  select: [
    { expr: { kind: "column", table: "g", column: "Name" }, alias: "genre" },
    { expr: { kind: "func", name: "COUNT", args: [] }, alias: "tracks" },
  ],
  from: [{ table: "Genre", alias: "g" }, { table: "Track", alias: "t" }],
  joins: [{ type: "inner", left: "g", right: "t", on: [{ left_column: "GenreId", right_column: "GenreId" }] }],
  group_by: [{ kind: "column", table: "g", column: "GenreId" }, { kind: "column", table: "g", column: "Name" }],
  order_by: [{ expr: { kind: "column", column: "tracks" }, direction: "desc" }],
  limit: 5,
};

function stable(sc) {
  const { timings, trace_id, ...rest } = sc;
  return JSON.stringify(rest);
}

describe("MCP Apps: the result view", { timeout: 60_000 }, () => {
  let apps, plain;
  before(async () => {
    [apps, plain] = await Promise.all([connectApps(true), connectApps(false)]);
  });
  after(async () => {
    await Promise.all([apps?.close(), plain?.close()]);
  });

  it("links the view from ask, run_plan, run_combined_plan and run_verified_query only", async () => {
    const { tools } = await plain.listTools(undefined, OPTS);
    const linked = tools.filter((t) => t._meta?.ui?.resourceUri).map((t) => t.name).sort();
    assert.deepEqual(linked, ["ask", "run_combined_plan", "run_plan", "run_verified_query"]);
    for (const t of tools.filter((t) => linked.includes(t.name))) {
      assert.equal(t._meta.ui.resourceUri, URI, t.name);
      assert.equal(t._meta["ui/resourceUri"], URI, `${t.name}: legacy key`);
      assert.ok(t.outputSchema, `${t.name}: the output schema stays`);
    }
  });

  it("serves the view as one text/html;profile=mcp-app resource with a CSP that allows no domain", async () => {
    const { resources } = await plain.listResources(undefined, OPTS);
    const entry = resources.find((r) => r.uri === URI);
    assert.ok(entry, `${URI} is listed`);
    assert.equal(entry.mimeType, MIME);
    const { contents } = await plain.readResource({ uri: URI }, OPTS);
    assert.equal(contents.length, 1);
    const [c] = contents;
    assert.equal(c.uri, URI);
    assert.equal(c.mimeType, MIME);
    assert.match(c.text, /^<!doctype html>/i);
    assert.match(c.text, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';[^"]*connect-src 'none'/);
    assert.doesNotMatch(c.text, /<script[^>]+src=|<link |https?:\/\/[a-z0-9.-]+\/[^\s"')]*\.(js|css)/i, "loads nothing from anywhere");
    assert.deepEqual(c._meta.ui.csp, { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
    assert.equal(c._meta.ui.prefersBorder, true);
    assert.deepEqual(entry._meta?.ui?.csp, c._meta.ui.csp, "the list entry declares the same CSP");
  });

  it("adds the view's _meta only for a client that advertises MCP Apps", async () => {
    const call = (c) => c.callTool({ name: "run_plan", arguments: { plan: GENRES } }, undefined, OPTS);
    const [a, p] = await Promise.all([call(apps), call(plain)]);
    assert.ok(!a.isError && !p.isError);
    assert.equal(p._meta?.["nl2sql/view"], undefined, "no view _meta without the extension");
    assert.equal(stable(a.structuredContent), stable(p.structuredContent), "same structured content");
    assert.equal(a.content[0].text, p.content[0].text, "same text");
    const view = a._meta["nl2sql/view"];
    assert.deepEqual(view.chart, { kind: "bar", x: 0, y: [1] });
    assert.deepEqual(view.display["1"], a.structuredContent.rows.map((r) => String(r[1])));
    const size = (r) => Buffer.byteLength(JSON.stringify(r));
    console.log(`run_plan genres (5 rows): ${size(p)} bytes without the view's _meta, ${size(a)} with`);
  });
});
