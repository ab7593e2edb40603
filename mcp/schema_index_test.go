package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/bigcat"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/tools"
)

// insuranceDB is twelve tables and two views, the dimension that holds
// the time zones and currencies (sites) and both views last in name
// order: on a small budget they land on describe_schema's last page.
func insuranceDB() []string {
	stmts := []string{}
	for _, name := range []string{"agents", "brokers", "claim_notes", "claim_payments", "customers", "insurance_claims", "invoices", "policies", "policy_holders", "premiums", "regions"} {
		cols := []string{"id INTEGER PRIMARY KEY"}
		for i := range 8 {
			cols = append(cols, fmt.Sprintf("%s_detail_%d TEXT", strings.TrimSuffix(name, "s"), i))
		}
		stmts = append(stmts, "CREATE TABLE "+name+" ("+strings.Join(cols, ", ")+")")
		stmts = append(stmts, "INSERT INTO "+name+" VALUES (1, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), (2, 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p')")
	}
	return append(stmts,
		"CREATE TABLE sites (id INTEGER PRIMARY KEY, name TEXT, timezone TEXT, currency TEXT, country_code TEXT)",
		"INSERT INTO sites VALUES (1, 'Lyon', 'Europe/Paris', 'EUR', 'FR'), (2, 'Austin', 'America/Chicago', 'USD', 'US')",
		"CREATE VIEW v_claims AS SELECT id FROM insurance_claims",
		"CREATE VIEW v_sites AS SELECT id, currency FROM sites")
}

// describeOut is the parts of a describe_schema result these tests read.
type describeOut struct {
	TotalTables int    `json:"total_tables"`
	TotalViews  int    `json:"total_views"`
	Page        int    `json:"page"`
	TotalPages  int    `json:"total_pages"`
	Next        string `json:"next_cursor"`
	OtherTables int    `json:"other_tables"`
	Tables      []struct {
		Name string `json:"name"`
	} `json:"tables"`
	OtherPages []struct {
		Page   int      `json:"page"`
		Cursor string   `json:"cursor"`
		Tables []string `json:"tables"`
		Views  []string `json:"views"`
	} `json:"other_pages"`
}

// The threat: describe_schema's first page stopped at "tables 1-11 of
// 14"; sites (time zone, currency, country) and both views were on page
// 2, and a host that read page 1 alone planned without them. Every page
// names, in its text and its structured result, the tables and views of
// every other page with the cursor that describes them, and each cursor
// gives exactly the page it names. And the counts agree: twelve tables
// and two views, in list_datasources' text and structured result and in
// describe_schema's, never 14 tables on one and 12 on another.
func TestEveryPageNamesTheOtherPagesTables(t *testing.T) {
	all := []string{"agents", "brokers", "claim_notes", "claim_payments", "customers", "insurance_claims", "invoices", "policies", "policy_holders", "premiums", "regions", "sites", "v_claims", "v_sites"}
	for _, en := range []struct {
		name string
		ds   func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string {
			return "{id: ins, engine: sqlite, path: " + sourcetest.TempDB(t, insuranceDB()...) + "}"
		}},
		{"postgres", func(t *testing.T) string {
			f := sourcetest.NewPGFixture(t, insuranceDB()...)
			return "{id: ins, engine: postgres, dsn: '" + f.ReadOnly + "'}"
		}},
	} {
		t.Run(en.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "nl2sql.yaml")
			yaml := "storage: {path: " + filepath.Join(dir, "state") + "}\nresults: {token_budget: 2500}\ndatasources:\n  - " + en.ds(t) + "\n"
			if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			c := configClient(t, cfg)
			first := callTool(t, c, "describe_schema", map[string]any{"datasource": "ins"})
			var p describeOut
			structured(t, first, &p)
			if p.Next == "" || len(p.OtherPages) == 0 {
				t.Fatalf("one page (%d tables): the budget does not make the pages this test needs", len(p.Tables))
			}
			named := map[string]bool{}
			for _, tb := range p.Tables {
				named[tb.Name] = true
			}
			for _, op := range p.OtherPages {
				res := callTool(t, c, "describe_schema", map[string]any{"datasource": "ins", "cursor": op.Cursor})
				var got describeOut
				structured(t, res, &got)
				var there []string
				for _, tb := range got.Tables {
					there = append(there, tb.Name)
				}
				if want := append(slices.Clone(op.Tables), op.Views...); !slices.Equal(there, want) || got.Page != op.Page {
					t.Errorf("page 1 says page %d holds %v; its cursor gives page %d holding %v", op.Page, want, got.Page, there)
				}
				for _, n := range append(op.Tables, op.Views...) {
					named[n] = true
				}
			}
			pageText := text(first)
			for _, n := range all {
				if !named[n] || !strings.Contains(pageText, n) {
					t.Errorf("page 1 (structured %v) does not name %s; its text:\n%s", named[n], n, pageText)
				}
			}
			if p.TotalTables != 12 || p.TotalViews != 2 || !strings.Contains(pageText, "12 tables, 2 views") || strings.Contains(pageText, "of 14 tables") {
				t.Errorf("describe_schema counts %d tables, %d views; text:\n%s", p.TotalTables, p.TotalViews, pageText)
			}
			list := callTool(t, c, "list_datasources", map[string]any{})
			var l struct {
				Datasources []struct {
					Tables int `json:"tables"`
					Views  int `json:"views"`
				} `json:"datasources"`
			}
			structured(t, list, &l)
			if len(l.Datasources) != 1 || l.Datasources[0].Tables != 12 || l.Datasources[0].Views != 2 || !strings.Contains(text(list), "12 tables, 2 views") {
				b, _ := json.Marshal(list.StructuredContent)
				t.Errorf("list_datasources: structured %s, text %q; want 12 tables and 2 views in both", b, text(list))
			}
			// the schema resource, paged at this budget, a page and a view's own
			read := func(uri string) (string, error) {
				rr, err := c.ReadResource(context.Background(), mcpgo.ReadResourceRequest{Params: mcpgo.ReadResourceParams{URI: uri}})
				if err != nil {
					return "", err
				}
				return rr.Contents[0].(mcpgo.TextResourceContents).Text, nil
			}
			body, err := read("nl2sql://ins/schema")
			var idx tools.SchemaIndex
			if err != nil || json.Unmarshal([]byte(body), &idx) != nil || !idx.Paged || idx.TotalTables != 12 || idx.TotalViews != 2 || len(idx.Pages) == 0 {
				t.Fatalf("schema resource: %v %.300s; want a paged index counting 12 tables and 2 views", err, body)
			}
			page, err := read(idx.Pages[0].URI)
			var pg tools.SchemaPage
			if err != nil || json.Unmarshal([]byte(page), &pg) != nil || pg.TotalTables != 12 || pg.TotalViews != 2 {
				t.Errorf("schema page: %v %.300s; want 12 tables and 2 views", err, page)
			}
			view, err := read("nl2sql://ins/schema/table/v_sites")
			if err != nil || json.Unmarshal([]byte(view), &pg) != nil || pg.TotalTables != 0 || pg.TotalViews != 1 {
				t.Errorf("a view's resource: %v %.300s; want it counted as a view", err, view)
			}
		})
	}
}

