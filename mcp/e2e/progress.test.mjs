// A call on a datasource still being opened, from a client that asked for
// progress (onprogress sets _meta.progressToken), waits for the open and
// gets notifications/progress meanwhile: progress strictly increasing,
// each message naming the datasource and how far its open got. The
// answer then comes as usual, never DATASOURCE_INDEXING. The official
// TypeScript SDK client is used as is (not the retrying wrapper), over
// stdio, on a fresh storage path so that the server indexes at start.
//
// Run by mcp/e2e/progress_test.go (TestOpeningProgressWithTypeScriptSDK).

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { mustEnv, serverEnv, textOf } from "./helpers.mjs";

const BIN = mustEnv("NL2SQL_BIN");
const CONFIG = mustEnv("NL2SQL_PROGRESS_CONFIG");
const TEST_TIMEOUT_MS = 240_000;

describe("progress while a datasource opens", () => {
  let client;
  let stderr = "";
  before(async () => {
    const transport = new StdioClientTransport({ command: BIN, args: ["serve", "--config", CONFIG], env: serverEnv(), stderr: "pipe" });
    transport.stderr.on("data", (c) => (stderr += c.toString("utf8")));
    client = new Client({ name: "nl2sql-e2e-progress", version: "0.0.0" }, { capabilities: {} });
    await client.connect(transport, { timeout: 60_000 });
  });
  after(async () => {
    await client?.close();
    if (process.exitCode) process.stderr.write(stderr);
  });

  it("waits with notifications/progress, then answers", { timeout: TEST_TIMEOUT_MS }, async () => {
    const reports = [];
    const res = await client.callTool({ name: "describe_schema", arguments: { datasource: "big", tables: ["sales_order_0000"] } }, undefined, {
      onprogress: (p) => reports.push(p),
      timeout: 60_000,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: 200_000,
    });
    assert.notEqual(res.isError, true, textOf(res));
    assert.equal(res.structuredContent.tables.length, 1, textOf(res));
    assert.ok(reports.length >= 1, "no progress notification while the datasource opened");
    for (let i = 1; i < reports.length; i++) {
      assert.ok(reports[i].progress > reports[i - 1].progress, `progress went from ${reports[i - 1].progress} to ${reports[i].progress}`);
    }
    for (const r of reports) assert.match(r.message, /^datasource big: /, JSON.stringify(r));

    // Once open, the datasource is listed ready.
    const list = await client.callTool({ name: "list_datasources", arguments: {} }, undefined, { onprogress: () => {} });
    const big = list.structuredContent.datasources.find((d) => d.id === "big");
    assert.equal(big.status, "ready", JSON.stringify(big));
  });
});
