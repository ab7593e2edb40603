// End-to-end tests of host planning over stdio with the official MCP
// TypeScript SDK client (which validates structuredContent against each
// tool's outputSchema): the assistant plans, the server hands it what it
// needs in one round trip and runs its plan.
//
//   - `nl2sql serve --db chinook.sqlite`, no YAML: tools listed, the
//     instructions say how the host plans, one start line on stderr, an unrecorded question answered with the
//     plan-it-yourself result, and a plan written from it answered by
//     run_plan;
//   - the Chinook config (verified queries, replay recordings): a question
//     a verified query matches but with no recording names that query with
//     its filled call, and making the call answers.
//
// Run by mcp/e2e/e2e_test.go (TestHostPlanningWithTypeScriptSDK).

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";

import { Client } from "./client.mjs";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { mustEnv, serverEnv, textOf } from "./helpers.mjs";

const BIN = mustEnv("NL2SQL_BIN");
const CONFIG = mustEnv("NL2SQL_CONFIG");
const CHINOOK_DB = join(dirname(CONFIG), "chinook.sqlite");
const CALL_TIMEOUT_MS = 20_000;
const TEST_TIMEOUT_MS = 45_000;

async function connect(args) {
  const transport = new StdioClientTransport({ command: BIN, args, env: serverEnv(), stderr: "pipe" });
  const state = { stderr: "", transport };
  transport.stderr.on("data", (chunk) => {
    state.stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "nl2sql-e2e-host", version: "0.0.0" }, { capabilities: {} });
  await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
  state.client = client;
  state.call = (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
  return state;
}

// The plan a host would write for "Which artist has released the most albums?"
// from the schema context (Artist, Album, their foreign key).
const ARTIST_PLAN = {
  select: [
    { expr: { kind: "column", table: "ar", column: "Name" }, alias: "artist" },
    { expr: { kind: "func", name: "COUNT", args: [] }, alias: "albums" },
  ],
  from: [{ table: "Artist", alias: "ar" }, { table: "Album", alias: "al" }],
  joins: [{ type: "inner", left: "ar", right: "al", on: [{ left_column: "ArtistId", right_column: "ArtistId" }] }],
  group_by: [{ kind: "column", table: "ar", column: "ArtistId" }, { kind: "column", table: "ar", column: "Name" }],
  order_by: [{ expr: { kind: "column", column: "albums" }, direction: "desc" }],
  limit: 1,
};

describe("nl2sql serve --db chinook.sqlite (no YAML, host planning)", () => {
  let s;
  before(async () => {
    s = await connect(["serve", "--db", CHINOOK_DB]);
  });
  after(async () => {
    await s?.client.close();
  });

  it("lists its tools and writes one start line naming the datasource and host planning", { timeout: TEST_TIMEOUT_MS }, async () => {
    const { tools } = await s.client.listTools(undefined, { timeout: CALL_TIMEOUT_MS });
    const names = tools.map((t) => t.name);
    for (const n of ["ask", "get_plan_schema", "run_plan", "run_verified_query", "describe_schema"]) {
      assert.ok(names.includes(n), `tool ${n} missing (got ${names.join(", ")})`);
    }
    // What the SDK got at initialize and a host shows its model: how to
    // plan without a server model, naming tools that exist.
    const instructions = s.client.getInstructions() ?? "";
    for (const w of ['"plan_it_yourself"', "get_plan_schema", "run_plan"]) {
      assert.ok(instructions.includes(w), `instructions lack ${w}: ${JSON.stringify(instructions)}`);
    }
    const start = s.stderr.split("\n").filter((l) => l.includes("serving MCP"));
    assert.equal(start.length, 1, `start lines on stderr: ${JSON.stringify(s.stderr)}`);
    assert.match(start[0], /over stdio; datasources: chinook \(sqlite\); planning: host/);
  });

  it("ask of an unrecorded question returns the plan-it-yourself result, and a plan written from it answers", { timeout: TEST_TIMEOUT_MS }, async () => {
    const res = await s.call("ask", { question: "Which artist has released the most albums?" });
    assert.notEqual(res.isError, true, `ask failed: ${textOf(res)}`);
    const sc = res.structuredContent;
    assert.equal(sc.kind, "plan_it_yourself");
    assert.equal(sc.reason, "no_planner");
    assert.equal(sc.datasource, "chinook");
    assert.equal(sc.dialect, "sqlite");
    assert.match(sc.today, /^\d{4}-\d{2}-\d{2}$/);
    assert.match(sc.schema_context, /^Artist \(275 rows\): ArtistId integer pk; Name text/m);
    assert.match(sc.schema_context, /^Album \(347 rows\): .*ArtistId integer -> Artist\.ArtistId/m);
    assert.ok(sc.context_tokens > 0);
    assert.deepEqual(sc.plan_guide, { tool: "get_plan_schema", arguments: { form: "guide" } });
    assert.deepEqual(sc.run_plan, { tool: "run_plan", arguments: { datasource: "chinook" }, missing: ["plan"] });
    assert.match(textOf(res).split("\n")[0], /get_plan_schema.*run_plan/);
    assert.match(textOf(res), /Artist \(275 rows\)/, "the text part lacks the schema context");

    const guide = await s.call(sc.plan_guide.tool, sc.plan_guide.arguments);
    assert.notEqual(guide.isError, true);
    assert.equal(guide.structuredContent.form, "guide");
    assert.equal(guide.structuredContent.schema, undefined, "the guide form carries the JSON Schema");
    const run = await s.call(sc.run_plan.tool, { ...sc.run_plan.arguments, plan: ARTIST_PLAN });
    assert.notEqual(run.isError, true, `run_plan failed: ${textOf(run)}`);
    assert.equal(run.structuredContent.kind, "answer");
    assert.deepEqual(run.structuredContent.rows, [["Iron Maiden", 21]]);
  });
});

describe("nl2sql serve --config examples/chinook/nl2sql.yaml (verified queries, unrecorded question)", () => {
  let s;
  before(async () => {
    s = await connect(["serve", "--config", CONFIG]);
  });
  after(async () => {
    await s?.client.close();
  });

  it("names the matching verified query with its filled call, and making the call answers", { timeout: TEST_TIMEOUT_MS }, async () => {
    const res = await s.call("ask", { question: "Which customers are in Germany?" });
    assert.notEqual(res.isError, true, `ask failed: ${textOf(res)}`);
    const sc = res.structuredContent;
    assert.equal(sc.kind, "plan_it_yourself");
    assert.equal(sc.reason, "no_recording");
    const v = sc.verified_queries[0];
    assert.equal(v?.id, "customers_in_country", `verified queries: ${JSON.stringify(sc.verified_queries)}`);
    assert.deepEqual(v.call, { tool: "run_verified_query", arguments: { id: "customers_in_country", params: { country: "Germany" } } });
    assert.match(sc.next, /run_verified_query/);
    assert.match(sc.schema_context, /^Customer \(59 rows\)/m);

    const run = await s.call(v.call.tool, v.call.arguments);
    assert.notEqual(run.isError, true, `run_verified_query failed: ${textOf(run)}`);
    const rows = run.structuredContent.rows;
    assert.equal(rows.length, 4, `Germany's customers: ${JSON.stringify(rows)}`);
  });
});
