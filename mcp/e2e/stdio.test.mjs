// End-to-end tests of `nl2sql serve` over stdio, driven by the official MCP
// TypeScript SDK client (and, for the raw-protocol case, by plain pipes).
//
// Run by mcp/e2e/e2e_test.go (`go test ./...`), which builds the binary,
// computes the gold rows and sets:
//   NL2SQL_BIN     the nl2sql binary
//   NL2SQL_CONFIG  absolute path of examples/chinook/nl2sql.yaml
//   NL2SQL_GOLD    JSON file [{question, columns, rows}] (rows of the gold SQL)
// By hand: node --test mcp/e2e/stdio.test.mjs with those three set.

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

import { Client } from "./client.mjs";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { assertSameRows, assertToolError, mustEnv, serverEnv, textOf } from "./helpers.mjs";

const BIN = mustEnv("NL2SQL_BIN");
const CONFIG = mustEnv("NL2SQL_CONFIG");
const GOLD = JSON.parse(readFileSync(mustEnv("NL2SQL_GOLD"), "utf8"));

const CALL_TIMEOUT_MS = 20_000; // every call answers in milliseconds; a hang should fail fast
const TEST_TIMEOUT_MS = 45_000;

// ---- SDK client tests ----------------------------------------------------

describe("nl2sql serve (stdio, TypeScript SDK client)", () => {
  /** @type {Client} */
  let client;
  /** @type {StdioClientTransport} */
  let transport;
  const errors = []; // every error the SDK reported: non-JSON-RPC stdout lines, transport failures
  let stderr = "";
  let closing = false;
  let closedEarly = false;
  let errorsChecked = 0;

  before(async () => {
    transport = new StdioClientTransport({
      command: BIN,
      args: ["serve", "--config", CONFIG],
      env: serverEnv(),
      stderr: "pipe",
    });
    transport.stderr.on("data", (chunk) => {
      stderr += chunk.toString("utf8");
    });
    // Set before connect: Protocol.connect chains its own handler after ours.
    transport.onerror = (err) => errors.push(`transport: ${err?.message ?? err}`);
    client = new Client({ name: "nl2sql-e2e", version: "0.0.0" }, { capabilities: {} });
    client.onerror = (err) => errors.push(`client: ${err?.message ?? err}`);
    client.onclose = () => {
      if (!closing) closedEarly = true;
    };
    await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
  });

  after(async () => {
    closing = true;
    await client?.close();
    if (stderr.trim() !== "") {
      const tail = stderr.length > 4000 ? "…" + stderr.slice(-4000) : stderr;
      console.log(`# server stderr (${stderr.length} bytes):\n${tail.replace(/^/gm, "#   ")}`);
    }
    // Errors that arrived after the last test (e.g. a stray line at exit).
    if (errors.length > errorsChecked) {
      throw new Error(`the SDK reported error(s) after the last test: ${JSON.stringify(errors.slice(errorsChecked))}`);
    }
  });

  const call = (args, name = "ask") =>
    client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });

  it("reports server info after initialize", () => {
    const info = client.getServerVersion();
    assert.equal(info?.name, "nl2sql");
    assert.ok(client.getServerCapabilities()?.tools, "server does not declare the tools capability");
  });

  it("lists ask and list_datasources, read-only, with output schemas", { timeout: TEST_TIMEOUT_MS }, async () => {
    const { tools } = await client.listTools(undefined, { timeout: CALL_TIMEOUT_MS });
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ["ask", "list_datasources"]) {
      const t = byName.get(name);
      assert.ok(t, `tool ${name} missing from tools/list (got ${[...byName.keys()].join(", ")})`);
      assert.equal(t.inputSchema?.type, "object", `${name}: inputSchema.type`);
      assert.equal(t.outputSchema?.type, "object", `${name}: outputSchema missing or not an object`);
      assert.equal(t.annotations?.readOnlyHint, true, `${name}: annotations.readOnlyHint`);
      assert.ok(t.description, `${name}: no description`);
    }
  });

  it("list_datasources returns chinook, ready, 11 tables", { timeout: TEST_TIMEOUT_MS }, async () => {
    const res = await call({}, "list_datasources");
    assert.notEqual(res.isError, true, `list_datasources failed: ${textOf(res)}`);
    const list = res.structuredContent?.datasources;
    assert.ok(Array.isArray(list), `no structuredContent.datasources: ${JSON.stringify(res)}`);
    const ds = list.find((d) => d.id === "chinook");
    assert.ok(ds, `no chinook datasource in ${JSON.stringify(list)}`);
    assert.equal(ds.status, "ready", `chinook status (error: ${ds.error ?? ""})`);
    assert.equal(ds.tables, 11, "chinook table count");
    assert.equal(ds.engine, "sqlite");
    assert.ok(textOf(res).includes("chinook"), "text content does not name chinook");
  });

  it("has gold rows for the 12 bundled questions", () => {
    assert.equal(GOLD.length, 12, "NL2SQL_GOLD entries");
  });

  for (const g of GOLD) {
    it(`ask: ${g.question}`, { timeout: TEST_TIMEOUT_MS }, async () => {
      const res = await call({ question: g.question });
      assert.notEqual(res.isError, true, `ask failed: ${textOf(res)}`);
      const sc = res.structuredContent;
      assert.ok(sc && typeof sc === "object", "no structuredContent");
      for (const k of ["columns", "rows", "sql", "plan"]) assert.ok(k in sc, `structuredContent lacks ${k}`);
      assert.ok(Array.isArray(sc.columns) && sc.columns.length > 0, "columns empty");
      assert.equal(typeof sc.sql, "string");
      assert.ok(sc.sql.length > 0, "sql empty");
      assert.ok(sc.plan && typeof sc.plan === "object", "plan is not an object");
      assert.ok(textOf(res).trim().length > 0, "no text content beside structuredContent");
      assert.equal(sc.truncated, false, "result truncated");
      if ("row_count" in sc) assert.equal(sc.row_count, sc.rows.length, "row_count != rows.length");
      assert.equal(sc.columns.length, g.columns.length,
        `column count: got ${JSON.stringify(sc.columns)}, gold ${JSON.stringify(g.columns)}`);
      for (const r of sc.rows) assert.equal(r.length, sc.columns.length, `row width: ${JSON.stringify(r)}`);
      assertSameRows(sc.rows, g.rows, g.question);
    });
  }

  it("empty question -> isError INVALID_REQUEST", { timeout: TEST_TIMEOUT_MS }, async () => {
    assertToolError(await call({ question: "" }), /INVALID_REQUEST/, "empty question");
  });

  it("blank question -> isError INVALID_REQUEST", { timeout: TEST_TIMEOUT_MS }, async () => {
    assertToolError(await call({ question: "   \n\t" }), /INVALID_REQUEST/, "blank question");
  });

  it("question without a recording -> plan_it_yourself result (not isError) with the schema context", { timeout: TEST_TIMEOUT_MS }, async () => {
    const res = await call({ question: "What is the meaning of life?" });
    assert.notEqual(res.isError, true, `unrecorded question failed: ${textOf(res)}`);
    const sc = res.structuredContent;
    assert.equal(sc?.kind, "plan_it_yourself", `kind: ${JSON.stringify(sc).slice(0, 300)}`);
    assert.equal(sc.reason, "no_recording");
    assert.equal(sc.datasource, "chinook");
    assert.match(sc.schema_context, /^Album \(347 rows\)/m);
    assert.equal(sc.run_plan.tool, "run_plan");
    assert.match(textOf(res).split("\n")[0], /run_plan/, "the first text line does not say what to do next");
  });

  it("unknown datasource -> isError DATASOURCE_NOT_FOUND", { timeout: TEST_TIMEOUT_MS }, async () => {
    assertToolError(
      await call({ question: GOLD[0].question, datasource: "nope" }),
      /DATASOURCE_NOT_FOUND/,
      "datasource nope",
    );
  });

  it("identity arguments are ignored; other unknown arguments are refused by name", { timeout: TEST_TIMEOUT_MS }, async () => {
    const ignored = await call({ question: GOLD[0].question, role: "admin", user: "root" });
    assert.notEqual(ignored.isError, true, `role/user arguments were not ignored: ${textOf(ignored)}`);
    assertSameRows(ignored.structuredContent?.rows, GOLD[0].rows, GOLD[0].question);
    const res = await call({ question: GOLD[0].question, datasrc: "chinook" });
    assert.equal(res.isError, true, `extra field "datasrc" accepted: ${JSON.stringify(res).slice(0, 500)}`);
    assert.match(textOf(res), /INVALID_REQUEST/);
    assert.match(textOf(res), /datasrc/, "error does not name the bad field");
    const ok = await call({ question: GOLD[0].question });
    assert.notEqual(ok.isError, true, `valid call after the refused one failed: ${textOf(ok)}`);
    assertSameRows(ok.structuredContent?.rows, GOLD[0].rows, GOLD[0].question);
  });

  it("wrong argument type -> isError, not a protocol error", { timeout: TEST_TIMEOUT_MS }, async () => {
    const res = await call({ question: 42 });
    assert.equal(res.isError, true, `question: 42 accepted: ${JSON.stringify(res).slice(0, 500)}`);
  });

  // The SDK writes "id" last, after the arguments: a refusal of a request
  // over the server's line limit (1 MiB) must still carry that id, or the
  // call hangs until its timeout instead of failing at once.
  it("a request over the line limit fails at once with an error, not a timeout", { timeout: TEST_TIMEOUT_MS }, async () => {
    const started = Date.now();
    await assert.rejects(call({ question: "x".repeat(2 << 20) }), (err) => {
      assert.equal(err.code, -32600, `not the server's refusal: ${err}`);
      assert.match(err.message, /longer than the limit of \d+ bytes/);
      return true;
    });
    const took = Date.now() - started;
    assert.ok(took < 5_000, `the refusal took ${took} ms`);
  });

  it("server still answers after the error cases", { timeout: TEST_TIMEOUT_MS }, async () => {
    await client.ping({ timeout: CALL_TIMEOUT_MS });
    const res = await call({}, "list_datasources");
    assert.notEqual(res.isError, true);
  });

  // Last: nothing above may have produced a stdout line the SDK could not
  // parse as JSON-RPC (the SDK reports those through onerror and carries on).
  it("stdout carried only JSON-RPC messages (no SDK/transport errors)", () => {
    assert.equal(closedEarly, false, "the connection closed before the tests ended (server exited?)");
    errorsChecked = errors.length;
    assert.deepEqual(errors, [], `the SDK reported ${errors.length} error(s) (a line on stdout that is not JSON-RPC?)`);
  });
});

