package lift

import (
	"errors"
	"strings"
	"testing"
)

// SQL written the way each dialect's users write dates must lift to what
// the dialect means, or be refused with a hint that names SQL which does
// lift: a hint that points at another refusal leaves the user with
// nothing that works.
func TestLiftDateIdioms(t *testing.T) {
	sqlite := []liftCase{
		// date() returns text in SQLite: a text column compared with it
		// is a comparison of texts
		{"text column against date()", "SELECT id FROM invoice WHERE note > date('2024-02-01')",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Id"},"alias":"Id"}],"from":[{"table":"invoice","alias":"t1"}],
			  "where":{"kind":"binary","op":">","left":{"kind":"column","table":"t1","column":"Note"},"right":{"kind":"literal","type":"string","value":"2024-02-01"}}}`},
		{"text column against datetime() of a day", "SELECT id FROM invoice WHERE datetime('2024-02-01') <= note",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Id"},"alias":"Id"}],"from":[{"table":"invoice","alias":"t1"}],
			  "where":{"kind":"binary","op":"<=","left":{"kind":"literal","type":"string","value":"2024-02-01 00:00:00"},"right":{"kind":"column","table":"t1","column":"Note"}}}`},
		{"unixepoch", "SELECT datetime(id, 'unixepoch') AS t, date(id, 'unixepoch') AS d FROM invoice",
			`{"select":[{"expr":{"kind":"func","name":"FROM_EPOCH_SECONDS","args":[{"kind":"column","table":"t1","column":"Id"}]},"alias":"t"},
			  {"expr":{"kind":"cast","type":"date","expr":{"kind":"func","name":"FROM_EPOCH_SECONDS","args":[{"kind":"column","table":"t1","column":"Id"}]}},"alias":"d"}],"from":[{"table":"invoice","alias":"t1"}]}`},
		// the hour as SQLite's users take it: text of two digits, cast to
		// a number or compared with two digits; the zone's wall clock
		// through the plan's own function
		{"hour of strftime", "SELECT id FROM invoice WHERE CAST(strftime('%H', invoicedate) AS INTEGER) >= 22 AND strftime('%H', invoicedate) < '24'",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Id"},"alias":"Id"}],"from":[{"table":"invoice","alias":"t1"}],
			  "where":{"kind":"binary","op":"and","left":{"kind":"binary","op":">=","left":{"kind":"cast","type":"integer","expr":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"hour"},{"kind":"column","table":"t1","column":"InvoiceDate"}]}},"right":{"kind":"literal","value":22}},
			  "right":{"kind":"binary","op":"<","left":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"hour"},{"kind":"column","table":"t1","column":"InvoiceDate"}]},"right":{"kind":"literal","value":24}}}}`},
		{"local hour", "SELECT CAST(strftime('%H', AT_TIME_ZONE(invoicedate, 'Europe/Berlin')) AS INTEGER) AS h FROM invoice",
			`{"select":[{"expr":{"kind":"cast","type":"integer","expr":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"hour"},{"kind":"func","name":"AT_TIME_ZONE","args":[{"kind":"column","table":"t1","column":"InvoiceDate"},{"kind":"literal","type":"string","value":"Europe/Berlin"}]}]}},"alias":"h"}],"from":[{"table":"invoice","alias":"t1"}]}`},
	}
	for _, c := range sqlite {
		t.Run(c.name, func(t *testing.T) { checkLift(t, c, DialectSQLite) })
	}
	pg := []liftCase{
		{"every unit the plan has", "SELECT EXTRACT(DOW FROM invoicedate) AS d, date_part('hour', invoicedate) AS h, date_trunc('week', duedate) AS w FROM invoice",
			`{"select":[{"expr":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"dow"},{"kind":"column","table":"t1","column":"InvoiceDate"}]},"alias":"d"},
			  {"expr":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"hour"},{"kind":"column","table":"t1","column":"InvoiceDate"}]},"alias":"h"},
			  {"expr":{"kind":"func","name":"DATE_TRUNC","args":[{"kind":"literal","value":"week"},{"kind":"column","table":"t1","column":"DueDate"}]},"alias":"w"}],"from":[{"table":"invoice","alias":"t1"}]}`},
		{"to_timestamp of whole seconds", "SELECT to_timestamp(id) AS t FROM invoice",
			`{"select":[{"expr":{"kind":"func","name":"FROM_EPOCH_SECONDS","args":[{"kind":"column","table":"t1","column":"Id"}]},"alias":"t"}],"from":[{"table":"invoice","alias":"t1"}]}`},
	}
	for _, c := range pg {
		t.Run(c.name, func(t *testing.T) { checkLift(t, c, DialectPostgres) })
	}
	refused := []struct{ name, dialect, sql, construct, hint string }{
		{"sqlite cast as date", DialectSQLite, "SELECT id FROM invoice WHERE CAST(note AS date) > date('2024-02-01')", "CAST AS DATE", "date(x)"},
		{"sqlite typed literal", DialectSQLite, "SELECT id FROM invoice WHERE note > DATE '2024-02-01'", "DATE '…' literals", "text literal"},
		{"unit the plan lacks", DialectPostgres, "SELECT EXTRACT(EPOCH FROM invoicedate) FROM invoice", `the unit "epoch"`, "ELAPSED_SECONDS"},
		{"fractional seconds", DialectPostgres, "SELECT to_timestamp(total) FROM invoice", "not whole", "FROM_EPOCH_SECONDS"},
		{"strftime weekday as text", DialectSQLite, "SELECT strftime('%w', invoicedate) FROM invoice", `strftime('%w') used as text`, "CAST(strftime('%w', x) AS INTEGER)"},
		{"date modifiers", DialectSQLite, "SELECT id FROM invoice WHERE duedate > date('now', '-2 years')", `date() with the modifier "-2 years"`, "DATE_ADD"},
		{"a fraction of a day", DialectSQLite, "SELECT id FROM invoice WHERE duedate > datetime(invoicedate, '+1.5 days')", `datetime() with the modifier "+1.5 days"`, "whole days"},
		{"weekday", DialectSQLite, "SELECT id FROM invoice WHERE duedate > date(invoicedate, 'weekday 0')", "modifier", "literal"},
		{"json path", DialectPostgres, "SELECT note->>'manager' FROM invoice", "operator ->>", "LIKE"},
		{"any of an array", DialectPostgres, "SELECT id FROM invoice WHERE 'cold' = ANY(note)", "ANY/ALL", "IN (…)"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			_, err := Lift(c.sql, c.dialect, cat)
			var un *Unsupported
			if !errors.As(err, &un) {
				t.Fatalf("Lift(%q) = %v; want *Unsupported", c.sql, err)
			}
			if !strings.Contains(un.Construct, c.construct) || !strings.Contains(un.Hint, c.hint) {
				t.Errorf("Lift(%q): construct %q, hint %q; want them to name %q and %q", c.sql, un.Construct, un.Hint, c.construct, c.hint)
			}
		})
	}
}
