package eval

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeDB makes DBROOT/id/id.sqlite from a script.
func writeDB(t *testing.T, root, id, script string) {
	t.Helper()
	dir := filepath.Join(root, id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, id+".sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(script); err != nil {
		t.Fatal(err)
	}
}

// What a reader of the report is told: exact passes, tie-accepted passes
// and the accuracy without tie allowance side by side; a tie decides the
// same inside a subquery as at the top; each JSON case says which question,
// gold SQL and predicted SQL it is about; a schema-only database is counted
// as runs, never as accurate.
func TestEvidence(t *testing.T) {
	root := t.TempDir()
	// Two players tie on the top score; SQLite's gold run returns the one
	// stored first (zed), the renderer's total order picks amy.
	writeDB(t, root, "ties", `CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
		INSERT INTO player VALUES (1, 'zed', 9), (2, 'amy', 9), (3, 'bob', 5), (4, 'cat', 7);`)
	writeDB(t, root, "empty", `CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);`)
	qs := []map[string]string{
		{"db_id": "ties", "question": "Who scored most (top-level tie)?", "query": "SELECT name FROM player ORDER BY score DESC LIMIT 1"},
		{"db_id": "ties", "question": "Who scored most (tie in a subquery)?", "query": "SELECT name FROM player WHERE name IN (SELECT name FROM player ORDER BY score DESC LIMIT 1)"},
		{"db_id": "ties", "question": "Who scored most (tie in a CTE)?", "query": "WITH top AS (SELECT name FROM player ORDER BY score DESC LIMIT 1) SELECT name FROM player WHERE name IN (SELECT name FROM top)"},
		{"db_id": "ties", "question": "How many players?", "query": "SELECT count(*) FROM player"},
		{"db_id": "ties", "question": "Who scored least?", "query": "SELECT name FROM player ORDER BY score ASC LIMIT 1"},
		{"db_id": "empty", "question": "How many players (no rows)?", "query": "SELECT count(*) FROM player"},
	}
	b, _ := json.Marshal(qs)
	file := filepath.Join(root, "dev.json")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Options{Suite: SuiteSpider, File: file, DBRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ status, match string }{
		{StatusPass, MatchTie},
		{StatusPass, MatchTie},
		{StatusPass, MatchTie},
		{StatusPass, MatchExact},
		{StatusPass, MatchExact},
		{StatusRuns, ""},
	}
	for i, w := range want {
		c := r.Cases[i]
		if c.Status != w.status || c.Match != w.match {
			t.Errorf("%s (%s): status %s match %q, want %s %q: %s", c.ID, c.Question, c.Status, c.Match, w.status, w.match, c.Reason)
		}
		if c.Question != qs[i]["question"] || c.GoldSQL != qs[i]["query"] || (c.Status != StatusRuns && c.SQL == "") || c.SQL == c.GoldSQL {
			t.Errorf("%s: question %q gold %q predicted %q", c.ID, c.Question, c.GoldSQL, c.SQL)
		}
	}
	if r.Counts.Exact != 2 || r.Counts.TieAccepted != 3 || r.Counts.Pass != 5 || r.Counts.Runs != 1 || r.Compared != 5 || r.Rowless != 1 {
		t.Errorf("counts %+v, compared %d, rowless %d", r.Counts, r.Compared, r.Rowless)
	}
	if r.ExecutionAccuracy == nil || *r.ExecutionAccuracy != 2.0/5 || *r.AccuracyWithTies != 1 {
		t.Errorf("accuracy %v, with ties %v; want 0.4 and 1", r.ExecutionAccuracy, r.AccuracyWithTies)
	}
	s := r.Summary()
	for _, w := range []string{"pass 5 (exact 2, tie-accepted 3)", "execution accuracy 0.4000 (exact passes 2 / 5, no tie allowance", "with tie allowance 1.0000 (5 / 5)", "1 questions on databases with no rows (schema only): 1 ran; reported as runs"} {
		if !strings.Contains(s, w) {
			t.Errorf("summary lacks %q:\n%s", w, s)
		}
	}
	js, _ := json.Marshal(r.Cases[1])
	for _, k := range []string{`"question":`, `"gold_sql":`, `"sql":`, `"reason":`, `"match":"tie"`} {
		if !strings.Contains(string(js), k) {
			t.Errorf("case JSON lacks %s: %s", k, js)
		}
	}

	// Only schema-only databases: no accuracy at all, not 1.0.
	only := []map[string]string{qs[5]}
	b, _ = json.Marshal(only)
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = Run(context.Background(), Options{Suite: SuiteSpider, File: file, DBRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	if r.ExecutionAccuracy != nil || r.AccuracyWithTies != nil || !strings.Contains(r.Summary(), "execution accuracy n/a") {
		t.Errorf("rowless only: accuracy %v; summary\n%s", r.ExecutionAccuracy, r.Summary())
	}
	if js, _ := json.Marshal(r); !strings.Contains(string(js), `"execution_accuracy":null`) {
		t.Errorf("JSON: %s", js)
	}
}