// The threat behind the index's limit: on a catalog of hundreds of
// tables, naming them all on every page would take the page's budget
// from the tables it describes. Past a share of the budget a page says
// how many tables and views the other pages hold and how to find one,
// and still fits the budget.
func TestLargeCatalogPageCountsTheOthers(t *testing.T) {
	c, _ := catalogClient(t, 400, 4, 0, "results: {token_budget: 1500}\n")
	res := callTool(t, c, "describe_schema", map[string]any{"datasource": "cat"})
	var p describeOut
	structured(t, res, &p)
	if n := sentTokens(t, res); n > 1500 {
		t.Errorf("the first page is %d tokens, over the 1500-token budget", n)
	}
	want := fmt.Sprintf("the other %d tables and views are on other pages", p.TotalTables+p.TotalViews-len(p.Tables))
	if len(p.OtherPages) != 0 || p.OtherTables != p.TotalTables+p.TotalViews-len(p.Tables) || !strings.Contains(text(res), want) || !strings.Contains(text(res), "search_schema") {
		t.Errorf("other_pages %d, other_tables %d of %d; text:\n%s\nwant %q and how to search", len(p.OtherPages), p.OtherTables, p.TotalTables, text(res), want)
	}
	if strings.Contains(text(res), bigcat.TableName(399)) {
		t.Errorf("the first page names the last of 400 tables")
	}
}

// The threat: a host comparing a timestamptz column with TIMESTAMP
// '2024-01-01 00:00:00' could not tell whether the literal read in the
// session's zone; the server's sessions run in UTC, and the page that
// describes such a column says the literal is a UTC time, which the rows
// bear out (23:30 at UTC-1 on New Year's Eve is 00:30 UTC, inside 2024).
// A page without such a column says nothing of it.
func TestTimestamptzPageSaysLiteralsReadInUTC(t *testing.T) {
	f := sourcetest.NewPGFixture(t,
		"CREATE TABLE events (id INTEGER PRIMARY KEY, at TIMESTAMPTZ)",
		"INSERT INTO events VALUES (1, '2023-12-31 23:30:00-01'), (2, '2023-12-31 23:30:00+00')",
		"CREATE TABLE visits (id INTEGER PRIMARY KEY, at TIMESTAMP)",
		"INSERT INTO visits VALUES (1, '2024-01-01 00:30:00')")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "nl2sql.yaml")
	yaml := "storage: {path: " + filepath.Join(dir, "state") + "}\ndatasources:\n  - {id: ev, engine: postgres, dsn: '" + f.ReadOnly + "'}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	c := configClient(t, cfg)
	const note = "a timestamp literal compared with one is a UTC time"
	for _, tc := range []struct {
		table string
		want  bool
	}{{"events", true}, {"visits", false}} {
		res := callTool(t, c, "describe_schema", map[string]any{"datasource": "ev", "table": tc.table})
		if got := strings.Contains(text(res), note); got != tc.want {
			t.Errorf("describe_schema %s says %q: %v, want %v:\n%s", tc.table, note, got, tc.want, text(res))
		}
	}
	plan := `{"select": [{"expr": {"kind": "column", "table": "e", "column": "id"}, "alias": "id"}], "from": [{"table": "events", "alias": "e"}], "where": {"kind": "binary", "op": ">=", "left": {"kind": "column", "table": "e", "column": "at"}, "right": {"kind": "literal", "type": "timestamp", "value": "2024-01-01 00:00:00"}}}`
	res := callTool(t, c, "run_plan", map[string]any{"datasource": "ev", "plan": plan})
	var out struct {
		Rows [][]any `json:"rows"`
	}
	structured(t, res, &out)
	if fmt.Sprint(out.Rows) != "[[1]]" {
		t.Errorf("events at or after 2024-01-01 00:00:00 UTC: %v, want [[1]]; %s", out.Rows, text(res))
	}
}
