// End-to-end paging walk over a catalog far larger than the result budget
// (150 tables × 20 columns, a 2,000-token budget, one table denied), with
// the official MCP TypeScript SDK client over stdio (it validates each
// structuredContent against the tool's outputSchema): describe_schema's
// cursors and the schema resource's page resources each give every
// visible table exactly once, every result within the budget, the denied
// table on no page and in no total, and a changed cursor is refused with
// INVALID_CURSOR.
//
// Run by mcp/e2e/e2e_test.go (TestCatalogPagingWithTypeScriptSDK).

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";

import { Client } from "./client.mjs";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { mustEnv, serverEnv, textOf, assertToolError } from "./helpers.mjs";

const BIN = mustEnv("NL2SQL_BIN");
const CONFIG = mustEnv("NL2SQL_CATALOG_CONFIG");
const VISIBLE = JSON.parse(mustEnv("NL2SQL_CATALOG_VISIBLE")); // the visible tables, in the snapshot's order
const HIDDEN = mustEnv("NL2SQL_CATALOG_HIDDEN");
const BUDGET = 2000;
// the first call waits while the catalog is profiled and indexed, which
// on a loaded 2-core machine (the whole suite at once) passed a minute
const CALL_TIMEOUT_MS = 150_000;
const TEST_TIMEOUT_MS = 280_000; // within e2e_test.go's overallTimeout (5 min)

// A token is at least one byte, so bytes bound tokens from above: a page
// of at most BUDGET bytes fits for sure; the server counts o200k_base
// tokens, which this client cannot, so a larger page is checked against
// 4.5 bytes a token at most (JSON with short words runs 3-4).
function assertFits(v, label) {
  const n = Buffer.byteLength(JSON.stringify(v));
  assert.ok(n <= BUDGET * 4.5, `${label}: ${n} bytes, far over the ${BUDGET}-token budget`);
}

describe("a 150-table catalog paged within a 2,000-token budget", () => {
  let client;
  let stderr = "";
  before(async () => {
    const transport = new StdioClientTransport({ command: BIN, args: ["serve", "--config", CONFIG], env: serverEnv(), stderr: "pipe" });
    transport.stderr.on("data", (c) => (stderr += c.toString("utf8")));
    client = new Client({ name: "nl2sql-e2e-catalog", version: "0.0.0" }, { capabilities: {} });
    await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
  });
  after(async () => {
    await client?.close();
    if (process.exitCode) process.stderr.write(stderr);
  });

  it("describe_schema's cursors give every visible table exactly once", { timeout: TEST_TIMEOUT_MS }, async () => {
    const seen = [];
    const cursors = [];
    let cursor;
    do {
      const args = { datasource: "cat", ...(cursor ? { cursor } : {}) };
      const res = await client.callTool({ name: "describe_schema", arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
      assert.notEqual(res.isError, true, textOf(res));
      assertFits(res, `page ${cursors.length + 1}`);
      const sc = res.structuredContent;
      assert.equal(sc.total_tables, VISIBLE.length, "total_tables counts only the visible tables");
      assert.equal(sc.first_table, seen.length + 1);
      assert.equal(sc.truncated === true, sc.next_cursor !== undefined);
      seen.push(...sc.tables.map((x) => x.name));
      cursor = sc.next_cursor;
      if (cursor) cursors.push(cursor);
      assert.ok(cursors.length < 200, "pagination does not end");
    } while (cursor);
    assert.ok(cursors.length >= 5, `${VISIBLE.length} tables in ${cursors.length + 1} pages`);
    assert.deepEqual(seen, VISIBLE, "each visible table once, in order");
    assert.ok(!seen.includes(HIDDEN), "the denied table is shown");

    // the same cursor, the same page byte for byte
    const again = async () =>
      JSON.stringify((await client.callTool({ name: "describe_schema", arguments: { datasource: "cat", cursor: cursors[2] } })).structuredContent);
    assert.equal(await again(), await again());

    const bad = cursors[2].slice(0, -3) + (cursors[2].endsWith("A") ? "BBB" : "AAA");
    assertToolError(await client.callTool({ name: "describe_schema", arguments: { datasource: "cat", cursor: bad } }), /INVALID_CURSOR/, "changed cursor");
    assertToolError(
      await client.callTool({ name: "describe_schema", arguments: { datasource: "cat", filter: "sales", cursor: cursors[2] } }),
      /INVALID_CURSOR/,
      "cursor of another request",
    );
  });

  it("the schema resource is an index whose page resources hold every visible table once", { timeout: TEST_TIMEOUT_MS }, async () => {
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    assert.ok(templates.includes("nl2sql://{datasource}/schema/page/{page}"), templates.join(", "));
    const index = await client.readResource({ uri: "nl2sql://cat/schema" });
    assertFits(index, "schema index");
    const idx = JSON.parse(index.contents[0].text);
    assert.equal(idx.paged, true);
    assert.equal(idx.total_tables, VISIBLE.length);
    const seen = [];
    let uri = idx.pages[0].uri;
    let n = 0;
    while (uri) {
      const page = await client.readResource({ uri });
      assertFits(page, uri);
      const p = JSON.parse(page.contents[0].text);
      assert.equal(p.page, ++n);
      seen.push(...p.tables.map((x) => x.name));
      uri = p.next;
      assert.ok(n <= 200, "the pages do not end");
    }
    assert.equal(n, idx.total_pages);
    assert.deepEqual(seen, VISIBLE, "each visible table once, in order");
    await assert.rejects(client.readResource({ uri: `nl2sql://cat/schema/table/main.${HIDDEN}` }), /no table/);
  });
});
