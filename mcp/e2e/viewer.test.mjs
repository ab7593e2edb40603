// The result view in a real browser: headless Chromium (playwright-core,
// no browser download: NL2SQL_CHROMIUM) loads ui://nl2sql/result.html, as
// read from the server, into a sandboxed iframe of a small host page that
// speaks the MCP Apps protocol (ui/initialize, ui/notifications/initialized,
// tool-input, tool-result, host-context-changed, size-changed), and feeds it
// real tool results: run_plan, ask and run_verified_query on Chinook over
// stdio with the official TypeScript SDK client advertising the extension.
//
// Asserted for each: the rows and the chart shown (Chart.js's own instance
// data: type, labels, points or bars), the truncation notice, NULL against
// empty text, sorting and paging, CSV, the theme; and that the page made no
// network request and logged no console error. Screenshots go to
// NL2SQL_SCREENSHOTS (internal/viewer/testdata/screenshots).
//
// Run by mcp/e2e/viewer_test.go (TestViewerInChromium).

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

import { build } from "esbuild";
import { chromium } from "playwright-core";
import { Client } from "./client.mjs";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { mustEnv, serverEnv } from "./helpers.mjs";

const BIN = mustEnv("NL2SQL_BIN");
const CONFIG = mustEnv("NL2SQL_CONFIG");
const CHROMIUM = mustEnv("NL2SQL_CHROMIUM");
const SHOTS = mustEnv("NL2SQL_SCREENSHOTS");
const PLANS = JSON.parse(readFileSync(mustEnv("NL2SQL_PLANS"), "utf8"));
const PAGE_DIR = mustEnv("NL2SQL_PAGE_DIR");
const CHINOOK_DB = join(dirname(CONFIG), "chinook.sqlite");
const URI = "ui://nl2sql/result.html";
const MIME = "text/html;profile=mcp-app";
const OPTS = { timeout: 30_000 };
const WIDTH = 640; // a chat column

async function connect(args) {
  const transport = new StdioClientTransport({ command: BIN, args, env: serverEnv(), stderr: "pipe" });
  transport.stderr.on("data", () => {});
  const client = new Client({ name: "nl2sql-e2e-view-host", version: "0.0.0" },
    { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MIME] } } } });
  await client.connect(transport, OPTS);
  return client;
}

// The host page: one sandboxed iframe (scripts only, an opaque origin, as
// hosts embed views) and the host side of the protocol.
const HOST = `<!doctype html><html><head><style>
  body { margin: 0; padding: 12px; background: #f0f0f0; }
  body.dark { background: #111; }
  iframe { border: 1px solid #999; width: ${WIDTH}px; height: 80px; display: block; }
</style></head><body><iframe id="view" sandbox="allow-scripts"></iframe></body></html>`;

function hostSide({ html, result, args, context }) {
  const f = document.getElementById("view");
  window.__log = [];
  window.__send = (m) => f.contentWindow.postMessage(m, "*");
  window.addEventListener("message", (ev) => {
    if (ev.source !== f.contentWindow) return;
    const m = ev.data;
    window.__log.push(m);
    if (m.method === "ui/initialize") {
      window.__send({ jsonrpc: "2.0", id: m.id, result: {
        protocolVersion: "2026-01-26", hostInfo: { name: "nl2sql-test-host", version: "0.0.0" },
        hostCapabilities: {}, hostContext: context } });
    } else if (m.method === "ui/notifications/initialized") {
      window.__send({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: args } });
      window.__send({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: result });
    } else if (m.method === "ui/notifications/size-changed" && m.params.height) {
      f.style.height = m.params.height + "px";
    }
  });
  f.srcdoc = html;
}

// The official host side: @modelcontextprotocol/ext-apps's AppBridge and
// PostMessageTransport, bundled for the page (window.ExtApps).
async function bridgeBundle() {
  const out = await build({
    stdin: { contents: `export { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";`, resolveDir: import.meta.dirname, loader: "js" },
    bundle: true, format: "iife", globalName: "ExtApps", platform: "browser", write: false, logLevel: "silent",
  });
  return out.outputFiles[0].text;
}

