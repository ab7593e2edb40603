// End-to-end tests of `nl2sql serve --http` (streamable HTTP), driven by the
// official MCP TypeScript SDK client (StreamableHTTPClientTransport, which
// negotiates the session-based 2025 revisions) and, for what a client library
// would hide, by raw HTTP requests.
//
// Run by mcp/e2e/e2e_test.go (`go test ./mcp/e2e`), which builds the binary,
// computes the gold rows and sets:
//   NL2SQL_BIN          the nl2sql binary
//   NL2SQL_CONFIG       absolute path of examples/chinook/nl2sql.yaml
//   NL2SQL_GOLD         JSON file [{question, columns, rows}] (rows of the gold SQL)
//   NL2SQL_WIDE_CONFIG  a config whose one datasource, "wide", has 60 tables
//                       (describe_schema pagination); optional
// By hand: node --test mcp/e2e/http.test.mjs with those set.
//
// Every server listens on 127.0.0.1 on a port the kernel picked; each is
// stopped by its describe block's after hook.

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { Client } from "./client.mjs";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

import {
  assertSameRows,
  assertToolError,
  cpuMs,
  freePort,
  mustEnv,
  parseRPCBody,
  rawRequest,
  startHTTPServer,
  textOf,
} from "./helpers.mjs";

const BIN = mustEnv("NL2SQL_BIN");
const CONFIG = mustEnv("NL2SQL_CONFIG");
const GOLD = JSON.parse(readFileSync(mustEnv("NL2SQL_GOLD"), "utf8"));
const WIDE_CONFIG = process.env.NL2SQL_WIDE_CONFIG ?? "";
const PLANS = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), "testdata", "plans.json"), "utf8"));

const CALL_TIMEOUT_MS = 20_000;
const TEST_TIMEOUT_MS = 45_000;
const PROTOCOL = "2025-06-18"; // for raw requests on the session-based path

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "raw-e2e", version: "0.0.0" } },
};
const LIST_DS = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_datasources", arguments: {} } };

function rpcHeaders(extra = {}) {
  return { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...extra };
}

function corsHeaders(headers) {
  return Object.keys(headers).filter((h) => h.toLowerCase().startsWith("access-control-"));
}

async function connect(url, headers = {}) {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: "nl2sql-http-e2e", version: "0.0.0" }, { capabilities: {} });
  const errors = [];
  client.onerror = (err) => errors.push(String(err?.message ?? err));
  await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
  return { client, transport, errors };
}

