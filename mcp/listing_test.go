package mcp

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	_ "modernc.org/sqlite"
)

// The threat: a schema-only copy of a database (tables, no rows) is
// listed as ready like any other, and a host answers every question
// "none" from it. list_datasources must say how many tables held no rows
// when profiled, in its text and its structured result, and say nothing
// of a datasource whose tables have rows.
func TestListDatasourcesNamesEmptyTables(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, stmts ...string) string {
		path := filepath.Join(dir, name)
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, q := range stmts {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		return path
	}
	// a view is counted apart: "3 tables" for two tables and a view had
	// the user look for a table they never made
	bare := mk("bare.db", "CREATE TABLE races (id INTEGER PRIMARY KEY)", "CREATE TABLE circuits (id INTEGER PRIMARY KEY)", "CREATE VIEW race_ids AS SELECT id FROM races")
	half := mk("half.db", "CREATE TABLE races (id INTEGER PRIMARY KEY)", "CREATE TABLE circuits (id INTEGER PRIMARY KEY)", "INSERT INTO circuits VALUES (1)")
	full := mk("full.db", "CREATE TABLE races (id INTEGER PRIMARY KEY)", "INSERT INTO races VALUES (1)")
	cfg := filepath.Join(dir, "nl2sql.yaml")
	yaml := "storage: {path: " + filepath.Join(dir, "state") + "}\ndatasources:\n" +
		"  - {id: bare, engine: sqlite, path: " + bare + "}\n  - {id: full, engine: sqlite, path: " + full + "}\n  - {id: half, engine: sqlite, path: " + half + "}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	c := configClient(t, cfg)
	ctx := context.Background()
	for _, id := range []string{"bare", "full", "half"} {
		// open each, so the listing does not say "indexing"
		if _, err := c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "describe_schema", Arguments: map[string]any{"datasource": id}}}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "list_datasources"}})
	if err != nil || res.IsError {
		t.Fatalf("list_datasources: %v %+v", err, res)
	}
	text := res.Content[0].(mcpgo.TextContent).Text
	for _, want := range []string{"bare (sqlite, 2 tables, 1 view, every one empty when profiled, ready)", "full (sqlite, 1 table, ready)", "half (sqlite, 2 tables, 1 empty when profiled, ready)"} {
		if !strings.Contains(text, want) {
			t.Errorf("list_datasources text %q lacks %q", text, want)
		}
	}
	if b, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(b), `"empty_tables":2`) {
		t.Errorf("structured %s: want empty_tables 2 for bare", b)
	}
}

// The threat: a server without a model of its own lists ask as the tool
// that "runs the query and returns the rows"; a host calls it, gets the
// schema context, and pays a call to learn what the description could
// have said. With no model the description says first that ask runs no
// query; with one it says ask answers.
func TestAskDescriptionSaysWhoPlans(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "nl2sql.yaml")
	db, _ := filepath.Abs(filepath.Join("..", "examples", "chinook", "chinook.sqlite"))
	yaml := "storage: {path: " + filepath.Join(dir, "state") + "}\ndatasources:\n  - {id: chinook, engine: sqlite, path: " + db + "}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, cfg, want string
	}{
		{"no model", cfg, "This server has no model of its own, so ask runs no query"},
		{"a model", filepath.Join("..", "examples", "chinook", "nl2sql.yaml"), "The server plans a typed query"},
	} {
		res, err := configClient(t, c.cfg).ListTools(context.Background(), mcpgo.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range res.Tools {
			if tl.Name == "ask" && !strings.Contains(tl.Description, c.want) {
				t.Errorf("%s: ask's description %q, want %q", c.name, tl.Description, c.want)
			}
		}
	}
}
