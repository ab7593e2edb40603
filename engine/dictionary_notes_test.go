package engine

import (
	"context"
	"strings"
	"testing"
)

// dictionaryDB is a delivery database whose rules live only in a
// documentation table, as SQLite (no COMMENT ON) leaves its owners to
// keep them.
var dictionaryDB = []string{
	"CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT, is_test INTEGER)",
	"INSERT INTO accounts VALUES (1, 'ann@mail.nl', 0), (2, 'qa@example.com', 0), (3, 'bo@mail.nl', 1)",
	"CREATE TABLE orders (id INTEGER PRIMARY KEY, account_id INTEGER REFERENCES accounts(id), total INTEGER)",
	"INSERT INTO orders VALUES (1, 1, 20), (2, 2, 900), (3, 3, 700), (4, 1, 30)",
	"CREATE TABLE data_dictionary (table_name TEXT, column_name TEXT, note TEXT)",
	"INSERT INTO data_dictionary VALUES ('accounts', 'is_test', 'accounts with an @example.com email are test accounts whatever is_test says'), " +
		"('orders', 'total', 'in euro cents, delivery fee included')",
}

const flagNote = `note (from data_dictionary) "accounts with an @example.com email are test accounts whatever is_test says"`

// The threat: the rule that decides which accounts are real lived only
// in a documentation table; the host found it only by querying that
// table, and the server's schema said nothing. The rule is the flag's
// note, marked as read from that table, in the caller's schema and in the
// context a planner reads, on every engine.
func TestDictionaryNotesReachTheSchemaAndThePlanner(t *testing.T) {
	for _, en := range everyEngine(dictionaryDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			snap := airSnapshot(t, e)
			acc, _ := snap.Lookup("", "accounts")
			flag, _ := acc.Column("is_test")
			if !strings.Contains(flag.Comment, "@example.com") || flag.CommentFrom == nil || flag.CommentFrom.Name != "data_dictionary" {
				t.Errorf("accounts.is_test: note %q from %v", flag.Comment, flag.CommentFrom)
			}
			ds, err := e.sources.Await(context.Background(), "air", 0)
			if err != nil {
				t.Fatal(err)
			}
			if ctx := e.retrieve(context.Background(), ds, "How much did real customers order?"); !strings.Contains(ctx, flagNote) {
				t.Errorf("the planner's context lacks the rule:\n%s", ctx)
			}
			// the note's words are held: a question in them is answerable
			if un, err := ds.idx.Unmatched(context.Background(), "Which orders carried a delivery fee?", nil); err != nil || strings.Join(un, ",") != "carried" {
				t.Errorf("unmatched %q (%v), want only carried: the note holds delivery fee", un, err)
			}
		})
	}
}

// The threat: a caller the policy denies the documentation table would
// read its rows as notes on the tables it documents. They get none of
// them, in their schema or their planner's context.
func TestDictionaryNotesWithheldFromACallerDeniedTheTable(t *testing.T) {
	pol := policyFromYAML(t, `
datasources:
  - {id: air, engine: sqlite, path: air.sqlite}
roles:
  sales:
    allow: [air]
    deny: [air.main.data_dictionary]
users:
  - {name: sam, roles: [sales]}
local_user: sam
`)
	e := airEngine(t, everyEngine(dictionaryDB)[0].spec(t).Path, pol)
	sam, _ := pol.ForUser("sam")
	ctx := WithCaller(context.Background(), sam)
	snap, err := e.VisibleSnapshot(ctx, "air")
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range snap.Tables {
		for _, c := range tb.Columns {
			if c.Comment != "" || c.CommentFrom != nil {
				t.Errorf("%s.%s: note %q reached a caller denied the documentation table", tb.Name, c.Name, c.Comment)
			}
		}
	}
	ds, err := e.sources.Await(ctx, "air", 0)
	if err != nil {
		t.Fatal(err)
	}
	if pc := e.retrieve(ctx, ds, "How much did real customers order?"); strings.Contains(pc, "whatever is_test says") || strings.Contains(pc, "euro cents") {
		t.Errorf("the planner's context of a caller denied the documentation table quotes it:\n%s", pc)
	}
	// nor through the index every caller shares: words only the notes
	// hold are words nothing holds for them (a caller who reads the
	// table is told they are held, TestDictionaryNotesReachTheSchemaAndThePlanner)
	un, err := ds.idx.Unmatched(ctx, "Which orders carried a delivery fee?", sam.Reader("air"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(un, ","); got != "carried,delivery" {
		t.Errorf("unmatched %q for a caller denied the notes, want carried,delivery", got)
	}
}
