package scope_test

import (
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: a documentation table's rows become notes on the tables and
// columns they name (internal/source/dictionary). A caller who may not
// read that table, or reads only some of its rows or columns, would read
// its rows in the schema all the same. Such a caller gets none of its
// notes; the database's own comments stay.
func TestFilterSnapshotWithholdsNotesOfADictionaryTheCallerMayNotRead(t *testing.T) {
	_, pol := loadPolicy(t, `
datasources:
  - {id: shop, engine: sqlite, path: CHINOOK}
roles:
  all:
    allow: [shop]
  nodict:
    allow: [shop]
    deny: [shop.main.data_dictionary]
  nonote:
    allow: [shop]
    deny: [shop.main.data_dictionary.note]
  somerows:
    allow: [shop]
    row_filters:
      - {table: shop.main.data_dictionary, where: "table_name = 'ratings'"}
users:
  - {name: ada, roles: [all]}
  - {name: bea, roles: [nodict]}
  - {name: cem, roles: [nonote]}
  - {name: dov, roles: [somerows]}
  - {name: eli, roles: [nodict, all]}
`)
	text := func(n string) schema.Column { return schema.Column{Name: n, Type: planast.TypeText} }
	dict := &schema.Relation{Schema: "main", Name: "data_dictionary"}
	snap := &schema.Snapshot{Datasource: "shop", Dialect: schema.DialectSQLite, Tables: []schema.Table{
		{Schema: "main", Name: "accounts", Kind: schema.KindTable, Comment: "one row per account", CommentFrom: dict, Columns: []schema.Column{
			{Name: "is_test", Type: planast.TypeInteger, Comment: "accounts with an @example.com email are test accounts whatever is_test says", CommentFrom: dict},
			{Name: "email", Type: planast.TypeText, Comment: "the login"}, // the database's own
		}},
		{Schema: "main", Name: "data_dictionary", Kind: schema.KindTable, Columns: []schema.Column{text("table_name"), text("column_name"), text("note")}},
	}, Dictionaries: []schema.Dictionary{{Schema: "main", Name: "data_dictionary", TableColumn: "table_name", ColumnColumn: "column_name", NoteColumn: "note"}}}
	for _, c := range []struct {
		user  string
		notes bool
	}{
		{"ada", true},
		{"bea", false}, // denied the table
		{"cem", false}, // denied its note column
		{"dov", false}, // reads some of its rows
		{"eli", true},  // one of eli's roles reads it whole
	} {
		got := user(t, pol, c.user).FilterSnapshot(snap)
		acc, _ := got.Lookup("", "accounts")
		flag, _ := acc.Column("is_test")
		email, _ := acc.Column("email")
		if shown := flag.Comment != "" || acc.Comment != "" || len(got.Dictionaries) > 0; shown != c.notes {
			t.Errorf("%s: table note %q, column note %q, dictionaries %v; want notes shown %t", c.user, acc.Comment, flag.Comment, got.Dictionaries, c.notes)
		}
		if (flag.CommentFrom != nil) != c.notes || (acc.CommentFrom != nil) != c.notes {
			t.Errorf("%s: the notes' source kept %t, want %t", c.user, flag.CommentFrom != nil, c.notes)
		}
		if email.Comment != "the login" {
			t.Errorf("%s: the database's own comment became %q", c.user, email.Comment)
		}
	}
	if acc, _ := snap.Lookup("", "accounts"); acc.Comment == "" || acc.Columns[0].Comment == "" {
		t.Error("filtering changed the shared snapshot")
	}
}
