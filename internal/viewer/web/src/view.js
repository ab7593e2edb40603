// nl2sql result view: an MCP App (MCP Apps extension, protocol 2026-01-26).
// Inside a host it speaks JSON-RPC over postMessage with its parent:
// ui/initialize (theme and styles from the host context), then
// ui/notifications/initialized; the host sends the tool result in
// ui/notifications/tool-result and context changes in
// ui/notifications/host-context-changed; the view reports its size with
// ui/notifications/size-changed. As a standalone page (nl2sql ask --html)
// the result is embedded in the #nl2sql-result JSON block instead.
//
// Values are shown as the server formats them (_meta["nl2sql/view"].display,
// made by internal/cellfmt, the project's one formatting rule); the chart is
// the one the server chose from the column types and the plan
// (_meta["nl2sql/view"].chart). The view never fetches anything.
(function () {
  "use strict";
  var PROTOCOL = "2026-01-26";
  var META = "nl2sql/view";
  var PAGE = 25;
  var app = document.getElementById("app");
  var state = { result: null, view: null, mode: "chart", sort: null, page: 0, chart: null };
  window.__nl2sql = state;

  // ---- theme -------------------------------------------------------------
  var media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var hostTheme = null;
  function applyTheme() {
    var t = hostTheme || (media && media.matches ? "dark" : "light");
    document.documentElement.dataset.theme = t;
    if (state.result) redrawChart();
  }
  if (media && media.addEventListener) media.addEventListener("change", applyTheme);
  function applyContext(ctx) {
    if (!ctx) return;
    if (ctx.theme === "light" || ctx.theme === "dark") hostTheme = ctx.theme;
    var vars = ctx.styles && ctx.styles.variables;
    if (vars) {
      for (var k in vars) {
        if (k.indexOf("--") === 0 && typeof vars[k] === "string") document.documentElement.style.setProperty(k, vars[k]);
      }
    }
    var dim = ctx.containerDimensions;
    if (dim && typeof dim.maxHeight === "number") app.style.maxHeight = dim.maxHeight + "px";
    applyTheme();
  }

  // ---- helpers -----------------------------------------------------------
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (attrs[k] === null || attrs[k] === undefined) continue;
      if (k === "text") e.textContent = attrs[k];
      else if (k === "class") e.className = attrs[k];
      else if (k.indexOf("on") === 0) e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    (kids || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  var NUMERIC = { integer: 1, decimal: 1, float: 1 };
  function isNumCol(res, i) {
    var t = (res.column_types || [])[i];
    if (NUMERIC[t]) return true;
    return res.rows.length > 0 && res.rows.every(function (r) { return r[i] === null || typeof r[i] === "number"; }) &&
      res.rows.some(function (r) { return typeof r[i] === "number"; });
  }
  // display is the server's text of a cell (numbers, by internal/cellfmt);
  // other values are shown as they are
  function display(r, i) {
    var v = state.result.rows[r][i];
    if (v === null || v === undefined) return null;
    var d = state.view && state.view.display && state.view.display[String(i)];
    if (d && typeof d[r] === "string") return d[r];
    return typeof v === "string" ? v : String(v);
  }
  function compare(a, b) {
    if (a === b) return 0;
    if (a === null || a === undefined) return 1; // NULLs last either way
    if (b === null || b === undefined) return -1;
    if (typeof a === "number" && typeof b === "number") return a - b;
    return String(a).localeCompare(String(b), undefined, { numeric: true });
  }

  // ---- render ------------------------------------------------------------
  function render(result) {
    if (state.chart) { state.chart.destroy(); state.chart = null; }
    app.textContent = "";
    var sc = result && result.structuredContent;
    if (!result || result.isError || !sc || !Array.isArray(sc.rows) || !Array.isArray(sc.columns)) {
      var text = ((result && result.content) || []).filter(function (c) { return c.type === "text"; }).map(function (c) { return c.text; }).join("\n");
      app.appendChild(el("p", { class: result && result.isError ? "notice" : "muted", text: result && result.isError ? "The query failed." : "This result has no rows to show." }));
      if (text) app.appendChild(el("pre", { text: text }));
      state.result = null;
      return size();
    }
    state.result = sc;
    state.view = (result._meta && result._meta[META]) || {};
    state.sort = null;
    state.page = 0;
    state.mode = state.view.chart ? "chart" : "table";
    if (sc.answer) {
      // the summary repeats the first rows: kept to three lines, a click shows it all
      var ans = el("p", { class: "answer clamped", id: "answer", title: "Show the whole summary", text: sc.answer });
      ans.addEventListener("click", function () { ans.classList.remove("clamped"); ans.removeAttribute("title"); size(); });
      app.appendChild(ans);
    }
    app.appendChild(notices(sc));
    app.appendChild(toolbar(sc));
    app.appendChild(el("div", { id: "body" }));
    app.appendChild(details("SQL", sc.sql || "(none)"));
    if (sc.plan) app.appendChild(details("Plan", JSON.stringify(sc.plan, null, 2)));
    // one sub-query is the query itself; several (a question across datasources) are shown each
    (sc.sub_queries && sc.sub_queries.length > 1 ? sc.sub_queries : []).forEach(function (q, i) {
      app.appendChild(details("Sub-query " + (i + 1) + (q.datasource ? " (" + q.datasource + ")" : ""), (q.sql || "") + (q.plan ? "\n\n" + JSON.stringify(q.plan, null, 2) : "")));
    });
    drawBody();
  }

  function notices(sc) {
    var box = el("div");
    var n = sc.rows.length;
    var msg = null;
    if (sc.truncated && sc.truncated_reason === "token_budget") {
      msg = "Truncated: showing " + n + " of the " + (sc.query_row_count || "?") + " rows the query returned (cut to fit the result's token budget).";
    } else if (sc.truncated) {
      msg = "Truncated: the query stopped at the row limit; there may be more than these " + n + " rows.";
    }
    if (msg) box.appendChild(el("div", { class: "notice", role: "status", id: "truncated", text: msg }));
    var ws = (sc.warnings || []).filter(function (w) { return !(sc.truncated_reason === "token_budget" && /^the result holds the first/.test(w)); });
    if (ws.length) {
      box.appendChild(el("div", { class: "notice" }, [el("span", { text: ws.length === 1 ? "Warning" : "Warnings" }),
        el("ul", null, ws.map(function (w) { return el("li", { text: w }); }))]));
    }
    return box;
  }

  function toolbar(sc) {
    var bar = el("div", { class: "toolbar" });
    if (state.view.chart) {
      ["chart", "table"].forEach(function (m) {
        bar.appendChild(el("button", { type: "button", id: "show-" + m, "aria-pressed": String(state.mode === m), text: m === "chart" ? "Chart" : "Table",
          onclick: function () { state.mode = m; bar.querySelectorAll("[aria-pressed]").forEach(function (b) { b.setAttribute("aria-pressed", String(b.id === "show-" + m)); }); drawBody(); } }));
      });
    }
    bar.appendChild(el("span", { class: "meta", text: sc.rows.length + (sc.rows.length === 1 ? " row" : " rows") + " · " + sc.columns.length + (sc.columns.length === 1 ? " column" : " columns") }));
    bar.appendChild(el("span", { class: "spacer" }));
    var status = el("span", { class: "status", id: "copy-status" });
    bar.appendChild(status);
    bar.appendChild(el("button", { type: "button", id: "copy-csv", text: "Copy CSV", onclick: function () { copy(csv(sc), status); } }));
    return bar;
  }

  function details(title, text) {
    return el("details", null, [el("summary", { text: title }), el("pre", { text: text })]);
  }

  function drawBody() {
    var body = document.getElementById("body");
    if (state.chart) { state.chart.destroy(); state.chart = null; }
    body.textContent = "";
    if (state.mode === "chart" && state.view.chart) body.appendChild(chartBox());
    else body.appendChild(table());
    if (state.chart) state.chart.update("none");
    size();
  }

  // ---- table -------------------------------------------------------------
  function order() {
    var idx = state.result.rows.map(function (_, i) { return i; });
    var s = state.sort;
    if (!s) return idx;
    var rows = state.result.rows;
    return idx.sort(function (a, b) {
      var c = compare(rows[a][s.col], rows[b][s.col]);
      if (rows[a][s.col] === null || rows[b][s.col] === null) return c || a - b; // NULLs stay last
      return (s.desc ? -c : c) || a - b;
    });
  }
  function table() {
    var sc = state.result;
    var num = sc.columns.map(function (_, i) { return isNumCol(sc, i); });
    var ord = order();
    var pages = Math.max(1, Math.ceil(ord.length / PAGE));
    state.page = Math.min(state.page, pages - 1);
    var head = el("tr", null, sc.columns.map(function (c, i) {
      var dir = state.sort && state.sort.col === i ? (state.sort.desc ? "▼" : "▲") : "";
      var t = (sc.column_types || [])[i];
      return el("th", { class: num[i] ? "num" : "", scope: "col", title: c + (t ? " (" + t + ")" : ""), "aria-sort": dir ? (state.sort.desc ? "descending" : "ascending") : "none" },
        [el("button", { type: "button", onclick: function () { sortBy(i); } }, [el("span", { text: c }), el("span", { class: "dir", text: dir })])]);
    }));
    var body = el("tbody");
    ord.slice(state.page * PAGE, state.page * PAGE + PAGE).forEach(function (r) {
      body.appendChild(el("tr", null, sc.columns.map(function (_, i) {
        var d = display(r, i);
        if (d === null) return el("td", { class: "null" + (num[i] ? " num" : "") }, [el("span", { text: "NULL" })]);
        if (d === "") return el("td", { class: "empty", title: "empty text" });
        // text with spaces around it is quoted, as the text table quotes
        // it: " 7 " and "7" are different values a page would show alike
        if (!num[i] && typeof d === "string" && d !== d.trim()) return el("td", { class: "spaced", title: "text with spaces around it", text: "\"" + d + "\"" });
        return el("td", { class: num[i] ? "num" : "", title: d.length > 40 ? d : null, text: d });
      })));
    });
    if (!ord.length) body.appendChild(el("tr", null, [el("td", { colspan: String(sc.columns.length || 1), class: "muted", text: "No rows." })]));
    var wrap = el("div", null, [el("div", { class: "table-wrap" }, [el("table", { id: "rows" }, [el("thead", null, [head]), body])])]);
    if (pages > 1) {
      var go = function (p) { return function () { state.page = p; drawBody(); }; };
      wrap.appendChild(el("div", { class: "pager" }, [
        el("button", { type: "button", id: "prev", text: "‹ Prev", onclick: go(state.page - 1) }),
        el("span", { id: "page", text: "Rows " + (state.page * PAGE + 1) + "–" + Math.min(ord.length, state.page * PAGE + PAGE) + " of " + ord.length + " · page " + (state.page + 1) + " of " + pages }),
        el("button", { type: "button", id: "next", text: "Next ›", onclick: go(state.page + 1) }),
      ]));
      wrap.querySelector("#prev").disabled = state.page === 0;
      wrap.querySelector("#next").disabled = state.page >= pages - 1;
    }
    return wrap;
  }
  function sortBy(i) {
    var s = state.sort;
    if (!s || s.col !== i) state.sort = { col: i, desc: false };
    else if (!s.desc) state.sort = { col: i, desc: true };
    else state.sort = null; // third click: the query's own order
    state.page = 0;
    drawBody();
  }

  // ---- chart -------------------------------------------------------------
  var PALETTE = ["#2f6fdb", "#e8743b", "#19a979", "#945ecf", "#ed4a7b", "#13a4b4", "#bf7b00"];
  function css(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }
  function chartBox() {
    var sc = state.result, spec = state.view.chart;
    if (spec.kind === "number") {
      var col = spec.y[0];
      var d = display(0, col);
      return el("div", { class: "big", id: "big-number" }, [el("div", { class: "value", text: d === null ? "NULL" : d }), el("div", { class: "label", text: sc.columns[col] })]);
    }
    var idx = sc.rows.map(function (_, i) { return i; });
    if (spec.kind === "line") {
      // a line reads left to right in time, whatever the rows' order
      idx.sort(function (a, b) { return compare(sc.rows[a][spec.x], sc.rows[b][spec.x]) || a - b; });
    } // bars keep the rows' order: the plan's sort
    var labels = idx.map(function (r) { var d = display(r, spec.x); return d === null ? "NULL" : d; });
    var datasets = spec.y.map(function (c, k) {
      var color = PALETTE[k % PALETTE.length];
      return { label: sc.columns[c], data: idx.map(function (r) { var v = sc.rows[r][c]; return typeof v === "number" ? v : null; }),
        borderColor: color, backgroundColor: spec.kind === "bar" ? color + "cc" : color, pointRadius: idx.length > 60 ? 0 : 3, borderWidth: 2, tension: 0,
        // two measures of a line rarely share a scale (revenue and a count): the second gets its own axis
        yAxisID: spec.kind === "line" && spec.y.length === 2 && k === 1 ? "y1" : "y" };
    });
    var horizontal = spec.kind === "bar";
    var h = horizontal ? Math.min(900, Math.max(140, 26 * idx.length + 50)) : 260;
    var canvas = el("canvas", { id: "chart", role: "img", "aria-label": (spec.kind === "line" ? "Line chart of " : "Bar chart of ") + spec.y.map(function (c) { return sc.columns[c]; }).join(", ") + " by " + sc.columns[spec.x] });
    var box = el("div", { class: "chart-box" }, [canvas]);
    box.style.height = h + "px";
    var fg = css("--fg2") || "#666", grid = css("--border") || "#ddd";
    var fmt = function (r, c) { var d = display(r, c); return d === null ? "NULL" : d; };
    state.chart = new window.Chart(canvas, {
      type: spec.kind,
      data: { labels: labels, datasets: datasets },
      options: {
        indexAxis: horizontal ? "y" : "x",
        animation: false, responsive: true, maintainAspectRatio: false,
        plugins: {
          legend: { display: spec.y.length > 1, labels: { color: fg } },
          tooltip: { callbacks: { label: function (ctx) { return ctx.dataset.label + ": " + fmt(idx[ctx.dataIndex], spec.y[ctx.datasetIndex]); } } },
        },
        scales: scales(spec, horizontal, fg, grid),
      },
    });
    return box;
  }
  function scales(spec, horizontal, fg, grid) {
    var sc = state.result;
    var title = function (c) { return { display: true, text: sc.columns[c], color: fg }; };
    var out = {
      x: { ticks: { color: fg, maxRotation: 0, autoSkip: true }, grid: { color: grid } },
      y: { ticks: { color: fg, autoSkip: !horizontal }, grid: { color: grid }, beginAtZero: spec.kind === "bar" },
    };
    if (horizontal) out.x.title = title(spec.y[0]); // the bars' measure, which has no legend
    else out.y.title = title(spec.y[0]);
    if (spec.kind === "line" && spec.y.length === 2) {
      out.y1 = { position: "right", ticks: { color: fg }, grid: { drawOnChartArea: false }, title: title(spec.y[1]) };
    }
    return out;
  }
  function redrawChart() { if (state.mode === "chart" && state.view && state.view.chart && state.result) drawBody(); }

  // ---- CSV ---------------------------------------------------------------
  // RFC 4180: exact values (not the display text); NULL is an empty field
  function csv(sc) {
    var q = function (v) {
      if (v === null || v === undefined) return "";
      var s = typeof v === "string" ? v : String(v);
      return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
    };
    return [sc.columns].concat(order().map(function (r) { return sc.rows[r]; })).map(function (row) { return row.map(q).join(","); }).join("\r\n") + "\r\n";
  }
  function copy(text, status) {
    var done = function (ok) { status.textContent = ok ? "Copied " + state.result.rows.length + " rows as CSV" : "Copy failed: the host does not allow the clipboard"; };
    var fallback = function () {
      var ta = el("textarea");
      ta.value = text;
      document.body.appendChild(ta);
      ta.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      ta.remove();
      done(ok);
    };
    state.lastCSV = text;
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    else fallback();
  }

  // ---- size --------------------------------------------------------------
  var lastH = -1;
  function size() {
    if (!host) return;
    var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (h === lastH) return;
    lastH = h;
    notify("ui/notifications/size-changed", { width: Math.ceil(document.documentElement.scrollWidth), height: h });
  }

  // ---- MCP Apps protocol ---------------------------------------------------
  var host = null, nextId = 1, pending = {};
  function send(msg) { host.postMessage(msg, "*"); }
  function notify(method, params) { send({ jsonrpc: "2.0", method: method, params: params || {} }); }
  function request(method, params, then) { var id = nextId++; pending[id] = then; send({ jsonrpc: "2.0", id: id, method: method, params: params }); }
  function onMessage(ev) {
    if (ev.source !== host) return; // only the host that embeds us
    var m = ev.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.method === undefined && m.id !== undefined) { // a response
      var then = pending[m.id];
      delete pending[m.id];
      if (then) then(m.error ? null : m.result, m.error);
      return;
    }
    switch (m.method) {
      case "ui/notifications/tool-result": render(m.params); break;
      case "ui/notifications/host-context-changed": applyContext(m.params); break;
      case "ui/notifications/tool-cancelled": render({ content: [{ type: "text", text: "The tool call was cancelled" + (m.params && m.params.reason ? ": " + m.params.reason : ".") }] }); break;
      case "ui/resource-teardown": case "ping": send({ jsonrpc: "2.0", id: m.id, result: {} }); break;
      default:
        if (m.id !== undefined) send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "method not found: " + m.method } });
    }
  }

  var embedded = document.getElementById("nl2sql-result");
  if (embedded) {
    applyTheme();
    render(JSON.parse(embedded.textContent));
  } else if (window.parent && window.parent !== window) {
    host = window.parent;
    window.addEventListener("message", onMessage);
    request("ui/initialize", { appInfo: { name: "nl2sql-result", version: "1" }, appCapabilities: { availableDisplayModes: ["inline"] }, protocolVersion: PROTOCOL }, function (res) {
      if (res) applyContext(res.hostContext);
      else applyTheme();
      notify("ui/notifications/initialized", {});
      if (window.ResizeObserver) new ResizeObserver(size).observe(document.documentElement);
      size();
    });
  } else {
    applyTheme();
  }
})();
