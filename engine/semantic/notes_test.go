package semantic_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: a caller denied the documentation table loses its notes in
// their copy of the snapshot (scope.FilterSnapshot), but describing it
// with the semantic layer annotated the comments again from the whole
// snapshot, notes included. The layer's own text stays; the note does not
// come back.
func TestDescribeKeepsAWithheldNoteOut(t *testing.T) {
	dict := &schema.Relation{Schema: "main", Name: "data_dictionary"}
	snap := &schema.Snapshot{Datasource: "shop", Dialect: schema.DialectSQLite, Tables: []schema.Table{
		{Schema: "main", Name: "accounts", Kind: schema.KindTable, Comment: "one row per account", CommentFrom: dict, Columns: []schema.Column{
			{Name: "id", Type: planast.TypeInteger},
			{Name: "is_test", Type: planast.TypeInteger, Comment: "an @example.com email is a test account whatever is_test says", CommentFrom: dict},
		}},
		{Schema: "main", Name: "data_dictionary", Kind: schema.KindTable, Columns: []schema.Column{{Name: "note", Type: planast.TypeText}}},
	}, Dictionaries: []schema.Dictionary{{Schema: "main", Name: "data_dictionary", TableColumn: "table_name", NoteColumn: "note"}}}
	l, err := semantic.Load(writeFile(t, "tables:\n  - name: accounts\n    description: customer accounts\n    columns:\n      - {name: is_test, description: set by support}\n"), "s.yaml", snap)
	if err != nil {
		t.Fatal(err)
	}
	rich := l.Apply(snap)
	// the caller's copy, as FilterSnapshot leaves it for one denied the
	// documentation table
	visible := *rich
	visible.Tables = slices.Clone(rich.Tables[:1])
	visible.Dictionaries = nil
	acc := &visible.Tables[0]
	acc.Comment, acc.CommentFrom = "", nil
	acc.Columns = slices.Clone(acc.Columns)
	acc.Columns[1].Comment, acc.Columns[1].CommentFrom = "", nil
	got := l.Describe(&visible, func(string, string, string) bool { return true })
	a, _ := got.Lookup("", "accounts")
	flag, _ := a.Column("is_test")
	if strings.Contains(a.Comment, "one row per account") || strings.Contains(flag.Comment, "example.com") {
		t.Errorf("the withheld notes came back: table %q, column %q", a.Comment, flag.Comment)
	}
	if !strings.Contains(a.Comment, "customer accounts") || !strings.Contains(flag.Comment, "set by support") {
		t.Errorf("the layer's own text is lost: table %q, column %q", a.Comment, flag.Comment)
	}
	// a caller who reads the documentation table keeps them
	full := l.Describe(rich, func(string, string, string) bool { return true })
	if a, _ := full.Lookup("", "accounts"); !strings.Contains(a.Comment, "one row per account") {
		t.Errorf("a caller reading the notes lost them: %q", a.Comment)
	}
}
