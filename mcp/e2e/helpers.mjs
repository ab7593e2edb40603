// Helpers shared by stdio.test.mjs and http.test.mjs: environment, result
// comparison against the gold rows, tool-error assertions, and (for HTTP)
// spawning the server on a free loopback port and raw HTTP requests.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";

export function mustEnv(name) {
  const v = process.env[name];
  if (!v) {
    throw new Error(`${name} is not set; run this file through mcp/e2e/e2e_test.go (go test ./mcp/e2e) or set NL2SQL_BIN, NL2SQL_CONFIG and NL2SQL_GOLD`);
  }
  return v;
}

// serverEnv is the environment of a spawned server: ours, minus the test's
// own NL2SQL_* variables, which are not configuration keys (the config
// loader would refuse them as unknown keys), plus extra.
export function serverEnv(extra = {}) {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (["NL2SQL_BIN", "NL2SQL_CONFIG", "NL2SQL_GOLD", "NL2SQL_WIDE_CONFIG", "NL2SQL_CATALOG_CONFIG", "NL2SQL_CATALOG_VISIBLE", "NL2SQL_CATALOG_HIDDEN", "NL2SQL_PROGRESS_CONFIG", "NL2SQL_TEST_PG_DSN", "NL2SQL_CHROMIUM", "NL2SQL_SCREENSHOTS", "NL2SQL_PLANS", "NL2SQL_PAGE_DIR"].includes(k)) delete env[k];
  }
  return { ...env, ...extra };
}

// ---- result comparison ---------------------------------------------------

// cellKey canonicalises one value: numbers rounded to 2 decimals, strings,
// booleans and null kept apart by a type tag (so 1 and "1" differ).
export function cellKey(v) {
  if (v === null || v === undefined) return "null";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return `n:${v}`;
    let r = Math.round(v * 100) / 100;
    if (Object.is(r, -0)) r = 0;
    return `n:${r.toFixed(2)}`;
  }
  if (typeof v === "string") return `s:${v}`;
  if (typeof v === "boolean") return `b:${v}`;
  return `j:${JSON.stringify(v)}`;
}

function rowKey(row) {
  return JSON.stringify(row.map(cellKey));
}

function multiset(rows) {
  const m = new Map();
  for (const r of rows) {
    const k = rowKey(r);
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

// assertSameRows compares rows as multisets (order ignored) after rounding
// numbers to 2 decimals; on a difference it names the missing and extra rows.
export function assertSameRows(got, want, label) {
  assert.ok(Array.isArray(got), `${label}: rows is not an array`);
  const g = multiset(got);
  const w = multiset(want);
  const missing = [];
  const extra = [];
  for (const [k, n] of w) {
    const d = n - (g.get(k) ?? 0);
    if (d > 0) missing.push(`${k} x${d}`);
  }
  for (const [k, n] of g) {
    const d = n - (w.get(k) ?? 0);
    if (d > 0) extra.push(`${k} x${d}`);
  }
  if (missing.length || extra.length) {
    assert.fail(
      `${label}: rows differ from the gold SQL's (got ${got.length}, want ${want.length})\n` +
        `  missing (in gold, not returned): ${missing.slice(0, 10).join(", ") || "none"}\n` +
        `  extra (returned, not in gold): ${extra.slice(0, 10).join(", ") || "none"}`,
    );
  }
}

export function textOf(result) {
  return (result.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}

export function assertToolError(result, re, label) {
  const text = textOf(result);
  assert.equal(result.isError, true, `${label}: want isError, got ${JSON.stringify(result).slice(0, 500)}`);
  assert.match(text, re, `${label}: error text ${JSON.stringify(text)} does not match ${re}`);
  return text;
}

// ---- HTTP server processes -----------------------------------------------

// freePort asks the kernel for a free loopback port.
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// startHTTPServer spawns `nl2sql serve --config config --http 127.0.0.1:port
// ...extraArgs` and waits until /healthz answers. It resolves to a handle
// with the process, its pid, the base URL, its stderr so far, and stop().
// If the process exits before it is healthy, it rejects with an error whose
// .stderr holds what the server printed.
export async function startHTTPServer({ bin, config, port, extraArgs = [], env = {}, timeoutMs = 20_000 }) {
  const args = ["serve", "--config", config, "--http", `127.0.0.1:${port}`, ...extraArgs];
  const proc = spawn(bin, args, { env: serverEnv(env), stdio: ["ignore", "ignore", "pipe"] });
  const h = {
    proc,
    pid: proc.pid,
    port,
    base: `http://127.0.0.1:${port}`,
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    stderr: "",
    exit: null,
  };
  proc.stderr.setEncoding("utf8");
  proc.stderr.on("data", (d) => {
    h.stderr += d;
    if (h.stderr.length > 200_000) h.stderr = h.stderr.slice(-100_000);
  });
  h.exited = new Promise((resolve) => proc.on("close", (code, signal) => resolve((h.exit = { code, signal }))));
  let spawnErr = null;
  proc.on("error", (e) => (spawnErr = e));
  h.stop = async (signal = "SIGTERM") => {
    if (h.exit) return h.exit;
    proc.kill(signal);
    let timer;
    const r = await Promise.race([h.exited, new Promise((res) => (timer = setTimeout(() => res(null), 10_000)))]);
    clearTimeout(timer);
    if (r === null) {
      proc.kill("SIGKILL");
      return h.exited;
    }
    return r;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (spawnErr) throw spawnErr;
    if (h.exit) {
      const e = new Error(`nl2sql ${args.join(" ")} exited (${JSON.stringify(h.exit)}) before /healthz answered; stderr: ${h.stderr.slice(-2000)}`);
      e.stderr = h.stderr;
      throw e;
    }
    try {
      const r = await rawRequest(h.base + "/healthz", { method: "GET", timeoutMs: 1000 });
      if (r.status === 200) return h;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await h.stop("SIGKILL");
      throw new Error(`nl2sql ${args.join(" ")}: /healthz did not answer within ${timeoutMs} ms; stderr: ${h.stderr.slice(-2000)}`);
    }
    await sleep(50);
  }
}

// rawRequest sends one HTTP/1.1 request with exactly the given headers
// (node:http lets a test set Host, which fetch does not) and resolves to
// {status, headers, body}.
export function rawRequest(url, { method = "POST", headers = {}, body, timeoutMs = 10_000 } = {}) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers, agent: false, timeout: timeoutMs },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (data += d));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: data }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${url}: no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

// parseRPCBody reads a JSON-RPC response from a plain JSON body or from an
// SSE body (the last `data:` line that parses as JSON with an id).
export function parseRPCBody(res) {
  const ct = String(res.headers["content-type"] ?? "");
  if (ct.includes("text/event-stream")) {
    let last;
    for (const line of res.body.split(/\r?\n/)) {
      if (!line.startsWith("data:")) continue;
      try {
        const m = JSON.parse(line.slice(5).trim());
        if (m && "id" in m) last = m;
      } catch {
        // not JSON
      }
    }
    return last;
  }
  return JSON.parse(res.body);
}

// ---- /proc readings (Linux) ------------------------------------------------

// cpuMs returns the process's user+system CPU time in ms, or null where
// /proc is not available.
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields 14 and 15 of stat (utime, stime) are 12 and 13 after the state field; clock ticks are 100 Hz on Linux
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}
