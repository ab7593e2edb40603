package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/pgtest"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a uuid column is text to the plan language, so
// check_plan passed a LIKE on it, UPPER of it and a comparison with a
// literal that is no UUID, and each run then failed with PostgreSQL's own
// words ("operator does not exist: uuid ~~ text", "invalid input syntax
// for type uuid") and no hint. Such a column reads as its text wherever a
// plan names it, on PostgreSQL and on DuckDB (UUID), so every plan the
// validator passes runs and means what it means on text.
func TestUUIDAndNetworkColumnsReadAsText(t *testing.T) {
	r := pgtest.NewReader(t, "astext")
	pgtest.Exec(t, r.Super, `CREATE TABLE accounts (id uuid PRIMARY KEY, mac macaddr, name text)`,
		`INSERT INTO accounts VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '08:00:2b:01:02:03', 'Ada'), ('11111111-2222-3333-4444-555555555555', '08:00:2b:ff:fe:01', 'Bo')`,
		`GRANT SELECT ON accounts TO `+r.Role)
	duck := sourcetest.DuckTempDB(t, `CREATE TABLE accounts (id UUID PRIMARY KEY, name VARCHAR)`,
		`INSERT INTO accounts VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'Ada'), ('11111111-2222-3333-4444-555555555555', 'Bo')`)
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{
		{ID: "pg", Engine: "postgres", DSN: r.URL.String()}, {ID: "duck", Engine: "duckdb", Path: duck}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	col := func(c string) string { return `{"kind":"column","table":"a","column":"` + c + `"}` }
	where := func(cond string) []byte {
		return []byte(`{"select":[{"expr":` + col("name") + `,"alias":"name"}],"from":[{"table":"accounts","alias":"a"}],"where":` + cond + `,"order_by":[{"expr":` + col("name") + `}]}`)
	}
	cases := []struct {
		name, cond, rows string
		pgOnly           bool
	}{
		{"like on a uuid", `{"kind":"like","expr":` + col("id") + `,"pattern":{"kind":"literal","value":"a0ee%"}}`, "[[Ada]]", false},
		{"upper of a uuid", `{"kind":"binary","op":"=","left":{"kind":"func","name":"UPPER","args":[` + col("id") + `]},"right":{"kind":"literal","value":"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"}}`, "[[Ada]]", false},
		{"a literal that is no uuid", `{"kind":"binary","op":"=","left":` + col("id") + `,"right":{"kind":"literal","value":"not-a-uuid"}}`, "[]", false},
		{"the uuid as stored", `{"kind":"binary","op":"=","left":` + col("id") + `,"right":{"kind":"literal","value":"11111111-2222-3333-4444-555555555555"}}`, "[[Bo]]", false},
		{"uuids in a list", `{"kind":"in","expr":` + col("id") + `,"list":[{"kind":"literal","value":"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"},{"kind":"literal","value":"11111111-2222-3333-4444-555555555555"}]}`, "[[Ada] [Bo]]", false},
		{"a uuid in capitals", `{"kind":"binary","op":"=","left":` + col("id") + `,"right":{"kind":"literal","value":"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"}}`, "[[Ada]]", false},
		{"like on a macaddr", `{"kind":"like","expr":` + col("mac") + `,"pattern":{"kind":"literal","value":"08:00:2b:01%"}}`, "[[Ada]]", true},
	}
	for _, c := range cases {
		for _, ds := range []string{"pg", "duck"} {
			if c.pgOnly && ds == "duck" {
				continue
			}
			res, err := e.RunPlan(context.Background(), ds, where(c.cond))
			if err != nil {
				t.Errorf("%s on %s: %v", c.name, ds, err)
				continue
			}
			if got := fmt.Sprint(res.Rows); got != c.rows {
				t.Errorf("%s on %s: rows %s, want %s", c.name, ds, got, c.rows)
			}
			// a lookup by a UUID compares uuids, which the key's index
			// serves; a cast to text would read every row
			if lookup := strings.Contains(c.name, "uuid as stored") || strings.Contains(c.name, "capitals") || strings.Contains(c.name, "list"); !c.pgOnly && lookup == strings.Contains(res.SQL, `CAST("a"."id" AS TEXT)`) {
				t.Errorf("%s on %s: SQL %s", c.name, ds, res.SQL)
			}
		}
	}
}

// The threat: a text[] shows as ["cold","bulk"] in results, but a plan's
// cast of it to text read PostgreSQL's {cold,bulk} (and a DuckDB struct
// its {'a': 1}), so a filter written from the value shown matched no row,
// with no warning. A cast of an array or a JSON value to text is the
// JSON text results show, on every engine.
func TestNestedValuesCastToTheTextResultsShow(t *testing.T) {
	r := pgtest.NewReader(t, "nested")
	pgtest.Exec(t, r.Super, `CREATE TABLE racks (id int PRIMARY KEY, tags text[], doc jsonb)`,
		`INSERT INTO racks VALUES (1, ARRAY['cold','bulk'], '{"a": 1}'), (2, ARRAY['dry'], '{"a": 2}')`,
		`GRANT SELECT ON racks TO `+r.Role)
	duck := sourcetest.DuckTempDB(t, `CREATE TABLE racks (id INTEGER PRIMARY KEY, tags VARCHAR[], doc STRUCT(a INTEGER))`,
		`INSERT INTO racks VALUES (1, ['cold','bulk'], {'a': 1}), (2, ['dry'], {'a': 2})`)
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{
		{ID: "pg", Engine: "postgres", DSN: r.URL.String()}, {ID: "duck", Engine: "duckdb", Path: duck}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, ds := range []string{"pg", "duck"} {
		shown, err := e.RunPlan(context.Background(), ds, []byte(`{"select":[{"expr":{"kind":"column","table":"r","column":"tags"},"alias":"tags"},{"expr":{"kind":"column","table":"r","column":"doc"},"alias":"doc"}],"from":[{"table":"racks","alias":"r"}],"order_by":[{"expr":{"kind":"column","table":"r","column":"id"}}]}`))
		if err != nil {
			t.Fatalf("%s: %v", ds, err)
		}
		tags, doc := fmt.Sprint(shown.Rows[0][0]), fmt.Sprint(shown.Rows[0][1])
		for col, v := range map[string]string{"tags": tags, "doc": doc} {
			cond := `{"kind":"binary","op":"=","left":{"kind":"cast","expr":{"kind":"column","table":"r","column":"` + col + `"},"type":"text"},"right":{"kind":"literal","value":` + strconvQuote(v) + `}}`
			res, err := e.RunPlan(context.Background(), ds, []byte(`{"select":[{"expr":{"kind":"column","table":"r","column":"id"},"alias":"id"}],"from":[{"table":"racks","alias":"r"}],"where":`+cond+`}`))
			if err != nil {
				t.Errorf("%s %s: %v", ds, col, err)
				continue
			}
			if got := fmt.Sprint(res.Rows); got != "[[1]]" {
				t.Errorf("%s: %s cast to text = %s (as shown) found %s, want [[1]]\n%s", ds, col, v, got, res.SQL)
			}
		}
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }
