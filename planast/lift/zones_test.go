package lift

import (
	"errors"
	"strings"
	"testing"
)

// SQL written for PostgreSQL reads times with their zone: a user who
// lifts a query converting instants to local time, counting the last 30
// days, or counting the rows of a condition must get the plan that means
// the same, not a refusal that only says to rewrite the SQL.
func TestLiftZonesIntervalsAndFilters(t *testing.T) {
	visit := `"from":[{"table":"visit","alias":"t1"}]`
	starts := `{"kind":"column","table":"t1","column":"StartsAt"}`
	london := `{"kind":"literal","type":"string","value":"Europe/London"}`
	invoiceDate := `{"kind":"column","table":"t1","column":"InvoiceDate"}`
	cases := []struct {
		dialect string
		liftCase
	}{
		{DialectPostgres, liftCase{"AT TIME ZONE of a timestamptz column",
			"SELECT startsat AT TIME ZONE 'Europe/London' AS local FROM visit",
			`{"select":[{"expr":{"kind":"func","name":"AT_TIME_ZONE","args":[` + starts + `,` + london + `]},"alias":"local"}],` + visit + `}`}},
		{DialectPostgres, liftCase{"timezone() of a timestamptz column and a zone column",
			"SELECT timezone(zone, startsat) AS local FROM visit",
			`{"select":[{"expr":{"kind":"func","name":"AT_TIME_ZONE","args":[` + starts + `,{"kind":"column","table":"t1","column":"Zone"}]},"alias":"local"}],` + visit + `}`}},
		{DialectDuckDB, liftCase{"DuckDB AT TIME ZONE of a TIMESTAMPTZ column",
			"SELECT startsat AT TIME ZONE 'Europe/London' AS local FROM visit",
			`{"select":[{"expr":{"kind":"func","name":"AT_TIME_ZONE","args":[` + starts + `,` + london + `]},"alias":"local"}],` + visit + `}`}},
		{DialectPostgres, liftCase{"a timestamp without zone read in UTC first",
			"SELECT (invoicedate AT TIME ZONE 'UTC') AT TIME ZONE 'Europe/London' AS local FROM invoice",
			`{"select":[{"expr":{"kind":"func","name":"AT_TIME_ZONE","args":[` + invoiceDate + `,` + london + `]},"alias":"local"}],"from":[{"table":"invoice","alias":"t1"}]}`}},
		{DialectPostgres, liftCase{"a timestamptz column of a derived table",
			"SELECT s AT TIME ZONE 'Europe/London' AS local FROM (SELECT startsat AS s FROM visit) AS v",
			`{"select":[{"expr":{"kind":"func","name":"AT_TIME_ZONE","args":[{"kind":"column","table":"v","column":"s"},` + london + `]},"alias":"local"}],
			  "from":[{"subquery":{"select":[{"expr":` + starts + `,"alias":"s"}],` + visit + `},"alias":"v"}]}`}},
		{DialectPostgres, liftCase{"now() less 30 days",
			"SELECT id FROM visit WHERE startsat > now() - interval '30 days'",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Id"},"alias":"Id"}],` + visit + `,
			  "where":{"kind":"binary","op":">","left":` + starts + `,"right":{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"day"},{"kind":"literal","value":-30},{"kind":"func","name":"CURRENT_TIMESTAMP","args":[]}]}}}`}},
		{DialectPostgres, liftCase{"a date less a number of days is a date that many days before",
			"SELECT id FROM invoice WHERE duedate >= CURRENT_DATE - 7",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Id"},"alias":"Id"}],"from":[{"table":"invoice","alias":"t1"}],
			  "where":{"kind":"binary","op":">=","left":{"kind":"column","table":"t1","column":"DueDate"},"right":{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"day"},{"kind":"literal","value":-7},{"kind":"func","name":"CURRENT_DATE","args":[]}]}}}`}},
		{DialectDuckDB, liftCase{"DuckDB: a number of days plus a date, a date less a column of days",
			"SELECT 30 + duedate AS d, duedate - customerid AS e FROM invoice",
			`{"select":[{"expr":{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"day"},{"kind":"literal","value":30},{"kind":"column","table":"t1","column":"DueDate"}]},"alias":"d"},
			  {"expr":{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"day"},{"kind":"unary","op":"-","expr":{"kind":"column","table":"t1","column":"CustomerId"}},{"kind":"column","table":"t1","column":"DueDate"}]},"alias":"e"}],"from":[{"table":"invoice","alias":"t1"}]}`}},
		{DialectPostgres, liftCase{"intervals of weeks, years and a unit typmod; a date shifted is a timestamp",
			"SELECT interval '2 weeks' + invoicedate AS d, duedate - interval '1 year' AS e, invoicedate + interval '3' month AS f FROM invoice",
			`{"select":[{"expr":{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"day"},{"kind":"literal","value":14},` + invoiceDate + `]},"alias":"d"},
			  {"expr":{"kind":"cast","expr":{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"year"},{"kind":"literal","value":-1},{"kind":"column","table":"t1","column":"DueDate"}]},"type":"timestamp"},"alias":"e"},
			  {"expr":{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"month"},{"kind":"literal","value":3},` + invoiceDate + `]},"alias":"f"}],"from":[{"table":"invoice","alias":"t1"}]}`}},
		{DialectPostgres, liftCase{"aggregates with FILTER",
			"SELECT count(*) FILTER (WHERE fee > 10) AS n, sum(fee) FILTER (WHERE zone = 'UTC') AS s, count(DISTINCT zone) FILTER (WHERE fee > 0) AS z FROM visit",
			`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[{"kind":"case","whens":[{"when":{"kind":"binary","op":">","left":{"kind":"column","table":"t1","column":"Fee"},"right":{"kind":"literal","value":10}},"then":{"kind":"literal","value":1}}]}]},"alias":"n"},
			  {"expr":{"kind":"func","name":"SUM","args":[{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Zone"},"right":{"kind":"literal","value":"UTC"}},"then":{"kind":"column","table":"t1","column":"Fee"}}]}]},"alias":"s"},
			  {"expr":{"kind":"func","name":"COUNT","distinct":true,"args":[{"kind":"case","whens":[{"when":{"kind":"binary","op":">","left":{"kind":"column","table":"t1","column":"Fee"},"right":{"kind":"literal","value":0}},"then":{"kind":"column","table":"t1","column":"Zone"}}]}]},"alias":"z"}],` + visit + `}`}},
		{DialectPostgres, liftCase{"an offset literal compared with an instant is its UTC time",
			"SELECT id FROM visit WHERE startsat > '2024-01-01 10:00:00+02'",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Id"},"alias":"Id"}],` + visit + `,"where":{"kind":"binary","op":">","left":` + starts + `,"right":{"kind":"literal","type":"timestamp","value":"2024-01-01 08:00:00"}}}`}},
		{DialectPostgres, liftCase{"a TIMESTAMPTZ literal is its UTC time",
			"SELECT id FROM visit WHERE startsat >= TIMESTAMPTZ '2024-01-01T10:00:00-05:30'",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Id"},"alias":"Id"}],` + visit + `,"where":{"kind":"binary","op":">=","left":` + starts + `,"right":{"kind":"literal","type":"timestamp","value":"2024-01-01 15:30:00"}}}`}},
		{DialectPostgres, liftCase{"PostgreSQL drops the offset of a literal compared with a timestamp without zone",
			"SELECT id FROM invoice WHERE invoicedate > '2024-01-01 10:00:00+02:00'",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Id"},"alias":"Id"}],"from":[{"table":"invoice","alias":"t1"}],"where":{"kind":"binary","op":">","left":` + invoiceDate + `,"right":{"kind":"literal","type":"timestamp","value":"2024-01-01 10:00:00"}}}`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkLift(t, c.liftCase, c.dialect) })
	}
}

// What the plan cannot say is refused with the plan's way to say the
// nearest thing: a hint that names only "rewrite the SQL" leaves the user
// guessing.
func TestLiftZonesAndIntervalsRefusedWithTheirPlanEquivalent(t *testing.T) {
	cases := []struct{ name, dialect, sql, construct, hint string }{
		{"AT TIME ZONE of a timestamp without zone", DialectPostgres, "SELECT invoicedate AT TIME ZONE 'Europe/London' FROM invoice",
			"AT TIME ZONE of a timestamp without time zone", "write (x AT TIME ZONE 'UTC') AT TIME ZONE z, which lifts as AT_TIME_ZONE(x, z)"},
		{"AT TIME ZONE of text", DialectPostgres, "SELECT note AT TIME ZONE 'Europe/London' FROM invoice",
			"AT TIME ZONE of a text", "(CAST(x AS timestamp) AT TIME ZONE 'UTC') AT TIME ZONE z"},
		{"an interval of hours", DialectPostgres, "SELECT invoicedate - interval '2 hours' FROM invoice",
			`the interval "2 hours"`, "DATE_ADD('year'|'quarter'|'month'|'day', n, x)"},
		{"an interval of two units", DialectPostgres, "SELECT invoicedate + interval '1 year 2 months' FROM invoice",
			`the interval "1 year 2 months"`, "DATE_ADD("},
		{"an interval less a time", DialectPostgres, "SELECT interval '1 day' - invoicedate FROM invoice",
			"interval arithmetic", "DATE_ADD("},
		{"DuckDB's offset literal against a timestamp without zone", DialectDuckDB, "SELECT id FROM invoice WHERE invoicedate > '2024-01-01 10:00:00+02'",
			"a timestamp with a UTC offset", "'2024-01-01 08:00:00'"},
		{"SQLite's now()", DialectSQLite, "SELECT now() FROM invoice", "function NOW", "datetime('now')"},
		{"a timestamp less a number, an error on PostgreSQL", DialectPostgres, "SELECT id FROM invoice WHERE invoicedate >= now() - 7",
			"arithmetic on a timestamp", "x - interval '7 days'"},
		{"a number less a date", DialectPostgres, "SELECT 7 - duedate FROM invoice", "arithmetic on a date", "DATE_ADD('day', -7, x)"},
		{"a date less a number on SQLite, which reads its leading number", DialectSQLite, "SELECT duedate - 7 FROM invoice",
			"arithmetic on a date (SQLite reads its leading number)", ""},
		{"a date plus a fraction of a day", DialectDuckDB, "SELECT duedate + 1.5 FROM invoice", "arithmetic on a date", "DATE_ADD("},
		{"a timestamp plus a number on DuckDB", DialectDuckDB, "SELECT invoicedate + 1 FROM invoice",
			"arithmetic on a timestamp", "DATE_ADD("},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := Lift(c.sql, c.dialect, cat)
			var un *Unsupported
			if !errors.As(err, &un) {
				t.Fatalf("Lift(%q) = %v, %v; want *Unsupported", c.sql, q, err)
			}
			if !strings.Contains(un.Construct, c.construct) || !strings.Contains(un.Hint, c.hint) {
				t.Errorf("got %q (hint %q), want %q with a hint naming %q", un.Construct, un.Hint, c.construct, c.hint)
			}
		})
	}
}

// Threat: SQLite SQL with x AT TIME ZONE z was refused as "function
// TIMEZONE", a function the user never wrote, blaming the plan language,
// which says it as AT_TIME_ZONE, on SQLite too. The refusal names what
// was written, says SQLite's SQL has no time-zone conversion and gives the
// plan's function to write.
func TestLiftAtTimeZoneOnSQLiteSaysSQLiteHasNoZones(t *testing.T) {
	for _, c := range []struct{ sql, construct string }{
		{"SELECT startsat AT TIME ZONE 'Europe/Paris' AS t FROM visit", "AT TIME ZONE"},
		{"SELECT timezone('Europe/Paris', startsat) AS t FROM visit", "timezone(zone, x)"},
	} {
		_, err := Lift(c.sql, DialectSQLite, cat)
		var un *Unsupported
		if !errors.As(err, &un) {
			t.Fatalf("Lift(%q) = %v, want *Unsupported", c.sql, err)
		}
		todo := `{"kind":"func","name":"AT_TIME_ZONE"`
		if un.Construct != c.construct || !strings.Contains(un.Unavailable, "SQLite has no time-zone conversion") || !strings.Contains(un.Hint, todo) {
			t.Errorf("%s: construct %q, unavailable %q, hint %q; want %q, SQLite's reason and what to do", c.sql, un.Construct, un.Unavailable, un.Hint, c.construct)
		}
		if msg := err.Error(); strings.Contains(msg, "cannot express") || !strings.Contains(msg, c.construct+" is not available") {
			t.Errorf("%s: %q blames the plan language", c.sql, msg)
		}
	}
}
