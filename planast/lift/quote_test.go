package lift

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// TestDoubleQuotedTokens checks SQLite's rule, decided per token against
// the schema: a double-quoted name that resolves to a column in scope (or
// an output alias where one may be named, or stands next to a dot) is an
// identifier; any other is a string literal.
func TestDoubleQuotedTokens(t *testing.T) {
	cases := []liftCase{
		{"string", `SELECT count(*) FROM singer WHERE country = "France"`,
			`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"count"}],"from":[{"table":"singer","alias":"t1"}],
			  "where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Country"},"right":{"kind":"literal","type":"string","value":"France"}}}`},
		{"column", `SELECT "name" FROM singer WHERE "Country" = 'France'`,
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],
			  "where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Country"},"right":{"kind":"literal","type":"string","value":"France"}}}`},
		{"next to a dot", `SELECT "T1"."Name" FROM singer AS T1`,
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}]}`},
		{"output alias", `SELECT name AS "n" FROM singer WHERE "n" LIKE 'A%' ORDER BY "n"`,
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"n"}],"from":[{"table":"singer","alias":"t1"}],
			  "where":{"kind":"like","expr":{"kind":"column","table":"t1","column":"Name"},"pattern":{"kind":"literal","type":"string","value":"A%"},"case_insensitive":true},
			  "order_by":[{"expr":{"kind":"column","column":"n"},"nulls":"first"}]}`},
		{"outer column", `SELECT name FROM stadium WHERE EXISTS (SELECT 1 FROM concert WHERE concert_name = "Name")`,
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"stadium","alias":"t1"}],
			  "where":{"kind":"exists","subquery":{"select":[{"expr":{"kind":"literal","type":"integer","value":1},"alias":"expr_1"}],"from":[{"table":"concert","alias":"t2"}],
			    "where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t2","column":"concert_Name"},"right":{"kind":"column","table":"t1","column":"Name"}}}}}`},
		{"table name is no column", `SELECT count(*) FROM singer WHERE country = "stadium"`,
			`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"count"}],"from":[{"table":"singer","alias":"t1"}],
			  "where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Country"},"right":{"kind":"literal","type":"string","value":"stadium"}}}`},
		{"empty", `SELECT count(*) FROM singer WHERE country = ""`,
			`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"count"}],"from":[{"table":"singer","alias":"t1"}],
			  "where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Country"},"right":{"kind":"literal","type":"string","value":""}}}`},
		{"quotes and long text", `SELECT count(*) FROM singer WHERE name = "O'Brien ""the"" singer of a name longer than sixty-three bytes in all"`,
			`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"count"}],"from":[{"table":"singer","alias":"t1"}],
			  "where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Name"},"right":{"kind":"literal","type":"string","value":"O'Brien \"the\" singer of a name longer than sixty-three bytes in all"}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkLift(t, c, DialectSQLite) })
	}
}

// TestQuotedNotString checks the tokens that never become strings: a
// backtick or bracket identifier, and any double-quoted name in
// PostgreSQL.
func TestQuotedNotString(t *testing.T) {
	for _, c := range []struct{ sql, dialect string }{
		{"SELECT count(*) FROM singer WHERE country = `France`", DialectSQLite},
		{"SELECT count(*) FROM singer WHERE country = [France]", DialectSQLite},
		{`SELECT count(*) FROM singer WHERE country = "France"`, DialectPostgres},
	} {
		_, err := Lift(c.sql, c.dialect, cat)
		var le *Error
		if !errors.As(err, &le) || !strings.Contains(le.Msg, "France") {
			t.Errorf("Lift(%q, %s) = %v; want an unknown-column error", c.sql, c.dialect, err)
		}
	}
}

// TestLiftPostgres covers what differs in the postgres dialect.
func TestLiftPostgres(t *testing.T) {
	cases := []liftCase{
		{"case-sensitive like, nulls last", `SELECT name FROM singer WHERE name LIKE 'J%' ORDER BY age`,
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],
			  "where":{"kind":"like","expr":{"kind":"column","table":"t1","column":"Name"},"pattern":{"kind":"literal","type":"string","value":"J%"}},
			  "order_by":[{"expr":{"kind":"column","table":"t1","column":"Age"}}]}`},
		{"lower like lower", `SELECT name FROM singer WHERE lower(name) LIKE lower('%Jo\_%') ORDER BY age DESC`,
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],
			  "where":{"kind":"like","expr":{"kind":"column","table":"t1","column":"Name"},"pattern":{"kind":"literal","type":"string","value":"%Jo\\_%"},"case_insensitive":true},
			  "order_by":[{"expr":{"kind":"column","table":"t1","column":"Age"},"direction":"desc","nulls":"first"}]}`},
		{"ilike", `SELECT name FROM singer WHERE name NOT ILIKE 'j%'`,
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],
			  "where":{"kind":"like","expr":{"kind":"column","table":"t1","column":"Name"},"pattern":{"kind":"literal","type":"string","value":"j%"},"case_insensitive":true,"negated":true}}`},
		{"extract and ::", `SELECT id::text FROM invoice WHERE EXTRACT(YEAR FROM invoicedate) = 2021 AND date_trunc('month', duedate) = '2021-02-01'`,
			`{"select":[{"expr":{"kind":"cast","expr":{"kind":"column","table":"t1","column":"Id"},"type":"text"},"alias":"expr_1"}],"from":[{"table":"invoice","alias":"t1"}],
			  "where":{"kind":"binary","op":"and",
			    "left":{"kind":"binary","op":"=","left":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","type":"string","value":"year"},{"kind":"column","table":"t1","column":"InvoiceDate"}]},"right":{"kind":"literal","type":"integer","value":2021}},
			    "right":{"kind":"binary","op":"=","left":{"kind":"func","name":"DATE_TRUNC","args":[{"kind":"literal","type":"string","value":"month"},{"kind":"column","table":"t1","column":"DueDate"}]},"right":{"kind":"literal","type":"string","value":"2021-02-01"}}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkLift(t, c, DialectPostgres) })
	}
	for _, c := range []struct{ sql, construct string }{
		{"SELECT name FROM stadium UNION SELECT name FROM singer INTERSECT SELECT concert_name FROM concert", "set operations grouped"},
		{"SELECT CAST(total AS INTEGER) FROM invoice", "PostgreSQL rounds"},
		{"SELECT CAST(name AS varchar(3)) FROM singer", "with a length"},
	} {
		_, err := Lift(c.sql, DialectPostgres, cat)
		var un *Unsupported
		if !errors.As(err, &un) || !strings.Contains(un.Construct, c.construct) {
			t.Errorf("Lift(%q) = %v; want *Unsupported naming %q", c.sql, err, c.construct)
		}
	}
}

// TestLiftErrors checks *Error for SQL that is not a query of the catalog.
func TestLiftErrors(t *testing.T) {
	for _, c := range []struct {
		sql, msg string
		pos      int
	}{
		{"SELECT name FROM singer WHERE", "syntax error", 29},
		{"SELECT nope FROM singer", `no column "nope"`, 7},
		{"SELECT name FROM nope", `no table "nope"`, 17},
		{"SELECT T9.name FROM singer AS T1", `no table or alias "T9"`, 7},
		{"SELECT name FROM singer; SELECT 1", "exactly one statement", -1},
		{"DELETE FROM singer", "only a SELECT", -1},
		// statements the PostgreSQL parser does not know: its "syntax
		// error at or near PRAGMA" sent the user looking for a typo
		{"PRAGMA table_info(singer)", "only a SELECT statement can be lifted (this one is PRAGMA)", 0},
		{"-- the file\n  attach database 'x.db' AS x", "only a SELECT statement can be lifted (this one is ATTACH)", 14},
		{"SUMMARIZE singer", "only a SELECT statement can be lifted (this one is SUMMARIZE)", 0},
		{"SELECT T1.name FROM singer AS T1 JOIN stadium AS T2 ON T1.age = T2.capacity WHERE name = 'x'", "ambiguous", 82},
		{"SELECT `name` FROM singer WHERE age == 3 AND x = 1", `no column "x"`, 45},
	} {
		_, err := Lift(c.sql, DialectSQLite, cat)
		var le *Error
		if !errors.As(err, &le) {
			t.Errorf("Lift(%q) = %v; want *Error", c.sql, err)
			continue
		}
		if !strings.Contains(le.Msg, c.msg) || le.Pos != c.pos {
			t.Errorf("Lift(%q): %q at %d; want %q at %d", c.sql, le.Msg, le.Pos, c.msg, c.pos)
		}
	}
	if _, err := Lift("SELECT 1", "mysql", cat); err == nil {
		t.Error("an unknown dialect was accepted")
	}
}

// TestUnsupportedError checks the error text names the construct.
func TestUnsupportedError(t *testing.T) {
	e := &Unsupported{Construct: "GROUP_CONCAT", Pos: 7}
	if !strings.Contains(e.Error(), "GROUP_CONCAT") || !strings.Contains(e.Error(), "7") {
		t.Errorf("Error() = %q", e.Error())
	}
	var _ error = (*Error)(nil)
	_ = planast.Kinds
}
