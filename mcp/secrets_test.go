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
)

// Columns whose names say they hold secrets (staff.password, api_key,
// PasswordHash) keep their row count and NULL share, but none of their
// values reaches any tool output or the context a planner or host is
// given: describe_schema, search_schema (and so the value index), ask's
// plan_it_yourself schema context and the schema resource. Sakila's
// staff.password hashes were shown as sample values.
func TestSecretColumnsNeverSampled(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("sqlite", filepath.Join(dir, "staff.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	exec(t, db, "CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, username TEXT, password TEXT, api_key TEXT, PasswordHash TEXT, salt INTEGER)")
	secrets := []string{"hunter2zebra", "8cb2237d0679ca88db6464eac60da96345513964", "sk-live-qwertyuiop", "pbkdf2$quokka"}
	exec(t, db, "INSERT INTO staff VALUES (1, 'mike_hillyer', ?, ?, ?, 918273645), (2, 'jon_stephens', ?, 'sk-live-asdfghjkl', 'pbkdf2$wombat', 564738291)",
		secrets[0], secrets[2], secrets[3], secrets[1])
	db.Close()
	cfg := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(cfg, []byte("storage:\n  path: state\ndatasources:\n  - id: staff\n    engine: sqlite\n    path: staff.sqlite\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	secrets = append(secrets, "sk-live-asdfghjkl", "pbkdf2$wombat", "918273645", "564738291")
	c := configClient(t, cfg)

	var outputs []string
	// echo is what the caller sent and a tool echoes back (ask's question)
	record := func(what, echo string, res *mcpgo.CallToolResult) {
		if res.IsError {
			t.Fatalf("%s: %s", what, text(res))
		}
		b, _ := json.Marshal(res.StructuredContent)
		for _, o := range []string{text(res), string(b)} {
			if echo != "" {
				o = strings.ReplaceAll(o, echo, "(question)")
			}
			outputs = append(outputs, what+": "+o)
		}
	}
	record("describe_schema", "", callTool(t, c, "describe_schema", map[string]any{"datasource": "staff"}))
	record("describe_schema table", "", callTool(t, c, "describe_schema", map[string]any{"datasource": "staff", "table": "staff"}))
	for _, q := range []string{"password hunter2zebra", "staff api key sk-live-qwertyuiop", "pbkdf2 quokka salt"} {
		record("search_schema", "", callTool(t, c, "search_schema", map[string]any{"datasource": "staff", "text": q}))
		question := "which staff member has " + q
		record("ask", question, callTool(t, c, "ask", map[string]any{"datasource": "staff", "question": question}))
	}
	rr, err := c.ReadResource(context.Background(), mcpgo.ReadResourceRequest{Params: mcpgo.ReadResourceParams{URI: "nl2sql://staff/schema"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rr.Contents)
	outputs = append(outputs, "schema resource: "+string(b))

	all := strings.Join(outputs, "\n")
	if !strings.Contains(all, "mike_hillyer") {
		t.Fatalf("an ordinary column's samples are missing too, so this test would prove nothing:\n%s", all)
	}
	if !strings.Contains(all, "PasswordHash") || !strings.Contains(all, "api_key") {
		t.Errorf("the secret columns themselves should still be described:\n%s", all)
	}
	for _, out := range outputs {
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("secret value %q reached %s", s, out[:min(len(out), 4000)])
			}
		}
	}
}