// ---- raw protocol (no SDK) ----------------------------------------------

describe("nl2sql serve (stdio, raw JSON-RPC lines)", () => {
  it("answers a valid initialize after a line that is not JSON; stdout is only JSON-RPC", { timeout: TEST_TIMEOUT_MS }, async () => {
    const child = spawn(BIN, ["serve", "--config", CONFIG], {
      env: serverEnv(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    const lines = [];
    let waiter = null;
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (d) => (err += d));
    child.stdout.on("data", (d) => {
      out += d;
      let i;
      while ((i = out.indexOf("\n")) >= 0) {
        lines.push(out.slice(0, i).replace(/\r$/, ""));
        out = out.slice(i + 1);
      }
      waiter?.();
    });
    const exited = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
    const spawnErr = new Promise((_, reject) => child.on("error", reject));

    const parsed = () =>
      lines.map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return undefined;
        }
      });
    const waitFor = (pred, ms) =>
      Promise.race([
        spawnErr,
        new Promise((resolve, reject) => {
          const t = setTimeout(() => {
            waiter = null;
            reject(new Error(`timed out after ${ms} ms; stdout lines: ${JSON.stringify(lines)}; stderr: ${err.slice(-2000)}`));
          }, ms);
          const check = () => {
            if (pred()) {
              clearTimeout(t);
              waiter = null;
              resolve();
            }
          };
          waiter = check;
          check();
        }),
      ]);

    try {
      child.stdin.write("this is not json\n");
      child.stdin.write("{\"jsonrpc\":\"2.0\",\"id\":\n"); // truncated JSON
      child.stdin.write(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "raw-e2e", version: "0.0.0" },
          },
        }) + "\n",
      );
      await waitFor(() => parsed().some((m) => m && m.id === 1), CALL_TIMEOUT_MS);
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }) + "\n");
      await waitFor(() => parsed().some((m) => m && m.id === 2), CALL_TIMEOUT_MS);
    } finally {
      child.stdin.end();
    }
    const status = await Promise.race([
      exited,
      new Promise((resolve) => setTimeout(() => resolve(null), 5_000)),
    ]);
    if (status === null) {
      child.kill("SIGKILL");
      await exited;
    }
    if (out !== "") lines.push(out); // a final line without newline

    const msgs = parsed();
    lines.forEach((l, i) => {
      assert.ok(msgs[i] !== undefined, `stdout line ${i + 1} is not JSON: ${JSON.stringify(l.slice(0, 300))}`);
      assert.equal(msgs[i].jsonrpc, "2.0", `stdout line ${i + 1} is not JSON-RPC 2.0: ${l.slice(0, 300)}`);
    });
    const init = msgs.find((m) => m.id === 1);
    assert.ok(init.result, `initialize answered with an error: ${JSON.stringify(init)}`);
    assert.equal(init.result.serverInfo?.name, "nl2sql");
    assert.ok(init.result.protocolVersion, "initialize result has no protocolVersion");
    const list = msgs.find((m) => m.id === 2);
    assert.ok(Array.isArray(list.result?.tools), `tools/list: ${JSON.stringify(list)}`);
    // Parse errors, if answered, must be JSON-RPC errors with id null.
    for (const m of msgs) {
      if (m.id === 1 || m.id === 2) continue;
      if ("id" in m && m.id !== null) assert.fail(`unexpected response ${JSON.stringify(m)}`);
      if (m.error) assert.equal(m.error.code, -32700, `error for a bad line: ${JSON.stringify(m)}`);
    }
    assert.equal(status === null ? "hung" : "exited", "exited", "server did not exit within 5 s of stdin closing");
  });
});
