package sqlite

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// A user searching a SQLite database case-insensitively for "ångström"
// must find "Zoë Ångström", as on DuckDB and PostgreSQL: the adapter's
// connections have unicode_upper and unicode_lower, which the renderer
// writes for a plan's UPPER and LOWER and which fold every letter
// (SQLite's own fold A-Z only), keeping bytes that are not UTF-8 as they
// are; a view of the user's that calls SQLite's own upper still reads.
func TestUpperLowerFoldEveryLetter(t *testing.T) {
	path := sourcetest.TempDB(t, "CREATE TABLE people (id INTEGER, name TEXT)",
		"INSERT INTO people VALUES (1, 'Zoë Ångström'), (2, 'Ann'), (3, 'straße'), (4, CAST(X'41FF61' AS TEXT))",
		"CREATE VIEW shouting AS SELECT upper(name) AS name FROM people")
	s := openTest(t, path, source.Options{})
	res, err := s.Query(context.Background(),
		"SELECT id, unicode_upper(name), unicode_lower(name), hex(unicode_lower(name)) FROM people WHERE unicode_lower(name) LIKE unicode_lower('%ÅNGSTRÖM%') OR id IN (3, 4) ORDER BY id", nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.Rows)
	want := `[[1,"ZOË ÅNGSTRÖM","zoë ångström","7A6FC3AB20C3A56E67737472C3B66D"],[3,"STRAẞE","straße","73747261C39F65"],[4,"A\ufffdA","a\ufffda","61FF61"]]`
	if string(got) != want {
		t.Errorf("rows\n%s\nwant\n%s", got, want)
	}
	res, err = s.Query(context.Background(), "SELECT name FROM shouting WHERE name LIKE 'ANN'", nil, 10)
	if err != nil || len(res.Rows) != 1 {
		t.Errorf("a view calling SQLite's own upper: %v, %v", res, err)
	}
}
