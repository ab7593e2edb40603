// End-to-end OAuth 2.1 with the official MCP TypeScript SDK: the SDK's
// ClientCredentialsProvider discovers everything from the server's 401
// (WWW-Authenticate resource_metadata -> protected resource metadata ->
// authorization server metadata -> token endpoint with resource=) and calls
// tools with the token it got. The identity provider's claims decide the
// caller: reps see only their customers, an analyst sees all.
//
// Run by mcp/e2e/oauth_test.go (TestOAuthWithTypeScriptSDK), which starts
// the authorization server and sets E2E_OAUTH_CONFIG, E2E_OAUTH_PORT,
// E2E_OAUTH_ISSUER and E2E_OAUTH_CLIENTS ({name: secret}, client id
// <name>-app).

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";

import { Client } from "./client.mjs";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";

import { mustEnv, rawRequest, startHTTPServer } from "./helpers.mjs";

const BIN = mustEnv("NL2SQL_BIN");
const CONFIG = mustEnv("E2E_OAUTH_CONFIG");
const PORT = Number(mustEnv("E2E_OAUTH_PORT"));
const ISSUER = mustEnv("E2E_OAUTH_ISSUER");
const CLIENTS = JSON.parse(mustEnv("E2E_OAUTH_CLIENTS"));
const TIMEOUT = { timeout: 20_000 };

// connectAs connects with the SDK's OAuth support and records every HTTP
// exchange (method, URL, status, WWW-Authenticate) the SDK makes.
async function connectAs(srv, name, scope = "nl2sql:read") {
  const log = [];
  const recordingFetch = async (url, init = {}) => {
    const res = await fetch(url, init);
    const method = init.method ?? "GET";
    log.push(`${method} ${url} -> ${res.status}${res.headers.get("www-authenticate") ? " WWW-Authenticate: " + res.headers.get("www-authenticate") : ""}`);
    return res;
  };
  const authProvider = new ClientCredentialsProvider({ clientId: `${name}-app`, clientSecret: CLIENTS[name], scope, expectedIssuer: ISSUER });
  const transport = new StreamableHTTPClientTransport(srv.url, { authProvider, fetch: recordingFetch });
  const client = new Client({ name: `e2e-oauth-${name}`, version: "1.0.0" });
  await client.connect(transport, TIMEOUT);
  return { client, transport, log, authProvider };
}

function sumCol(rows, i) {
  return rows.reduce((n, r) => n + Number(r[i]), 0);
}

const countPlan = { select: [{ expr: { kind: "func", name: "COUNT", args: [] }, alias: "n" }], from: [{ table: "Customer", alias: "c" }] };

describe("OAuth 2.1 through the TypeScript SDK", () => {
  let srv;
  before(async () => {
    srv = await startHTTPServer({ bin: BIN, config: CONFIG, port: PORT });
  });
  after(async () => {
    await srv?.stop();
  });

  it("discovers the authorization server from the 401 and calls with the token", async () => {
    const unauth = await rawRequest(srv.url.href, { headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    assert.equal(unauth.status, 401);
    assert.match(String(unauth.headers["www-authenticate"]), /resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/);

    const { client, log, authProvider } = await connectAs(srv, "jane");
    console.log("exchange the SDK made:\n  " + log.join("\n  "));
    const tokens = authProvider.tokens();
    assert.ok(tokens?.access_token, "the SDK holds an access token");
    const order = ["/mcp -> 401", "/.well-known/oauth-protected-resource/mcp -> 200", "/.well-known/oauth-authorization-server -> 200", "/token -> 200", "/mcp -> 200"];
    let at = 0;
    for (const step of order) {
      const i = log.findIndex((l, j) => j >= at && l.includes(step));
      assert.ok(i >= 0, `step ${step} after ${at} in:\n${log.join("\n")}`);
      at = i + 1;
    }
    const tools = await client.listTools(undefined, TIMEOUT);
    assert.ok(tools.tools.some((t) => t.name === "ask"));
    await client.close();
  });

  it("claims drive the row filters: each rep sees only her customers, the analyst all", async () => {
    const want = { jane: { all: 21, usa: 3, rep: 3 }, margaret: { all: 20, usa: 6, rep: 4 }, ann: { all: 59, usa: 13, rep: null } };
    for (const name of ["jane", "margaret", "ann"]) {
      const { client } = await connectAs(srv, name);
      const ask = await client.callTool({ name: "ask", arguments: { question: "How many customers are there in each country?" } }, undefined, TIMEOUT);
      assert.ok(!ask.isError, `${name} ask: ${JSON.stringify(ask.content)}`);
      assert.equal(sumCol(ask.structuredContent.rows, 1), want[name].all, `${name}: customers through ask`);
      const plan = await client.callTool({ name: "run_plan", arguments: { datasource: "chinook", plan: countPlan } }, undefined, TIMEOUT);
      assert.deepEqual(plan.structuredContent.rows, [[want[name].all]], `${name}: run_plan`);
      const vq = await client.callTool({ name: "run_verified_query", arguments: { id: "customers_in_country", params: { country: "USA" } } }, undefined, TIMEOUT);
      const rows = vq.structuredContent.rows;
      assert.equal(rows.length, want[name].usa, `${name}: USA customers`);
      if (want[name].rep !== null) assert.ok(rows.every((r) => Number(r[3]) === want[name].rep), `${name} sees another rep's customer`);
      console.log(`${name}: ask ${sumCol(ask.structuredContent.rows, 1)} customers (${ask.structuredContent.sub_queries?.[0]?.plan_source}), run_plan ${JSON.stringify(plan.structuredContent.rows)}, USA ${rows.length}`);
      await client.close();
    }
  });

  it("approve_run needs its scope: 403 insufficient_scope without it", async () => {
    const { client } = await connectAs(srv, "jane");
    await assert.rejects(
      client.callTool({ name: "approve_run", arguments: { id: "nope", decision: "approve" } }, undefined, TIMEOUT),
      (e) => /403/.test(String(e?.message ?? e)),
    );
    await client.close().catch(() => {});
    const ann = await connectAs(srv, "ann", "nl2sql:read nl2sql:approve");
    const res = await ann.client.callTool({ name: "approve_run", arguments: { id: "nope", decision: "approve" } }, undefined, TIMEOUT);
    assert.ok(res.isError, "an unknown approval is a tool error, not an HTTP refusal");
    await ann.client.close();
  });
});