function officialHostSide({ html, result, args, context }) {
  const f = document.getElementById("view");
  window.__log = [];
  const bridge = new window.ExtApps.AppBridge(null, { name: "nl2sql-test-host (AppBridge)", version: "0.0.0" }, {}, { hostContext: context });
  window.__bridge = bridge;
  bridge.onsizechange = ({ height }) => {
    window.__log.push({ method: "ui/notifications/size-changed", params: { height } });
    if (height) f.style.height = height + "px";
  };
  bridge.oninitialized = () => {
    window.__log.push({ method: "ui/notifications/initialized" });
    bridge.sendToolInput({ arguments: args });
    bridge.sendToolResult(result);
  };
  return bridge.connect(new window.ExtApps.PostMessageTransport(f.contentWindow, f.contentWindow)).then(() => { f.srcdoc = html; });
}

describe("the result view in Chromium", { timeout: 240_000 }, () => {
  let browser, plain, configured, html, bridge;
  const results = {};
  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [plain, configured] = await Promise.all([connect(["serve", "--db", CHINOOK_DB]), connect(["serve", "--config", CONFIG])]);
    const { contents } = await plain.readResource({ uri: URI }, OPTS);
    html = contents[0].text;
    for (const name of ["month_revenue", "genre_tracks", "total_revenue", "wide_customers", "all_tracks", "null_vs_empty"]) {
      results[name] = { tool: "run_plan", args: { plan: PLANS[name] } };
      results[name].result = await plain.callTool({ name: "run_plan", arguments: results[name].args }, undefined, OPTS);
      assert.ok(!results[name].result.isError, `${name}: ${JSON.stringify(results[name].result.content)}`);
    }
    const ask = { question: "Which genre has sold the most tracks?" };
    results.ask = { tool: "ask", args: ask, result: await configured.callTool({ name: "ask", arguments: ask }, undefined, OPTS) };
    const vq = { id: "revenue_by_country", params: { year: "2024" } };
    results.verified = { tool: "run_verified_query", args: vq, result: await configured.callTool({ name: "run_verified_query", arguments: vq }, undefined, OPTS) };
    for (const k of ["ask", "verified"]) assert.ok(!results[k].result.isError && results[k].result._meta?.["nl2sql/view"], `${k}: ${JSON.stringify(results[k].result).slice(0, 400)}`);
    bridge = await bridgeBundle();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
  });
  after(async () => {
    await browser?.close();
    await Promise.all([plain?.close(), configured?.close()]);
  });

  // open shows one result in a fresh page; it returns the page, the view's
  // frame and the network requests and console errors seen so far.
  async function open(name, context = { theme: "light", displayMode: "inline", containerDimensions: { maxWidth: WIDTH } }, official = false) {
    const page = await browser.newPage({ viewport: { width: WIDTH + 40, height: 900 } });
    const seen = { requests: [], errors: [] };
    page.on("request", (r) => seen.requests.push(r.url()));
    page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") seen.errors.push(`${m.type()}: ${m.text()}`); });
    page.on("pageerror", (e) => seen.errors.push(`pageerror: ${e.message}`));
    await page.setContent(HOST);
    if (context.theme === "dark") await page.evaluate(() => document.body.classList.add("dark"));
    const { result, args } = results[name];
    if (official) {
      await page.addScriptTag({ content: bridge });
      await page.evaluate(officialHostSide, { html, result, args, context });
    } else {
      await page.evaluate(hostSide, { html, result, args, context });
    }
    const frame = await waitFrame(page);
    await frame.waitForSelector("#body > *", { timeout: 10_000 });
    // the host sized the iframe from the view's size-changed notification
    await page.waitForFunction(() => window.__log.some((m) => m.method === "ui/notifications/size-changed"));
    return { page, frame, seen, result };
  }
  async function waitFrame(page) {
    for (let i = 0; i < 100; i++) {
      const f = page.frames().find((f) => f !== page.mainFrame());
      if (f) return f;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the view's frame never appeared");
  }
  async function shot(page, file) {
    await page.waitForTimeout(100); // the last size-changed applied
    await page.locator("#view").screenshot({ path: join(SHOTS, file) });
  }
  async function done({ page, seen }) {
    const requests = seen.requests.filter((u) => !u.startsWith("about:"));
    assert.deepEqual(requests, [], "the view made no network request");
    assert.deepEqual(seen.errors, [], "no console error or warning");
    await page.close();
  }
  const chartData = (frame) => frame.evaluate(() => {
    const c = window.Chart.getChart(document.getElementById("chart"));
    return c && { type: c.config.type, labels: c.data.labels, datasets: c.data.datasets.map((d, i) => ({ label: d.label, data: d.data, drawn: c.getDatasetMeta(i).data.length })) };
  });

  it("speaks the protocol: ui/initialize with the app's info and protocol version, then initialized, then size-changed", async () => {
    const v = await open("genre_tracks");
    const log = await v.page.evaluate(() => window.__log);
    const init = log[0];
    assert.equal(init.method, "ui/initialize");
    assert.equal(init.params.protocolVersion, "2026-01-26");
    assert.equal(init.params.appInfo.name, "nl2sql-result");
    assert.ok(init.params.appCapabilities && typeof init.id !== "undefined");
    assert.equal(log[1].method, "ui/notifications/initialized");
    const sized = log.filter((m) => m.method === "ui/notifications/size-changed").at(-1);
    const h = await v.frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    assert.equal(sized.params.height, h, "the last size-changed is the view's height");
    await done(v);
  });

  it("month revenue: a line of 12 points per measure, in month order", async () => {
    const v = await open("month_revenue");
    const rows = v.result.structuredContent.rows;
    const c = await chartData(v.frame);
    assert.equal(c.type, "line");
    assert.deepEqual(c.labels, rows.map((r) => r[0]).sort());
    assert.equal(c.labels.length, 12);
    assert.equal(c.labels[0], "2021-01");
    assert.deepEqual(c.datasets.map((d) => d.label), ["revenue", "invoices"]);
    for (const d of c.datasets) assert.equal(d.drawn, 12);
    assert.deepEqual(c.datasets[0].data, rows.map((r) => r[1]));
    await shot(v.page, "month-line.png");
    await done(v);
  });

  it("genre tracks: 10 bars in the plan's order (most tracks first), with a chart/table toggle and CSV", async () => {
    const v = await open("genre_tracks");
    const rows = v.result.structuredContent.rows;
    const c = await chartData(v.frame);
    assert.equal(c.type, "bar");
    assert.equal(c.datasets.length, 1);
    assert.equal(c.datasets[0].drawn, 10);
    assert.deepEqual(c.labels, rows.map((r) => r[0]));
    assert.equal(c.labels[0], "Rock");
    assert.deepEqual(c.datasets[0].data, rows.map((r) => r[1]));
    await shot(v.page, "genre-bars.png");
    await v.frame.click("#show-table");
    assert.equal(await v.frame.locator("#chart").count(), 0);
    assert.deepEqual(await v.frame.locator("#rows tbody tr td:first-child").allTextContents(), rows.map((r) => r[0]));
    await v.frame.click("#show-chart");
    assert.equal((await chartData(v.frame)).datasets[0].drawn, 10);
    await v.frame.click("#copy-csv");
    const csv = await v.frame.evaluate(() => window.__nl2sql.lastCSV);
    assert.equal(csv, ["genre,tracks", ...rows.map((r) => `${r[0]},${r[1]}`)].join("\r\n") + "\r\n");
    assert.match(await v.frame.textContent("#copy-status"), /Copied 10 rows|Copy failed/);
    await done(v);
  });

  it("one row, one number: a big number, formatted as the text table formats it", async () => {
    const v = await open("total_revenue");
    // SUM of NUMERIC(10,2) totals: the column's scale, as PostgreSQL and DuckDB show it
    assert.equal(await v.frame.textContent("#big-number .value"), v.result._meta["nl2sql/view"].display["0"][0]);
    assert.equal(await v.frame.textContent("#big-number .value"), "2328.60");
    assert.equal(await v.frame.textContent("#big-number .label"), "total_revenue");
    await shot(v.page, "single-number.png");
    await done(v);
  });

  it("a wide table: no chart, 25 rows a page, numbers right-aligned, NULL marked, sortable", async () => {
    const v = await open("wide_customers");
    assert.equal(await v.frame.locator("#chart").count(), 0);
    assert.equal(await v.frame.locator("#show-chart").count(), 0, "no toggle without a chart");
    assert.equal(await v.frame.locator("#rows thead th").count(), 13);
    assert.equal(await v.frame.locator("#rows tbody tr").count(), 25);
    assert.match(await v.frame.textContent("#page"), /Rows 1–25 of 59 · page 1 of 3/);
    const align = await v.frame.evaluate(() => [...document.querySelectorAll("#rows tbody tr:first-child td")].map((td) => getComputedStyle(td).textAlign));
    assert.equal(align[0], "right", "CustomerId");
    assert.equal(align[1], "left", "FirstName");
    assert.ok(await v.frame.locator("#rows td.null").count() > 0, "NULL cells are marked");
    await shot(v.page, "wide-table.png");
    const first = () => v.frame.textContent("#rows tbody tr:first-child td:first-child");
    await v.frame.click("#rows thead th:first-child button");
    assert.equal(await first(), "1");
    await v.frame.click("#rows thead th:first-child button");
    assert.equal(await first(), "59", "descending");
    await v.frame.click("#next");
    assert.match(await v.frame.textContent("#page"), /Rows 26–50 of 59/);
    assert.equal(await first(), "34");
    await done(v);
  });

  it("NULL is visibly different from empty text, and text with spaces around it from text without", async () => {
    const v = await open("null_vs_empty");
    const cells = await v.frame.evaluate(() => [...document.querySelectorAll("#rows tbody tr:nth-child(2) td")].map((td) => ({
      cls: td.className, text: td.textContent, after: getComputedStyle(td, "::after").content, style: getComputedStyle(td.querySelector("span") || td).fontStyle,
      space: getComputedStyle(td).whiteSpace })));
    assert.equal(cells[0].text, "Leonie");
    assert.equal(cells[1].cls, "null");
    assert.equal(cells[1].text, "NULL");
    assert.equal(cells[1].style, "italic");
    assert.equal(cells[2].cls, "empty");
    assert.equal(cells[2].text, "");
    assert.equal(cells[2].after, '"empty"');
    // text with spaces around it is quoted, its spaces kept: " 7 " is not 7
    assert.equal(cells[3].cls, "spaced");
    assert.equal(cells[3].text, '" 7 "');
    assert.equal(cells[3].space, "pre");
    await done(v);
  });

  it("a truncated result says so", async () => {
    const v = await open("all_tracks");
    const sc = v.result.structuredContent;
    assert.equal(sc.truncated, true);
    const note = await v.frame.textContent("#truncated");
    if (sc.truncated_reason === "token_budget") {
      assert.ok(note.includes(`showing ${sc.rows.length} of the ${sc.query_row_count} rows`), note);
    } else {
      assert.match(note, /row limit/);
    }
    assert.match(await v.frame.textContent("#page"), new RegExp(`of ${sc.rows.length} · page 1 of ${Math.ceil(sc.rows.length / 25)}`));
    await shot(v.page, "truncated.png");
    await done(v);
  });

  it("dark mode from the host context, and a theme change from host-context-changed", async () => {
    const v = await open("genre_tracks", { theme: "dark", containerDimensions: { maxWidth: WIDTH } });
    const bg = () => v.frame.evaluate(() => [document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor]);
    assert.deepEqual(await bg(), ["dark", "rgb(30, 31, 34)"]);
    assert.equal((await chartData(v.frame)).datasets[0].drawn, 10);
    await shot(v.page, "dark-genre-bars.png");
    await v.page.evaluate(() => window.__send({ jsonrpc: "2.0", method: "ui/notifications/host-context-changed", params: { theme: "light" } }));
    await v.frame.waitForFunction(() => document.documentElement.dataset.theme === "light");
    assert.deepEqual(await bg(), ["light", "rgb(255, 255, 255)"]);
    await v.frame.click("#show-table");
    await shot(v.page, "light-genre-table.png");
    await done(v);
  });

  it("works with the official host side (ext-apps AppBridge): initialize, tool result, size, a theme change", async () => {
    const v = await open("month_revenue", { theme: "dark", displayMode: "inline", containerDimensions: { maxWidth: WIDTH } }, true);
    const c = await chartData(v.frame);
    assert.equal(c.type, "line");
    assert.equal(c.labels.length, 12);
    assert.equal(await v.frame.evaluate(() => document.documentElement.dataset.theme), "dark");
    const app = await v.page.evaluate(() => ({ info: window.__bridge.getAppVersion(), caps: window.__bridge.getAppCapabilities() }));
    assert.equal(app.info.name, "nl2sql-result");
    assert.deepEqual(app.caps.availableDisplayModes, ["inline"]);
    const h = await v.frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    assert.equal((await v.page.evaluate(() => window.__log.filter((m) => m.method === "ui/notifications/size-changed").at(-1))).params.height, h);
    await shot(v.page, "dark-month-line-appbridge.png");
    await v.page.evaluate(() => window.__bridge.sendHostContextChange({ theme: "light" }));
    await v.frame.waitForFunction(() => document.documentElement.dataset.theme === "light");
    await done(v);
  });

  it("ask and run_verified_query results show in the same view", async () => {
    const a = await open("ask");
    const ac = await chartData(a.frame);
    const arows = a.result.structuredContent.rows;
    assert.equal(ac.type, "bar");
    assert.deepEqual(ac.labels, arows.map((r) => r[0]));
    await done(a);
    const q = await open("verified");
    const qrows = q.result.structuredContent.rows;
    const qc = await chartData(q.frame);
    assert.equal(q.result.structuredContent.plan, null, "a verified query has no plan");
    assert.equal(qc.type, "bar");
    assert.deepEqual(qc.labels, qrows.map((r) => r[0]), "bars in the query's order");
    assert.equal(qc.datasets[0].drawn, qrows.length);
    await shot(q.page, "verified-revenue-by-country.png");
    await done(q);
  });

  it("nl2sql plan run --html writes the same view as a standalone page with the data inside", async () => {
    const file = join(PAGE_DIR, "genres.html");
    const planFile = join(PAGE_DIR, "genres.json");
    writeFileSync(planFile, JSON.stringify(PLANS.genre_tracks));
    execFileSync(BIN, ["plan", "run", "--db", CHINOOK_DB, "--storage", join(PAGE_DIR, "storage"), "--html", file, planFile], { env: serverEnv(), stdio: "pipe" });
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 700 } });
    const seen = { requests: [], errors: [] };
    page.on("request", (r) => seen.requests.push(r.url()));
    page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") seen.errors.push(m.text()); });
    page.on("pageerror", (e) => seen.errors.push(e.message));
    const url = pathToFileURL(file).href;
    await page.goto(url);
    await page.waitForSelector("#chart");
    const c = await chartData(page.mainFrame());
    assert.equal(c.type, "bar");
    assert.equal(c.datasets[0].drawn, 10);
    assert.equal(c.labels[0], "Rock");
    await page.screenshot({ path: join(SHOTS, "standalone-genre-bars.png"), fullPage: true });
    assert.deepEqual(seen.requests.filter((u) => u !== url), [], "the page loads nothing but itself");
    assert.deepEqual(seen.errors, []);
    await page.close();
  });
});
