package engine

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: with no datasource named, the datasources were ranked by
// their descriptions and table names alone. A question phrased by a
// column ("which members have no email?", where both databases hold
// members and the finance one says so in its description) or by a value ("the weight of
// apples", a crop the operations database holds) put the wrong database
// first, or scored both 0, and a host planned on the first it was
// offered. The database holding the column or the value ranks first.
func TestDatasourcesRankByTheirColumnsAndValues(t *testing.T) {
	fin := sourcetest.TempDB(t, "CREATE TABLE member_accounts (id INTEGER PRIMARY KEY, tax_id TEXT, balance REAL)",
		"INSERT INTO member_accounts VALUES (1, 'DE123', 10.5)")
	ops := sourcetest.TempDB(t, "CREATE TABLE members (id INTEGER PRIMARY KEY, full_name TEXT, email TEXT, village TEXT)",
		"CREATE TABLE deliveries (id INTEGER PRIMARY KEY, member_id INTEGER, crop TEXT, kilos REAL)",
		"INSERT INTO members VALUES (1, 'Ana', NULL, 'Oakby'), (2, 'Ben', 'b@x.org', 'Elmford')",
		"INSERT INTO deliveries VALUES (1, 1, 'Apples', 12.5), (2, 2, 'Pears', 3), (3, 1, 'Plums', 4)")
	e, err := New(Options{Open: openAdapter, Today: func() string { return "2026-01-15" }, Datasources: []DatasourceSpec{
		{ID: "finance", Engine: "sqlite", Path: fin, Description: "Finance: the members' accounts, balances and tax records"},
		{ID: "coop", Engine: "sqlite", Path: ops, Description: "Operations of the co-op"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	for _, c := range []struct{ question, want string }{
		{"Which members have no email?", "coop"},
		{"How many members live in each village?", "coop"},
		{"What was the total weight of apples delivered?", "coop"},
		{"What is the tax id of Ana?", "finance"},
	} {
		cands, err := e.candidates(context.Background(), c.question)
		if err != nil {
			t.Fatal(err)
		}
		if len(cands) != 2 || cands[0].ID != c.want || cands[0].Score <= cands[1].Score {
			t.Errorf("%q: ranked %+v, want %s first with the higher score", c.question, cands, c.want)
		}
	}
}
