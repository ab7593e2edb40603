// One host plan on three engines, over stdio with the official MCP
// TypeScript SDK client and `nl2sql serve --db` (no YAML): the months of
// 2025 with the three highest revenues, ties for third kept (with_ties),
// labelled 'YYYY-MM' (PERIOD_LABEL) and grouped by that output alias, with
// a date range whose last day counts whole. Each engine must return the
// rows its own hand-written SQL returns (engines_test.go computes them).
//
// Run by mcp/e2e/engines_test.go (TestHostPlanAcrossEnginesWithTypeScriptSDK).

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { Client } from "./client.mjs";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { assertSameRows, mustEnv, serverEnv, textOf } from "./helpers.mjs";

const BIN = mustEnv("NL2SQL_BIN");
const CASES = JSON.parse(readFileSync(mustEnv("NL2SQL_ENGINES_FIXTURE"), "utf8"));
const CALL_TIMEOUT_MS = 30_000;

const col = (table, column) => ({ kind: "column", table, column });
const PLAN = {
  select: [
    { expr: { kind: "func", name: "PERIOD_LABEL", args: [{ kind: "literal", value: "month" }, col("i", "InvoiceDate")] }, alias: "month" },
    { expr: { kind: "func", name: "SUM", args: [col("i", "Total")] }, alias: "revenue" },
  ],
  from: [{ table: "Invoice", alias: "i" }],
  where: {
    kind: "between", expr: col("i", "InvoiceDate"),
    low: { kind: "literal", type: "date", value: "2025-01-01" },
    high: { kind: "literal", type: "date", value: "2025-12-31" },
  },
  group_by: [{ kind: "column", column: "month" }],
  order_by: [{ expr: { kind: "column", column: "revenue" }, direction: "desc" }],
  limit: 3,
  with_ties: true,
};

// Decimal sums come back as exact decimal text on some engines and as
// numbers on others; the comparison is by value.
const asNumbers = (rows) => rows.map((r) => r.map((v) => (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v)));

describe("one host plan on SQLite, DuckDB and PostgreSQL (serve --db, no YAML)", () => {
  assert.ok(CASES.length >= 2, "the fixture lists fewer than two engines");
  for (const c of CASES) {
    it(`${c.engine}: run_plan returns the hand-written SQL's rows`, { timeout: 90_000 }, async () => {
      const transport = new StdioClientTransport({ command: BIN, args: ["serve", ...c.args], env: serverEnv(), stderr: "pipe" });
      let stderr = "";
      transport.stderr.on("data", (d) => { stderr += d.toString("utf8"); });
      const client = new Client({ name: "nl2sql-e2e-engines", version: "0.0.0" }, { capabilities: {} });
      try {
        await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
        await client.listTools(undefined, { timeout: CALL_TIMEOUT_MS }); // the SDK compiles every output schema here
        // one datasource: run_plan needs no datasource argument
        const res = await client.callTool({ name: "run_plan", arguments: { plan: PLAN } }, undefined, { timeout: CALL_TIMEOUT_MS });
        assert.notEqual(res.isError, true, `run_plan failed on ${c.engine}: ${textOf(res)}\nstderr: ${stderr}`);
        const sc = res.structuredContent;
        assert.deepEqual(sc.columns, ["month", "revenue"]);
        assert.equal(sc.truncated, false);
        assert.ok(sc.rows.length > 3, `${c.engine}: ${sc.rows.length} rows: the tie for third place was dropped`);
        assertSameRows(asNumbers(sc.rows), asNumbers(c.rows), `${c.engine}: rows differ from the hand-written SQL`);
        for (const [month] of sc.rows) assert.match(month, /^2025-(0[1-9]|1[0-2])$/, `${c.engine}: month label ${month}`);
      } finally {
        await client.close().catch(() => {});
      }
    });
  }
});
