// Package viewer is the MCP App that shows the results of ask, run_plan and
// run_verified_query in hosts that support the MCP Apps extension
// (io.modelcontextprotocol/ui, protocol 2026-01-26): one self-contained HTML
// page, served as the resource ui://nl2sql/result.html with MIME type
// text/html;profile=mcp-app and linked from each tool's _meta.ui.resourceUri.
// The page shows the rows as a sortable, paged table, a chart when the
// result has an obvious one, the SQL and the plan, and copies the rows as
// CSV. It fetches nothing: its scripts and styles are inline, allowed by
// their hashes in its Content-Security-Policy, and its resource _meta
// declares no domain at all.
//
// The server decides what the page shows, so that the rule lives in Go, once:
//
//   - Display holds the text of every number cell as internal/cellfmt
//     writes it (the text table's and the summary's rule), so the page shows
//     5.308 where the summary says 5.308, and a 64-bit integer beyond
//     JavaScript's 2^53 digit for digit; other cells are shown as they are.
//   - ChartFor picks the chart from the column types and the plan: a
//     period or date column and one or more measures give a line; one
//     category and one measure give bars, in the rows' order (the plan's
//     sort); one row holding one number gives a big number; anything else
//     gives no chart.
//
// Both go in the tool result's _meta under "nl2sql/view", only for clients
// that advertise the extension: other hosts get today's text and structured
// content, byte for byte. For example, a result with columns month (text,
// PERIOD_LABEL('month', …)) and revenue (SUM(…)) over 12 rows carries
//
//	{"nl2sql/view": {"chart": {"kind": "line", "x": 0, "y": [1]},
//	                 "display": {"1": ["35.64", "37.62", …]}}}
//
// Standalone writes the same page with one result embedded, for
// nl2sql ask --html FILE.
//
// The page is built from web/ (Chart.js pinned by web/package-lock.json)
// into view.html, which is committed and embedded; go generate ./internal/viewer
// rebuilds it.
package viewer
