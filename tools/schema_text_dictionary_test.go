package tools

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: a note read from a documentation table (rows of a table the
// owners keep) read as the schema's own declaration, and the host could
// not tell where to look for more of it. describe_schema's text says
// which table a note came from, before the note, which stays quoted as
// data; the database's own comments read as before.
func TestSchemaTextSaysWhereANoteCameFrom(t *testing.T) {
	dict := &schema.Relation{Schema: "main", Name: "data_dictionary"}
	other := &schema.Relation{Schema: "docs", Name: "glossary"}
	snap := &schema.Snapshot{Datasource: "shop", Dialect: schema.DialectSQLite, Tables: []schema.Table{{Schema: "main", Name: "accounts", Kind: schema.KindTable,
		Comment: "one row per account", CommentFrom: dict,
		Columns: []schema.Column{
			{Name: "email", DeclaredType: "TEXT", Type: planast.TypeText, Comment: "the login"},
			{Name: "is_test", DeclaredType: "INTEGER", Type: planast.TypeInteger, Comment: "an @example.com email is a \"test\" account", CommentFrom: dict},
			{Name: "region", DeclaredType: "TEXT", Type: planast.TypeText, Comment: "as the courier writes it", CommentFrom: other},
		}}}}
	text := SnapshotText(snap)
	for _, want := range []string{
		"main.accounts (table)\n  note (from data_dictionary) \"one row per account\"\n",
		`note (from data_dictionary) "an @example.com email is a \"test\" account"`,
		`note (from docs.glossary) "as the courier writes it"`,
		`note "the login"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %s:\n%s", want, text)
		}
	}
}
