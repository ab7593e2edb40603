package engine

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/scope"
)

var semanticDir = filepath.Join(chinookDir, "semantic")

// semanticEngine is the Chinook engine with examples/chinook/semantic's
// semantic file (or file, when set) and recordings.
func semanticEngine(t *testing.T, file string) *Engine { return semanticEngineFor(t, file, nil) }

// semanticEngineFor is semanticEngine with an access policy.
func semanticEngineFor(t *testing.T, file string, pol *scope.Policy) *Engine {
	t.Helper()
	rp, err := llm.OpenReplay(filepath.Join(semanticDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if file == "" {
		file = filepath.Join(semanticDir, "semantic.yaml")
	}
	e, err := New(Options{Open: openAdapter,
		Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs, RowLimit: 1000, Semantic: file, SemanticName: "semantic.yaml"}},
		Planner:     rp,
		Today:       func() string { return "2026-01-15" },
		Policy:      pol,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// Expansion happens before access control: a filter over a column the
// caller may not read is refused as if the column did not exist, and a
// metric over readable columns runs.
func TestSemanticExpansionMeetsScope(t *testing.T) {
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	body := "datasources:\n  - {id: chinook, engine: sqlite, path: " + abs + "}\nroles:\n  analyst:\n    allow: [chinook]\n" +
		"    deny: [chinook.main.Invoice.Total]\nusers:\n  - {name: ana, roles: [analyst]}\nlocal_user: ana\n"
	pol := policyFromYAML(t, body)
	e := semanticEngineFor(t, "", pol)
	ctx := context.Background()
	_, err := e.RunPlan(ctx, "chinook", []byte(`{"select":[{"expr":{"kind":"metric","name":"order_count"},"alias":"n"}],
		"from":[{"table":"Invoice","alias":"i"}],"where":{"kind":"filter","name":"big_order"}}`))
	var ee *Error
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), "COLUMN_NOT_FOUND") || strings.Contains(err.Error(), "ACCESS_DENIED") {
		t.Fatalf("filter over a hidden column: %v", err)
	}
	res, err := e.RunPlan(ctx, "chinook", []byte(`{"select":[{"expr":{"kind":"metric","name":"revenue"},"alias":"r"}],
		"from":[{"table":"InvoiceLine","alias":"il"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(res.SubQueries[0].Definitions); string(b) != `[{"kind":"metric","name":"revenue"}]` {
		t.Errorf("run_plan definitions %s", b)
	}
	l, err := e.Semantic(ctx, "chinook")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Filter("big_order"); ok || l.Raw() != nil {
		t.Error("the caller's view of the layer shows the filter over a hidden column, or the raw file")
	}
	// describe_schema's comments name only the definitions the caller sees
	// (a fresh user found a filter over a hidden column named there).
	snap, err := e.VisibleSnapshot(ctx, "chinook")
	if err != nil {
		t.Fatal(err)
	}
	inv, _ := snap.Lookup("main", "Invoice")
	if inv == nil || strings.Contains(inv.Comment, "big order") || !strings.Contains(inv.Comment, "order count") {
		t.Errorf("Invoice comment for ana: %q", inv.Comment)
	}
}

// The recorded plans name metrics and a filter; the engine expands them,
// records them as definitions used, and the SQL is the definitions'.
func TestSemanticRecordedQuestions(t *testing.T) {
	e := semanticEngine(t, "")
	const revenue = `SUM(CASE WHEN abs(("il"."UnitPrice" * "il"."Quantity")) >= 1e28`
	cases := []struct {
		question  string
		used      string
		fragments []string
		gold      string
	}{
		{"What were revenue and units sold for each genre?", `[{"kind":"metric","name":"revenue"},{"kind":"metric","name":"units_sold"}]`,
			[]string{revenue, `SUM("il"."Quantity")`},
			`SELECT g.Name, SUM(il.UnitPrice * il.Quantity) AS r, SUM(il.Quantity) FROM InvoiceLine il JOIN Track t ON t.TrackId = il.TrackId
			 JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.GenreId ORDER BY r DESC, g.Name`},
		{"How many big orders were there in each year?", `[{"kind":"metric","name":"order_count"},{"kind":"filter","name":"big_order"}]`,
			[]string{`COUNT("i"."InvoiceId")`, `WHERE ("i"."Total" >= 10)`},
			`SELECT CAST(strftime('%Y', InvoiceDate) AS INTEGER) AS y, COUNT(*) FROM Invoice WHERE Total >= 10 GROUP BY y ORDER BY y`},
		{"What was the revenue in each market?", `[{"kind":"metric","name":"revenue"}]`,
			[]string{revenue, `"i"."BillingCountry"`},
			`SELECT i.BillingCountry, SUM(il.UnitPrice * il.Quantity) AS r FROM InvoiceLine il JOIN Invoice i ON i.InvoiceId = il.InvoiceId
			 GROUP BY i.BillingCountry ORDER BY r DESC, i.BillingCountry`},
		// a metric over two tables (join_tables): each column qualified by its table's alias in the plan
		{"What was the average revenue per customer in each market?", `[{"kind":"metric","name":"revenue_per_customer"}]`,
			[]string{revenue, `NULLIF(COUNT(DISTINCT "i"."CustomerId"), 0)`},
			`SELECT i.BillingCountry, SUM(il.UnitPrice * il.Quantity) * 1.0 / COUNT(DISTINCT i.CustomerId) AS r FROM InvoiceLine il
			 JOIN Invoice i ON i.InvoiceId = il.InvoiceId GROUP BY i.BillingCountry ORDER BY r DESC, i.BillingCountry`},
	}
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	db, err := sql.Open("sqlite", "file:"+abs+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tc := range cases {
		t.Run(tc.question, func(t *testing.T) {
			res, err := e.Ask(context.Background(), AskRequest{Question: tc.question, Datasource: "chinook"})
			if err != nil {
				t.Fatal(err)
			}
			sq := res.SubQueries[0]
			if b, _ := json.Marshal(sq.Definitions); string(b) != tc.used {
				t.Errorf("definitions %s, want %s", b, tc.used)
			}
			for _, f := range tc.fragments {
				if !strings.Contains(res.SQL, f) {
					t.Errorf("SQL lacks %s:\n%s", f, res.SQL)
				}
			}
			planast.Inspect(res.Plan, func(n planast.Node) bool {
				switch n.(type) {
				case *planast.MetricRef, *planast.FilterRef:
					t.Errorf("the result's plan still holds a %T", n)
				}
				return true
			})
			want := goldRows(t, db, tc.gold)
			if got := fmt.Sprint(normalize(res.Rows)); got != fmt.Sprint(normalize(want)) {
				t.Errorf("rows differ from the gold SQL's\n got %v\nwant %v\nSQL: %s", got, normalize(want), res.SQL)
			}
		})
	}
}

func goldRows(t *testing.T, db *sql.DB, q string) [][]any {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]any
	for rows.Next() {
		r := make([]any, len(cols))
		ptr := make([]any, len(cols))
		for i := range r {
			ptr[i] = &r[i]
		}
		if err := rows.Scan(ptr...); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// normalize prints numbers with two decimals so that 1.98 and "1.98" agree.
func normalize(rows [][]any) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		for _, v := range r {
			switch x := v.(type) {
			case float64:
				v = fmt.Sprintf("%.2f", x)
			case int64:
				v = fmt.Sprintf("%.2f", float64(x))
			case string:
				var f float64
				if _, err := fmt.Sscan(x, &f); err == nil && strings.Trim(x, "0123456789.-") == "" {
					v = fmt.Sprintf("%.2f", f)
				}
			}
			out[i] = append(out[i], fmt.Sprint(v))
		}
	}
	return out
}

// The semantic recordings match the prompt the engine builds with the
// semantic layer (-update-prompt-hashes rewrites them), and that prompt
// carries the definitions and the synonym.
func TestSemanticRecordingPrompts(t *testing.T) {
	e := semanticEngine(t, "")
	dir := filepath.Join(semanticDir, "recordings")
	rp, err := llm.OpenReplay(dir)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := e.datasource(context.Background(), "chinook")
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range rp.Recordings() {
		sctx := e.retrieve(context.Background(), ds, rec.Question)
		for _, want := range []string{`{"metric":"revenue","table":"InvoiceLine"`, `"synonyms":["market","sales region"]`, `{"filter":"big_order"`} {
			if !strings.Contains(sctx, want) {
				t.Errorf("%s: schema context lacks %s", rec.File, want)
			}
		}
		req := e.planRequest(ds, rec.Question, sctx, e.opts.Today(), nil, 0)
		if req.PromptHash == rec.PromptSHA256 {
			continue
		}
		if !*updatePromptHashes {
			t.Errorf("%s: prompt sha256 %s, recorded %s (check the prompt, then run with -update-prompt-hashes)", rec.File, req.PromptHash, rec.PromptSHA256)
			continue
		}
		rec.PromptSHA256 = req.PromptHash
		if err := llm.Save(dir, rec); err != nil {
			t.Fatal(err)
		}
	}
}

// A semantic file whose metric names a missing column keeps the
// datasource from opening, naming the file and line.
func TestSemanticLoadFailure(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "semantic.yaml")
	body := "metrics:\n  - name: revenue\n    table: InvoiceLine\n    expr: {kind: func, name: SUM, args: [{kind: column, column: Discount}]}\n"
	if err := os.WriteFile(bad, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	e := semanticEngine(t, bad)
	_, err := e.Ask(context.Background(), AskRequest{Question: "What was the revenue in each market?", Datasource: "chinook"})
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != CodeSemanticInvalid {
		t.Fatalf("got %v, want %s", err, CodeSemanticInvalid)
	}
	if !strings.Contains(ee.Msg, `semantic.yaml:4:`) || !strings.Contains(ee.Msg, `COLUMN_NOT_FOUND`) || !strings.Contains(ee.Msg, "Discount") {
		t.Errorf("message %q does not name the file, line and column", ee.Msg)
	}
}

// Without a semantic layer a plan that names a metric is refused with a
// typed issue the planner can repair.
func TestMetricWithoutSemanticLayer(t *testing.T) {
	e := chinookEngine(t, "")
	plan := []byte(`{"select":[{"expr":{"kind":"metric","name":"revenue"},"alias":"r"}],"from":[{"table":"InvoiceLine","alias":"il"}]}`)
	_, err := e.RunPlan(context.Background(), "chinook", plan)
	if err == nil || !strings.Contains(err.Error(), "no semantic layer") {
		t.Fatalf("got %v", err)
	}
}

// The fiscal calendar line tells the planner how to write fiscal years with
// the plan language; written that way (start month 7: DATE_ADD 6 months),
// the invoices per fiscal year equal SQLite's own month arithmetic.
func TestFiscalYearAsTheContextSaysToWriteIt(t *testing.T) {
	e := semanticEngine(t, "")
	if how := semantic.FiscalHowTo(7); !strings.Contains(how, "DATE_ADD('month', 6, d)") {
		t.Fatalf("how-to %q", how)
	}
	fy := `{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"year"},{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"month"},{"kind":"literal","value":6},{"kind":"column","table":"i","column":"InvoiceDate"}]}]}`
	plan := `{"select":[{"expr":` + fy + `,"alias":"fiscal_year"},{"expr":{"kind":"func","name":"COUNT"},"alias":"n"}],
		"from":[{"table":"Invoice","alias":"i"}],"group_by":[` + fy + `],"order_by":[{"expr":{"kind":"column","column":"fiscal_year"}}]}`
	res, err := e.RunPlan(context.Background(), "chinook", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	db, err := sql.Open("sqlite", "file:"+abs+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := goldRows(t, db, `SELECT CAST(strftime('%Y', InvoiceDate) AS INTEGER) + (CAST(strftime('%m', InvoiceDate) AS INTEGER) >= 7) AS fy, COUNT(*)
		FROM Invoice GROUP BY fy ORDER BY fy`)
	if got := fmt.Sprint(normalize(res.Rows)); got != fmt.Sprint(normalize(want)) || len(want) < 5 {
		t.Errorf("fiscal years %v, want %v\nSQL: %s", got, normalize(want), res.SQL)
	}
}

// The threat: with a semantic layer, context_tables listed its JSON lines
// ('{"semantic"', '{"metric"') as tables, so a host comparing it with
// visible_tables thought the context held more tables than the schema
// and that nothing was cut.
func TestHostContextTablesAreTablesWithASemanticLayer(t *testing.T) {
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	e, err := New(Options{Open: openAdapter,
		Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs, RowLimit: 1000, Semantic: filepath.Join(semanticDir, "semantic.yaml"), SemanticName: "semantic.yaml"}},
		Today:       func() string { return "2026-01-15" },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.Ask(context.Background(), AskRequest{Question: "What is the revenue per billing country?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	hc := res.HostPlan
	if !strings.Contains(hc.SchemaContext, `{"`) {
		t.Fatalf("the context holds no semantic line; the test needs one:\n%s", hc.SchemaContext)
	}
	if len(hc.ContextTables) == 0 || len(hc.ContextTables) > hc.VisibleTables {
		t.Errorf("context_tables %v of %d visible tables", hc.ContextTables, hc.VisibleTables)
	}
	for _, n := range hc.ContextTables {
		if strings.ContainsAny(n, `{"`) {
			t.Errorf("context_tables lists %q, no table", n)
		}
	}
}