function dumpStderr(srv, label) {
  if (srv && srv.stderr.trim() !== "") {
    const tail = srv.stderr.length > 4000 ? "…" + srv.stderr.slice(-4000) : srv.stderr;
    console.log(`# ${label} stderr (${srv.stderr.length} bytes):\n${tail.replace(/^/gm, "#   ")}`);
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const STEPS = ["resolve", "retrieve", "plan", "render", "execute", "answer"];

// checkProgress asserts one call's progress notifications: the engine's
// steps in order, progress strictly increasing, total fixed. mcp-go v1.2.1
// may drop one notification per call (the one its forwarder holds when the
// handler returns: handlePost's non-resumable path closes done without
// waiting for the forwarder), so one missing step is tolerated, not more.
// It returns how many were missing.
function checkProgress(seen, label) {
  const msgs = seen.map((s) => s.message);
  assert.ok(seen.length >= STEPS.length - 1, `${label}: ${seen.length} progress notifications: ${JSON.stringify(msgs)}`);
  for (const p of seen) {
    assert.equal(p.total, STEPS.length, `${label}: total ${p.total}`);
    assert.equal(p.progress, STEPS.indexOf(p.message) + 1, `${label}: progress ${p.progress} for step ${p.message}`);
  }
  for (let i = 1; i < seen.length; i++) {
    assert.ok(seen[i].progress > seen[i - 1].progress, `${label}: steps out of order: ${JSON.stringify(msgs)}`);
  }
  return STEPS.length - seen.length;
}

// ---- the SDK client against --insecure-no-auth ------------------------------

describe("nl2sql serve --http (streamable HTTP, TypeScript SDK client)", () => {
  let srv;
  /** @type {Client} */
  let client;
  let transport;
  let sdkErrors;
  const validator = new AjvJsonSchemaValidator();
  const outputSchemas = new Map(); // tool name -> compiled validator
  const called = new Set(); // tools called with valid arguments whose result validated

  before(async () => {
    srv = await startHTTPServer({ bin: BIN, config: CONFIG, port: await freePort(), extraArgs: ["--insecure-no-auth"] });
    ({ client, transport, errors: sdkErrors } = await connect(srv.url));
  });

  after(async () => {
    await client?.close();
    await srv?.stop();
    dumpStderr(srv, "server");
  });

  // callOK calls a tool, asserts a non-error result with structuredContent
  // that validates against the tool's declared outputSchema, and records
  // the tool as covered.
  async function callOK(name, args, opts = {}, c = client) {
    const res = await c.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS, ...opts });
    assert.notEqual(res.isError, true, `${name} ${JSON.stringify(args).slice(0, 200)} failed: ${textOf(res)}`);
    assert.ok(res.structuredContent && typeof res.structuredContent === "object", `${name}: no structuredContent`);
    assert.ok(textOf(res).trim() !== "", `${name}: no text content beside structuredContent`);
    const v = outputSchemas.get(name);
    assert.ok(v, `${name}: no outputSchema seen in tools/list`);
    const r = v(res.structuredContent);
    assert.ok(r.valid, `${name}: structuredContent does not validate against its outputSchema: ${r.errorMessage}`);
    called.add(name);
    return res.structuredContent;
  }

  const call = (name, args, opts = {}) =>
    client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS, ...opts });

  it("initializes over streamable HTTP with a session id and the tools, resources and prompts capabilities", () => {
    assert.equal(client.getServerVersion()?.name, "nl2sql");
    const caps = client.getServerCapabilities();
    for (const c of ["tools", "resources", "prompts"]) assert.ok(caps?.[c], `capability ${c} missing: ${JSON.stringify(caps)}`);
    assert.match(transport.sessionId ?? "", /^mcp-session-[0-9a-f-]{36}$/, "session id");
    assert.ok(client.getInstructions()?.includes("list_datasources"), "instructions");
  });

  it("tools/list: every tool has an object inputSchema, an outputSchema, annotations and a description", { timeout: TEST_TIMEOUT_MS }, async () => {
    const { tools } = await client.listTools(undefined, { timeout: CALL_TIMEOUT_MS });
    assert.ok(tools.length >= 6, `only ${tools.length} tools`);
    for (const t of tools) {
      assert.equal(t.inputSchema?.type, "object", `${t.name}: inputSchema.type`);
      assert.equal(t.outputSchema?.type, "object", `${t.name}: outputSchema`);
      // approve_run records an approver's decision in the state store (never a database write)
      assert.equal(t.annotations?.readOnlyHint, t.name !== "approve_run", `${t.name}: readOnlyHint`);
      assert.equal(t.annotations?.destructiveHint, false, `${t.name}: destructiveHint`);
      assert.ok(t.description, `${t.name}: description`);
      outputSchemas.set(t.name, validator.getValidator(t.outputSchema));
    }
    for (const n of ["ask", "explain_plan", "list_datasources", "describe_schema", "get_plan_schema", "run_plan"]) {
      assert.ok(outputSchemas.has(n), `tool ${n} missing from tools/list (got ${[...outputSchemas.keys()].join(", ")})`);
    }
  });

  it("list_datasources: chinook, ready, 11 tables", { timeout: TEST_TIMEOUT_MS }, async () => {
    const sc = await callOK("list_datasources", {});
    const ds = sc.datasources.find((d) => d.id === "chinook");
    assert.ok(ds, JSON.stringify(sc));
    assert.equal(ds.status, "ready", ds.error);
    assert.equal(ds.tables, 11);
  });

  it("describe_schema: one table, a filter, and a bad cursor refused", { timeout: TEST_TIMEOUT_MS }, async () => {
    const all = await callOK("describe_schema", { datasource: "chinook" });
    assert.equal(all.total_tables, 11);
    assert.equal(all.tables.length, 11);
    assert.equal(all.next_cursor, undefined, "11 tables fit one page");
    const one = await callOK("describe_schema", { datasource: "chinook", table: "track" });
    assert.deepEqual(one.tables.map((t) => t.name), ["Track"]);
    const names = one.tables[0].columns.map((c) => c.name);
    for (const c of ["TrackId", "Name", "Milliseconds", "UnitPrice"]) assert.ok(names.includes(c), `Track lacks ${c}: ${names}`);
    const f = await callOK("describe_schema", { datasource: "chinook", filter: "invoice" });
    assert.equal(f.total_tables, f.tables.length);
    for (const n of ["Invoice", "InvoiceLine"]) assert.ok(f.tables.some((t) => t.name === n), `filter invoice misses ${n}`);
    for (const t of f.tables) {
      const hit = /invoice/i.test(t.name) || t.columns.some((c) => /invoice/i.test(c.name));
      assert.ok(hit, `filter invoice returned ${t.name}, which has no table or column name with "invoice"`);
    }
    assertToolError(await call("describe_schema", { datasource: "chinook", cursor: "not-a-cursor" }), /INVALID_CURSOR/, "bad cursor");
    assertToolError(await call("describe_schema", { datasource: "nope" }), /DATASOURCE_NOT_FOUND/, "unknown datasource");
  });

  it("search_schema: tables, columns and stored values for a question", { timeout: TEST_TIMEOUT_MS }, async () => {
    const sc = await callOK("search_schema", { datasource: "chinook", text: "tracks of the heavy metal genre" });
    assert.ok(sc.tables.some((t) => t.name === "Genre"), JSON.stringify(sc).slice(0, 500));
    assert.ok((sc.values || []).some((v) => v.value === "Heavy Metal"), JSON.stringify(sc.values));
  });

  it("get_plan_schema: guide, example and JSON Schema; the example runs", { timeout: TEST_TIMEOUT_MS }, async () => {
    const sc = await callOK("get_plan_schema", {});
    assert.ok(sc.guide.length > 100, "guide");
    assert.ok(sc.schema.$defs && sc.schema.properties?.select, "schema has no $defs or select");
    const ran = await callOK("run_plan", { datasource: "chinook", plan: sc.example });
    assert.ok(ran.rows.length >= 1, "the example plan returned no rows");
  });

  for (const [name, p] of Object.entries(PLANS.valid)) {
    it(`run_plan ${name}: rows, SQL and plan`, { timeout: TEST_TIMEOUT_MS }, async () => {
      const sc = await callOK("run_plan", { datasource: "chinook", plan: p.plan });
      assert.deepEqual(sc.columns, p.columns);
      assertSameRows(sc.rows, p.rows, name);
      assert.match(sc.sql, /^SELECT /, "sql");
      assert.equal(sc.truncated, false);
    });
  }

  it("run_plan with an invalid plan -> isError PLAN_INVALID naming the issue and its path", { timeout: TEST_TIMEOUT_MS }, async () => {
    const text = assertToolError(await call("run_plan", { datasource: "chinook", plan: PLANS.invalid.plan }), new RegExp(PLANS.invalid.code), "invalid plan");
    assert.ok(text.includes(PLANS.invalid.issue), `issue code ${PLANS.invalid.issue} missing: ${text}`);
    assert.ok(text.includes(PLANS.invalid.path), `path ${PLANS.invalid.path} missing: ${text}`);
    assertToolError(await call("run_plan", { datasource: "chinook" }), /INVALID_REQUEST/, "missing plan");
    assertToolError(await call("run_plan", { datasource: "chinook", plan: { select: "DROP TABLE Track" } }), /PLAN_INVALID|INVALID_REQUEST/, "plan with a string select");
  });

  it("run_combined_plan: two sources combined by name; a combine plan reading an unknown name is refused with its path", { timeout: TEST_TIMEOUT_MS }, async () => {
    const col = (t, c) => ({ kind: "column", table: t, column: c });
    const genres = { select: [{ expr: col("g", "GenreId"), alias: "genre_id" }, { expr: col("g", "Name"), alias: "genre" }], from: [{ table: "Genre", alias: "g" }] };
    const tracks = { select: [{ expr: col("t", "GenreId"), alias: "genre_id" }, { expr: { kind: "func", name: "COUNT", args: [] }, alias: "tracks" }],
      from: [{ table: "Track", alias: "t" }], group_by: [col("t", "GenreId")] };
    const combine = (name) => ({ select: [{ expr: col("g", "genre"), alias: "genre" }, { expr: col("k", "tracks"), alias: "tracks" }],
      from: [{ table: "g", alias: "g" }, { table: name, alias: "k" }], joins: [{ left: "g", right: "k", on: [{ left_column: "genre_id", right_column: "genre_id" }] }],
      order_by: [{ expr: { kind: "column", column: "tracks" }, direction: "desc" }], limit: 1 });
    const sources = [{ name: "g", datasource: "chinook", plan: genres }, { name: "k", datasource: "chinook", plan: tracks }];
    const sc = await callOK("run_combined_plan", { sources, combine: combine("k") });
    assert.deepEqual(sc.rows, [["Rock", 1297]]);
    assert.deepEqual(sc.sub_queries.map((q) => q.name).sort(), ["g", "k"]);
    assert.ok(sc.sub_queries.every((q) => q.plan_source === "supplied" && /^SELECT /.test(q.sql)), JSON.stringify(sc.sub_queries).slice(0, 400));
    const text = assertToolError(await call("run_combined_plan", { sources, combine: combine("tix") }), /PLAN_INVALID/, "unknown source name");
    assert.ok(text.includes("combine"), text);
  });

  it("explain_plan: plan and SQL for a recorded question, nothing run", { timeout: TEST_TIMEOUT_MS }, async () => {
    const sc = await callOK("explain_plan", { question: GOLD[0].question });
    assert.equal(sc.datasource, "chinook");
    assert.match(sc.sql, /SELECT/);
    assert.ok(sc.plan && typeof sc.plan === "object");
    assert.ok(!("rows" in sc), "explain_plan returned rows");
  });

  it("has gold rows for the bundled questions", () => {
    assert.ok(GOLD.length >= 12, `NL2SQL_GOLD has ${GOLD.length} entries`);
  });

  for (const g of GOLD) {
    it(`ask: ${g.question}`, { timeout: TEST_TIMEOUT_MS }, async () => {
      const sc = await callOK("ask", { question: g.question });
      assert.equal(sc.truncated, false, "result truncated");
      assert.equal(sc.columns.length, g.columns.length, `columns ${JSON.stringify(sc.columns)} vs gold ${JSON.stringify(g.columns)}`);
      assertSameRows(sc.rows, g.rows, g.question);
    });
  }

  it("ask reports progress: notifications arrive in step order, before the result", { timeout: TEST_TIMEOUT_MS }, async () => {
    const seen = [];
    const res = await client.callTool({ name: "ask", arguments: { question: GOLD[1].question } }, undefined, {
      timeout: CALL_TIMEOUT_MS,
      onprogress: (p) => seen.push(p),
    });
    assert.notEqual(res.isError, true, textOf(res));
    checkProgress(seen, "ask");
  });

  // Five more asks, each with its own progress token: every call sees its
  // own steps, in order, before its result (a notification arriving after
  // the result, or for another call, is an SDK error checked at the end).
  it("progress over five consecutive asks: in order, each call's own", { timeout: TEST_TIMEOUT_MS }, async (t) => {
    let lost = 0;
    for (const g of GOLD.slice(2, 7)) {
      const seen = [];
      const res = await client.callTool({ name: "ask", arguments: { question: g.question } }, undefined, {
        timeout: CALL_TIMEOUT_MS,
        onprogress: (p) => seen.push(p),
      });
      assert.notEqual(res.isError, true, textOf(res));
      lost += checkProgress(seen, g.question);
    }
    if (lost > 0) t.diagnostic(`${lost} of 30 progress notifications lost (mcp-go v1.2.1 drops one the forwarder holds when the call returns)`);
  });

  it("cancellation: aborting a long run_plan rejects at once, stops the query, and the server stays healthy", { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const ac = new AbortController();
    const start = Date.now();
    const cpu0 = cpuMs(srv.pid);
    const pending = call("run_plan", { datasource: "chinook", plan: PLANS.heavy.plan }, { signal: ac.signal, timeout: 60_000 });
    pending.catch(() => {}); // observed below
    // Wait until the query is really running (the server burns CPU), then ~200 ms more.
    if (cpu0 !== null) {
      const until = Date.now() + 5_000;
      while (cpuMs(srv.pid) - cpu0 < 50 && Date.now() < until) await sleep(20);
      assert.ok(cpuMs(srv.pid) - cpu0 >= 50, "the heavy plan did not make the server busy within 5 s");
    }
    await sleep(200);
    let settled = false;
    pending.then(() => (settled = true), () => (settled = true));
    assert.equal(settled, false, "the heavy plan finished before it was aborted; make it heavier");
    const abortedAt = Date.now();
    ac.abort(new Error("e2e abort"));
    await assert.rejects(pending, (e) => /abort/i.test(String(e?.message ?? e)), "the call did not reject with the abort");
    const rejectMs = Date.now() - abortedAt;
    assert.ok(rejectMs < 1000, `the client saw the abort after ${rejectMs} ms`);
    t.diagnostic(`aborted after ${abortedAt - start} ms; rejected ${rejectMs} ms later`);

    if (cpu0 !== null) {
      // The query must stop on the database side: give the cancellation
      // 1 s to arrive, then the server must be nearly idle for 1 s.
      await sleep(1_000);
      const a = cpuMs(srv.pid);
      await sleep(1_000);
      const busy = cpuMs(srv.pid) - a;
      t.diagnostic(`server CPU in the second after: ${busy} ms`);
      assert.ok(busy < 300, `the server used ${busy} ms CPU in 1 s after the abort: the query still runs`);
    }
    const t0 = Date.now();
    const sc = await callOK("run_plan", { datasource: "chinook", plan: PLANS.valid.top_artist.plan });
    assertSameRows(sc.rows, PLANS.valid.top_artist.rows, "after abort");
    assert.ok(Date.now() - t0 < 2_000, `the next call took ${Date.now() - t0} ms`);
    await client.ping({ timeout: CALL_TIMEOUT_MS });
  });

  // Verified queries (curated: in the config): list them, run each with its
  // parameters' example values, refuse a bad value and an unknown id.
  it("list_verified_queries and run_verified_query: every listed query runs with its example values", { timeout: TEST_TIMEOUT_MS }, async (t) => {
    assert.ok(outputSchemas.has("list_verified_queries"), "the server lists list_verified_queries");
    const list = await callOK("list_verified_queries", {});
    assert.ok(Array.isArray(list.verified_queries));
    const filtered = await callOK("list_verified_queries", { datasource: "chinook" });
    assert.equal(filtered.verified_queries.length, list.verified_queries.length, "all bundled queries are on chinook");
    assert.ok(list.verified_queries.length > 0, "the Chinook example's verified queries are listed");
    for (const q of list.verified_queries) {
      const params = {};
      for (const p of q.params ?? []) {
        const v = p.example ?? p.default;
        if (v !== undefined) params[p.name] = v;
        else assert.ok(!p.required, `${q.id}: required parameter ${p.name} has no example or default`);
      }
      const sc = await callOK("run_verified_query", { id: q.id, params });
      assert.ok(sc.rows.length > 0, `${q.id} with ${JSON.stringify(params)} returned no rows`);
      for (const r of sc.rows) assert.equal(r.length, sc.columns.length, `${q.id}: row width`);
      // Cross-check: revenue per country for a year sums to that year's
      // total from the gold SQL of the yearly-revenue question.
      const yearly = GOLD.find((g) => /total revenue in each year/i.test(g.question));
      if (q.id === "revenue_by_country" && yearly) {
        const want = yearly.rows.find((r) => String(r[0]) === String(params.year));
        const got = sc.rows.reduce((a, r) => a + Number(r[sc.columns.indexOf("revenue")]), 0);
        assert.ok(want && Math.abs(got - want[1]) < 0.01, `revenue_by_country ${params.year} sums to ${got}, the gold total is ${want?.[1]}`);
      }
    }
    const first = list.verified_queries[0];
    assertToolError(await call("run_verified_query", { id: "no_such_query" }), /VERIFIED_QUERY_NOT_FOUND/, "unknown id");
    const p0 = (first.params ?? [])[0];
    if (p0) {
      assertToolError(
        await call("run_verified_query", { id: first.id, params: { [p0.name]: { nested: "object" } } }),
        /INVALID_PARAMS|INVALID_REQUEST/,
        "an object as a parameter value",
      );
      assertToolError(await call("run_verified_query", { id: first.id, params: { no_such_param: 1 } }), /INVALID_PARAMS|INVALID_REQUEST/, "unknown parameter");
    }
  });

  it("resources: the chinook schema resource lists and reads as JSON", { timeout: TEST_TIMEOUT_MS }, async () => {
    const { resources } = await client.listResources(undefined, { timeout: CALL_TIMEOUT_MS });
    assert.ok(resources.some((r) => r.uri === "nl2sql://chinook/schema"), JSON.stringify(resources));
    const { resourceTemplates } = await client.listResourceTemplates(undefined, { timeout: CALL_TIMEOUT_MS });
    assert.ok(resourceTemplates.some((r) => r.uriTemplate === "nl2sql://{datasource}/schema"), JSON.stringify(resourceTemplates));
    const r = await client.readResource({ uri: "nl2sql://chinook/schema" }, { timeout: CALL_TIMEOUT_MS });
    const snap = JSON.parse(r.contents[0].text);
    assert.equal(snap.tables.length, 11);
  });

  it("prompts: ask_the_database lists and renders with the question", { timeout: TEST_TIMEOUT_MS }, async () => {
    const { prompts } = await client.listPrompts(undefined, { timeout: CALL_TIMEOUT_MS });
    assert.ok(prompts.some((p) => p.name === "ask_the_database"), JSON.stringify(prompts));
    const p = await client.getPrompt({ name: "ask_the_database", arguments: { question: "How many albums?", datasource: "chinook" } }, { timeout: CALL_TIMEOUT_MS });
    assert.match(p.messages[0].content.text, /How many albums\?/);
  });

  // The SDK's callTool validates structuredContent against the tool's
  // outputSchema even when isError is set, and throws on a mismatch: these
  // calls returning at all proves the error shape is accepted.
  it("tool errors carry {error: {code, message, hint, retryable, issues}} as structuredContent, valid for the SDK", { timeout: TEST_TIMEOUT_MS }, async () => {
    const res = await call("run_plan", { datasource: "chinook", plan: PLANS.invalid.plan });
    assert.equal(res.isError, true);
    const e = res.structuredContent?.error;
    assert.ok(e, `no structured error: ${JSON.stringify(res).slice(0, 400)}`);
    assert.equal(e.code, PLANS.invalid.code);
    assert.equal(typeof e.message, "string");
    assert.equal(typeof e.hint, "string");
    assert.equal(e.retryable, false);
    assert.ok(e.issues.some((i) => i.code === PLANS.invalid.issue && i.path === PLANS.invalid.path && i.message), JSON.stringify(e.issues));
    const v = outputSchemas.get("run_plan")(res.structuredContent);
    assert.ok(v.valid, `run_plan's outputSchema refuses its error: ${v.errorMessage}`);
    for (const [name, args] of [["describe_schema", { datasource: "nope" }], ["ask", { question: "" }], ["run_verified_query", { id: "nope" }], ["check_plan", { plan: {}, datasrc: 1 }]]) {
      const r = await call(name, args);
      assert.equal(r.isError, true, name);
      assert.match(r.structuredContent?.error?.code ?? "", /^[A-Z_]+$/, `${name}: ${JSON.stringify(r.structuredContent)}`);
      assert.ok(outputSchemas.get(name)(r.structuredContent).valid, `${name}: its outputSchema refuses its error`);
    }
  });

  it("check_plan: SQL, columns and types without running; invalid plans list their issues; a heavy plan returns at once", { timeout: TEST_TIMEOUT_MS }, async () => {
    const p = PLANS.valid.top_artist;
    const ok = await callOK("check_plan", { plan: p.plan }); // one datasource: none named
    assert.equal(ok.valid, true);
    assert.deepEqual(ok.columns, p.columns);
    assert.match(ok.sql, /^SELECT /);
    assert.equal(ok.column_types.length, p.columns.length);
    const bad = await callOK("check_plan", { datasource: "chinook", plan: PLANS.invalid.plan });
    assert.equal(bad.valid, false);
    assert.ok(bad.issues.some((i) => i.code === PLANS.invalid.issue), JSON.stringify(bad.issues));
    const t0 = Date.now();
    const heavy = await callOK("check_plan", { datasource: "chinook", plan: PLANS.heavy.plan });
    assert.equal(heavy.valid, true);
    assert.ok(Date.now() - t0 < 5000, `check_plan of the heavy plan took ${Date.now() - t0} ms`);
  });

  it("refusals: unknown argument, wrong type, unknown tool", { timeout: TEST_TIMEOUT_MS }, async () => {
    assertToolError(await call("ask", { question: GOLD[0].question, datasrc: "chinook" }), /INVALID_REQUEST.*datasrc|datasrc/s, "unknown argument");
    assertToolError(await call("run_plan", { datasource: 7, plan: {} }), /INVALID_REQUEST/, "datasource: 7");
    await assert.rejects(call("no_such_tool", {}), /no_such_tool|not found|-32602|-32601/i, "unknown tool");
  });

  // Approvals need a hook that stops a run: a second server on a copy of
  // the demo config whose rule requires approval for queries reading
  // Invoice (single user: the user may approve).
  it("approvals: ask stops with NEEDS_APPROVAL, approve_run approves, run_approved runs it once", { timeout: TEST_TIMEOUT_MS }, async () => {
    const ex = dirname(CONFIG);
    const dir = mkdtempSync(join(tmpdir(), "nl2sql-approvals-"));
    const cfg = {
      storage: { path: join(dir, "storage") },
      datasources: [{ id: "chinook", engine: "sqlite", path: join(ex, "chinook.sqlite") }],
      llm: { default: { provider: "replay", recordings: join(ex, "recordings") } },
      hooks: [{ name: "invoices_need_approval", rule: { approval_tables: ["chinook.main.Invoice"] } }],
    };
    writeFileSync(join(dir, "nl2sql.yaml"), JSON.stringify(cfg, null, 2));
    const s2 = await startHTTPServer({ bin: BIN, config: join(dir, "nl2sql.yaml"), port: await freePort(), extraArgs: ["--insecure-no-auth"], env: { NL2SQL_STORAGE__PATH: join(dir, "storage") } });
    const { client: c2 } = await connect(s2.url);
    try {
      const g = GOLD.find((x) => /revenue in each year/i.test(x.question));
      assert.ok(g, "the gold revenue-per-year question");
      const stopped = await c2.callTool({ name: "ask", arguments: { question: g.question } }, undefined, { timeout: CALL_TIMEOUT_MS });
      assert.equal(stopped.isError, true, textOf(stopped));
      assert.equal(stopped.structuredContent?.error?.code, "NEEDS_APPROVAL", JSON.stringify(stopped.structuredContent));
      const id = stopped.structuredContent.error.approval_id;
      assert.match(id, /^apr_[0-9a-f]{24}$/);
      const decided = await callOK("approve_run", { approval_id: id }, {}, c2);
      assert.equal(decided.state, "approved");
      const res = await callOK("run_approved", { approval_id: id }, {}, c2);
      assert.equal(res.sub_queries[0].plan_source, "approved");
      assertSameRows(res.rows, g.rows, g.question);
      assertToolError(await c2.callTool({ name: "run_approved", arguments: { approval_id: id } }, undefined, { timeout: CALL_TIMEOUT_MS }), /INVALID_REQUEST.*used/s, "a second run");
    } finally {
      await c2.close();
      await s2.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("every tool in tools/list was called with valid arguments and its result validated", () => {
    const missing = [...outputSchemas.keys()].filter((n) => !called.has(n));
    assert.deepEqual(missing, [], `tools without a valid end-to-end call in http.test.mjs (add one): ${missing.join(", ")}`);
  });

  it("a 2 MiB request body is refused and the server stays up", { timeout: TEST_TIMEOUT_MS }, async () => {
    const big = JSON.stringify({ ...LIST_DS, params: { ...LIST_DS.params, arguments: { pad: "x".repeat(2 << 20) } } });
    const r = await rawRequest(srv.url.href, {
      headers: rpcHeaders({ "Mcp-Session-Id": transport.sessionId, "MCP-Protocol-Version": PROTOCOL }),
      body: big,
    }).catch((e) => ({ status: 0, body: String(e) }));
    const msg = parseRPCBodySafe(r);
    assert.ok(r.status >= 400 || msg?.error, `2 MiB body accepted: ${r.status} ${r.body.slice(0, 300)}`);
    await client.ping({ timeout: CALL_TIMEOUT_MS });
  });

  // One report is expected: after the abort above the server still answers
  // the cancelled call (CANCELLED), which the SDK has forgotten. The spec
  // says a receiver of notifications/cancelled SHOULD NOT answer; mcp-go
  // v1.2.1 writes the handler's result regardless. Harmless; anything else
  // is a failure.
  it("the SDK reported no transport errors (beyond the answer to the cancelled call)", () => {
    const unexpected = sdkErrors.filter((e) => !/unknown message ID.*CANCELLED/s.test(e));
    assert.deepEqual(unexpected, []);
  });
});

function parseRPCBodySafe(r) {
  try {
    return parseRPCBody(r);
  } catch {
    return undefined;
  }
}

// ---- describe_schema pagination ------------------------------------------

describe("describe_schema pagination (a 60-table datasource)", () => {
  let srv;
  let client;
  let storage;

  before(async () => {
    if (!WIDE_CONFIG) return;
    storage = mkdtempSync(join(tmpdir(), "nl2sql-wide-"));
    srv = await startHTTPServer({
      bin: BIN,
      config: WIDE_CONFIG,
      port: await freePort(),
      extraArgs: ["--insecure-no-auth"],
      env: { NL2SQL_STORAGE__PATH: storage },
    });
    ({ client } = await connect(srv.url));
  });

  after(async () => {
    await client?.close();
    await srv?.stop();
    dumpStderr(srv, "wide server");
    if (storage) rmSync(storage, { recursive: true, force: true });
  });

  it("pages cut by the token budget follow next_cursor to the end, each table once", { timeout: TEST_TIMEOUT_MS }, async (t) => {
    if (!WIDE_CONFIG) return t.skip("NL2SQL_WIDE_CONFIG is not set");
    const seen = [];
    let cursor;
    let pages = 0;
    do {
      const args = { datasource: "wide", ...(cursor ? { cursor } : {}) };
      const res = await client.callTool({ name: "describe_schema", arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
      assert.notEqual(res.isError, true, textOf(res));
      const sc = res.structuredContent;
      assert.equal(sc.total_tables, 60);
      assert.ok(sc.tables.length >= 1 && sc.tables.length < 60, `page of ${sc.tables.length}`);
      // a token is at least one byte: 4 bytes a token on average leaves a 20k-token page far below 200 kB
      assert.ok(JSON.stringify(res).length < 200000, `page of ${JSON.stringify(res).length} bytes`);
      seen.push(...sc.tables.map((x) => x.name));
      cursor = sc.next_cursor;
      if (cursor) assert.ok(textOf(res).includes(cursor), "the text does not carry the cursor");
      pages++;
      assert.ok(pages <= 30, "pagination does not end");
    } while (cursor);
    assert.ok(pages >= 2, `60 wide tables in ${pages} page(s)`);
    assert.equal(seen.length, 60, "a table was repeated");
    assert.equal(new Set(seen).size, 60, "a table was repeated or skipped");
    const filtered = await client.callTool({ name: "describe_schema", arguments: { datasource: "wide", filter: "t0" } }, undefined, { timeout: CALL_TIMEOUT_MS });
    assert.equal(filtered.structuredContent.total_tables, 10, "filter t0 matches t00..t09");
  });
});

// ---- DNS rebinding, Origin, authentication ----------------------------------

describe("HTTP refusals without authentication configured (--insecure-no-auth)", () => {
  let srv;
  before(async () => {
    srv = await startHTTPServer({ bin: BIN, config: CONFIG, port: await freePort(), extraArgs: ["--insecure-no-auth"] });
  });
  after(async () => {
    await srv?.stop();
  });

  const post = (headers) => rawRequest(srv.url.href, { headers: rpcHeaders(headers), body: JSON.stringify(INIT) });

  it("Origin: http://attacker.example -> 403 without CORS headers", async () => {
    const r = await post({ Origin: "http://attacker.example" });
    assert.equal(r.status, 403, r.body);
    assert.deepEqual(corsHeaders(r.headers), [], "CORS headers on a refusal");
    assert.ok(!/jsonrpc/.test(r.body), "a refused request reached MCP");
  });

  it("preflight OPTIONS from http://attacker.example -> 403 without CORS headers", async () => {
    const r = await rawRequest(srv.url.href, {
      method: "OPTIONS",
      headers: { Origin: "http://attacker.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" },
    });
    assert.equal(r.status, 403, r.body);
    assert.deepEqual(corsHeaders(r.headers), []);
  });

  it("Host: attacker.example (DNS rebinding) -> 403 without CORS headers", async () => {
    const r = await post({ Host: "attacker.example" });
    assert.equal(r.status, 403, r.body);
    assert.deepEqual(corsHeaders(r.headers), []);
  });

  it("Host: attacker.example with a loopback Origin -> 403", async () => {
    const r = await post({ Host: `attacker.example:${srv.port}`, Origin: `http://127.0.0.1:${srv.port}` });
    assert.equal(r.status, 403, r.body);
  });

  it("loopback Host and Origin are served", async () => {
    const r = await post({ Host: `localhost:${srv.port}`, Origin: `http://localhost:${srv.port}` });
    assert.equal(r.status, 200, r.body);
    assert.equal(parseRPCBody(r).result.serverInfo.name, "nl2sql");
  });

  it("/healthz answers without authentication", async () => {
    const r = await rawRequest(srv.base + "/healthz", { method: "GET" });
    assert.equal(r.status, 200);
    assert.equal(r.body.trim(), "ok");
  });
});

// Authentication needs users with tokens_sha256 in the config. The test
// writes such a config (the Chinook example with absolute paths) and starts
// the server without --insecure-no-auth; a server that does not start is a
// failure of every case.
describe("HTTP bearer authentication (users with tokens_sha256)", () => {
  const TOKEN = "e2e-token-" + createHash("sha256").update(String(process.pid)).digest("hex").slice(0, 16);
  const LIMITED = TOKEN + "-limited";
  const sha = (s) => createHash("sha256").update(s).digest("hex");
  let srv;
  let dir;

  before(async () => {
    const ex = dirname(CONFIG);
    dir = mkdtempSync(join(tmpdir(), "nl2sql-auth-"));
    // JSON is YAML: the Chinook example's settings, absolute paths, plus
    // roles and users. e2e reads everything; limited only Artist and Album.
    const cfg = {
      storage: { path: join(dir, "storage") },
      datasources: [
        {
          id: "chinook",
          engine: "sqlite",
          path: join(ex, "chinook.sqlite"),
          description: "Chinook digital music store (e2e auth copy)",
          row_limit: 1000,
        },
      ],
      llm: { default: { provider: "replay", recordings: join(ex, "recordings") } },
      roles: {
        everything: { allow: ["chinook"] },
        artists: { allow: ["chinook.main.Artist", "chinook.main.Album"] },
      },
      users: [
        { name: "e2e", roles: ["everything"], tokens_sha256: [sha(TOKEN)] },
        { name: "limited", roles: ["artists"], tokens_sha256: [sha(LIMITED)] },
      ],
    };
    const path = join(dir, "nl2sql.yaml");
    writeFileSync(path, JSON.stringify(cfg, null, 2));
    // A server that fails to start fails every case below: the guarantee is
    // that the binary authenticates HTTP from users: in the config.
    srv = await startHTTPServer({ bin: BIN, config: path, port: await freePort(), env: { NL2SQL_STORAGE__PATH: join(dir, "storage") } });
  });

  after(async () => {
    await srv?.stop();
    dumpStderr(srv, "auth server");
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const post = (headers, body = INIT) => rawRequest(srv.url.href, { headers: rpcHeaders(headers), body: JSON.stringify(body) });

  function assert401(r, label) {
    assert.equal(r.status, 401, `${label}: ${r.status} ${r.body.slice(0, 300)}`);
    assert.match(String(r.headers["www-authenticate"] ?? ""), /^Bearer /i, `${label}: WWW-Authenticate`);
    assert.deepEqual(corsHeaders(r.headers), [], `${label}: CORS headers on a refusal`);
    assert.ok(!/jsonrpc/.test(r.body), `${label}: the refusal carries JSON-RPC`);
  }

  it("no Authorization header -> 401 with WWW-Authenticate: Bearer", async (t) => {
    assert401(await post({}), "no token");
  });

  it("a wrong token, an empty one, and a non-Bearer scheme -> 401", async (t) => {
    assert401(await post({ Authorization: "Bearer wrong-" + TOKEN }), "wrong token");
    assert401(await post({ Authorization: "Bearer " }), "empty token");
    assert401(await post({ Authorization: "Basic " + Buffer.from("e2e:" + TOKEN).toString("base64") }), "Basic");
    assert401(await post({ Authorization: "Bearer " + sha(TOKEN) }), "the digest itself as token");
  });

  it("a tools/call with a well-formed session id but no token -> 401", async (t) => {
    assert401(
      await post({ "Mcp-Session-Id": "mcp-session-11111111-2222-4333-8444-555555555555", "MCP-Protocol-Version": PROTOCOL }, LIST_DS),
      "session id without token",
    );
  });

  it("the right token -> the SDK client works", { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const { client } = await connect(srv.url, { Authorization: `Bearer ${TOKEN}` });
    try {
      const res = await client.callTool({ name: "list_datasources", arguments: {} }, undefined, { timeout: CALL_TIMEOUT_MS });
      assert.notEqual(res.isError, true, textOf(res));
      const g = GOLD[0];
      const a = await client.callTool({ name: "ask", arguments: { question: g.question } }, undefined, { timeout: CALL_TIMEOUT_MS });
      assert.notEqual(a.isError, true, textOf(a));
      assertSameRows(a.structuredContent.rows, g.rows, g.question);
    } finally {
      await client.close();
    }
  });

  it("a valid token does not lift the Origin and Host checks -> 403", async (t) => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const o = await post({ ...auth, Origin: "http://attacker.example" });
    assert.equal(o.status, 403, o.body);
    assert.deepEqual(corsHeaders(o.headers), []);
    const h = await post({ ...auth, Host: "attacker.example" });
    assert.equal(h.status, 403, h.body);
    assert.deepEqual(corsHeaders(h.headers), []);
  });

  it("a token whose role reads only Artist and Album sees only them; a refusal names no hidden table", { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const { client } = await connect(srv.url, { Authorization: `Bearer ${LIMITED}` });
    try {
      const d = await client.callTool({ name: "describe_schema", arguments: { datasource: "chinook" } }, undefined, { timeout: CALL_TIMEOUT_MS });
      assert.notEqual(d.isError, true, textOf(d));
      assert.deepEqual(d.structuredContent.tables.map((x) => x.name).sort(), ["Album", "Artist"]);
      const hidden = ["Customer", "Employee", "Genre", "Invoice", "InvoiceLine", "MediaType", "Playlist", "PlaylistTrack", "Track"];
      const r = await client.callTool(
        { name: "run_plan", arguments: { datasource: "chinook", plan: PLANS.valid.top_genres.plan } },
        undefined,
        { timeout: CALL_TIMEOUT_MS },
      );
      assert.equal(r.isError, true, `a plan over Genre and Track ran for a role without them: ${JSON.stringify(r.structuredContent)?.slice(0, 300)}`);
      const text = textOf(r);
      // The plan itself names Genre and Track; nothing else hidden may show.
      for (const h of hidden.filter((x) => x !== "Genre" && x !== "Track")) {
        assert.ok(!new RegExp(`\\b${h}\\b`).test(text), `the refusal names hidden table ${h}: ${text}`);
      }
      const ok = await client.callTool(
        { name: "run_plan", arguments: { datasource: "chinook", plan: PLANS.valid.top_artist.plan } },
        undefined,
        { timeout: CALL_TIMEOUT_MS },
      );
      assert.notEqual(ok.isError, true, textOf(ok));
      assertSameRows(ok.structuredContent.rows, PLANS.valid.top_artist.rows, "limited top_artist");
    } finally {
      await client.close();
    }
  });
});

// ---- sessions across a restart ---------------------------------------------

// The server keeps no session state: ids are checked by format only
// (mcp-session-<uuid>), so an id issued before a restart, by another replica,
// or made up, keeps working; a malformed id gets 404 (unknown session), none
// on a non-initialize request 400; DELETE answers 405 with Allow (the
// 2025-11-25 revision lets a server refuse client termination), which the SDK
// treats as "sessions are not ended" (mcp/lifecycle.go says why).
describe("sessions: an id issued before a restart keeps working", () => {
  let srv;
  let port;
  let client;
  let transport;

  before(async () => {
    port = await freePort();
    srv = await startHTTPServer({ bin: BIN, config: CONFIG, port, extraArgs: ["--insecure-no-auth"] });
    ({ client, transport } = await connect(srv.url));
  });

  after(async () => {
    await client?.close().catch(() => {});
    await srv?.stop();
  });

  const rawCall = (sessionId, extra = {}) =>
    rawRequest(srv.url.href, {
      headers: rpcHeaders({ "MCP-Protocol-Version": PROTOCOL, ...(sessionId ? { "Mcp-Session-Id": sessionId } : {}), ...extra }),
      body: JSON.stringify(LIST_DS),
    });

  function assertListed(r, label) {
    assert.equal(r.status, 200, `${label}: ${r.status} ${r.body.slice(0, 300)}`);
    const m = parseRPCBody(r);
    assert.ok(m?.result?.structuredContent?.datasources?.some((d) => d.id === "chinook"), `${label}: ${r.body.slice(0, 300)}`);
  }

  it("restart on the same port: the old Mcp-Session-Id works by raw request and through the same SDK client", { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const res = await client.callTool({ name: "list_datasources", arguments: {} }, undefined, { timeout: CALL_TIMEOUT_MS });
    assert.notEqual(res.isError, true);
    const old = transport.sessionId;
    assert.ok(old, "no session id");

    const exit = await srv.stop("SIGTERM");
    assert.equal(exit.code, 0, `server exit on SIGTERM: ${JSON.stringify(exit)}; stderr ${srv.stderr.slice(-1000)}`);
    srv = await startHTTPServer({ bin: BIN, config: CONFIG, port, extraArgs: ["--insecure-no-auth"] });

    assertListed(await rawCall(old), "old session id after restart");
    const again = await client.callTool({ name: "list_datasources", arguments: {} }, undefined, { timeout: CALL_TIMEOUT_MS });
    assert.notEqual(again.isError, true, textOf(again));
    assert.equal(transport.sessionId, old, "the SDK client changed its session id");
    t.diagnostic(`session ${old} kept working across a restart`);
  });

  it("a made-up well-formed id works; a malformed id gets 404, a missing one 400", async (t) => {
    assertListed(await rawCall("mcp-session-11111111-2222-4333-8444-555555555555"), "made-up id");
    const bad = await rawCall("not-a-session");
    assert.equal(bad.status, 404, `malformed id: ${bad.status} ${bad.body}`);
    const none = await rawCall("");
    assert.equal(none.status, 400, `no id: ${none.status} ${none.body}`);
    t.diagnostic(`malformed id -> ${bad.status}; no id on tools/call -> ${none.status}`);
  });

  it("DELETE -> 405 with Allow: POST, never a 200 that ends nothing; GET and PUT -> 405 with Allow", async (t) => {
    const id = "mcp-session-aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
    const hdr = rpcHeaders({ "Mcp-Session-Id": id, "MCP-Protocol-Version": PROTOCOL });
    for (const method of ["DELETE", "GET", "PUT"]) {
      const r = await rawRequest(srv.url.href, { method, headers: hdr });
      assert.equal(r.status, 405, `${method}: ${r.status} ${r.body}`);
      assert.equal(r.headers["allow"], "POST", `${method}: Allow = ${r.headers["allow"]}`);
    }
    assertListed(await rawCall(id), "the id after a refused DELETE");
  });

  it("a JSON-RPC batch gets a JSON-RPC Invalid Request error, not a parse error", async () => {
    const r = await rawRequest(srv.url.href, {
      headers: rpcHeaders({ "Mcp-Session-Id": transport.sessionId, "MCP-Protocol-Version": PROTOCOL }),
      body: JSON.stringify([LIST_DS, { ...LIST_DS, id: 3 }]),
    });
    assert.equal(r.status, 400, `batch: ${r.status} ${r.body}`);
    const m = JSON.parse(r.body);
    assert.equal(m.jsonrpc, "2.0");
    assert.equal(m.error?.code, -32600, r.body);
    assert.match(m.error.message, /batch/i);
  });

  it("the SDK's terminateSession accepts the 405; a new client connects afterwards", { timeout: TEST_TIMEOUT_MS }, async () => {
    const c = await connect(srv.url);
    const res = await c.client.callTool({ name: "list_datasources", arguments: {} }, undefined, { timeout: CALL_TIMEOUT_MS });
    assert.notEqual(res.isError, true, textOf(res));
    await c.transport.terminateSession();
    assert.equal(c.transport.sessionId, undefined, "the SDK kept its session id");
    assert.deepEqual(c.errors, [], "the SDK reported transport errors");
    await c.client.close();
    const again = await connect(srv.url);
    const res2 = await again.client.callTool({ name: "list_datasources", arguments: {} }, undefined, { timeout: CALL_TIMEOUT_MS });
    assert.notEqual(res2.isError, true, textOf(res2));
    await again.client.close();
  });
});
