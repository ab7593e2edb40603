package render_test

import (
	"database/sql"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// SQLite keeps dates and timestamps as ISO text of whatever shape the
// loader wrote: Northwind's DATETIME columns hold '2016-07-04', others
// '2016-07-04 00:00:00' or '2016-07-04T00:00:00.000'. Compared as text,
// '2017-01-01' < '2017-01-01 00:00:00', so a year filter lost its first day
// and gained the next year's first. Every comparison of a date or
// timestamp must mean the same whatever the stored shape.

var shapeCatalog = memCatalog{
	table("ev", []string{"id integer", "ts timestamp", "d date"}),
}

// Each row's ts and d are the same instant (or day) written in a different
// shape; 9 holds NULL, 10 text that is no date.
var shapeRows = map[string][]string{"ev": {
	`1, '2017-01-01', '2017-01-01'`,
	`2, '2017-01-01 00:00:00', '2017-01-01 00:00:00'`,
	`3, '2017-01-01T00:00:00', '2017-01-01T00:00:00'`,
	`4, '2017-01-01 00:00:00.000', '2017-01-01'`,
	`5, '2016-12-31 23:59:59.999', '2016-12-31'`,
	`6, '2017-12-31T23:59:59.5', '2017-12-31 23:59:59'`,
	`7, '2018-01-01', '2018-01-01'`,
	`8, '2018-01-01T00:00:00', '2018-01-01T00:00:00'`,
	`9, NULL, NULL`,
	`10, 'not a date', 'not a date'`,
}}

func TestSQLiteTemporalShapes(t *testing.T) {
	db := openSQLite(t, shapeCatalog, shapeRows)
	date := func(s string) string { return `{"kind":"literal","type":"date","value":"` + s + `"}` }
	ts := func(s string) string { return `{"kind":"literal","type":"timestamp","value":"` + s + `"}` }
	str := func(s string) string { return `{"kind":"literal","value":"` + s + `"}` }
	colTS, colD := `{"kind":"column","column":"ts"}`, `{"kind":"column","column":"d"}`
	cmp := func(op, l, r string) string {
		return `{"kind":"binary","op":"` + op + `","left":` + l + `,"right":` + r + `}`
	}
	for _, tc := range []struct {
		name, where string
		// hand is the same filter written by hand, comparing instants
		// (julianday) so that the stored shape cannot matter.
		hand string
	}{
		{"ts between dates (whole days)", `{"kind":"between","expr":` + colTS + `,"low":` + date("2017-01-01") + `,"high":` + date("2017-12-31") + `}`,
			`julianday(ts) >= julianday('2017-01-01') AND julianday(ts) < julianday('2018-01-01')`},
		{"ts between date strings", `{"kind":"between","expr":` + colTS + `,"low":` + str("2017-01-01") + `,"high":` + str("2017-12-31") + `}`,
			`julianday(ts) >= julianday('2017-01-01') AND julianday(ts) < julianday('2018-01-01')`},
		{"ts between timestamps", `{"kind":"between","expr":` + colTS + `,"low":` + ts("2017-01-01 00:00:00") + `,"high":` + ts("2017-12-31 23:59:59.5") + `}`,
			`julianday(ts) BETWEEN julianday('2017-01-01 00:00:00') AND julianday('2017-12-31 23:59:59.5')`},
		{"ts = timestamp", cmp("=", colTS, ts("2017-01-01 00:00:00")), `julianday(ts) = julianday('2017-01-01')`},
		{"timestamp = ts", cmp("=", ts("2017-01-01T00:00:00"), colTS), `julianday(ts) = julianday('2017-01-01')`},
		{"ts != timestamp", cmp("!=", colTS, ts("2017-01-01 00:00:00")), `julianday(ts) <> julianday('2017-01-01')`},
		{"ts = date (its day)", cmp("=", colTS, date("2017-01-01")), `julianday(ts) >= julianday('2017-01-01') AND julianday(ts) < julianday('2017-01-02')`},
		{"ts < date", cmp("<", colTS, date("2017-01-01")), `julianday(ts) < julianday('2017-01-01')`},
		{"ts > date", cmp(">", colTS, date("2017-12-31")), `julianday(ts) >= julianday('2018-01-01')`},
		{"ts >= timestamp with a fraction", cmp(">=", colTS, ts("2017-12-31 23:59:59.25")), `julianday(ts) >= julianday('2017-12-31 23:59:59.25')`},
		{"ts > fine fraction", cmp(">", colTS, ts("2016-12-31 23:59:59.9989")), `julianday(ts) > julianday('2016-12-31 23:59:59.9989')`},
		{"ts in timestamps", `{"kind":"in","expr":` + colTS + `,"list":[` + ts("2017-01-01 00:00:00") + `,` + ts("2018-01-01 00:00:00") + `]}`,
			`julianday(ts) IN (julianday('2017-01-01'), julianday('2018-01-01'))`},
		{"ts not in timestamps", `{"kind":"in","expr":` + colTS + `,"list":[` + ts("2017-01-01 00:00:00") + `],"negated":true}`,
			`julianday(ts) NOT IN (julianday('2017-01-01'))`},
		{"ts in dates (whole days)", `{"kind":"in","expr":` + colTS + `,"list":[` + date("2018-01-01") + `]}`,
			`julianday(ts) >= julianday('2018-01-01') AND julianday(ts) < julianday('2018-01-02')`},
		{"d = date", cmp("=", colD, date("2017-01-01")), `date(d) = '2017-01-01'`},
		{"d between dates", `{"kind":"between","expr":` + colD + `,"low":` + date("2017-01-01") + `,"high":` + date("2017-12-31") + `}`,
			`date(d) >= '2017-01-01' AND date(d) <= '2017-12-31'`},
		{"d in dates", `{"kind":"in","expr":` + colD + `,"list":[` + str("2017-12-31") + `,` + date("2018-01-01") + `]}`,
			`date(d) IN ('2017-12-31', '2018-01-01')`},
		{"d <= date", cmp("<=", colD, date("2017-01-01")), `date(d) <= '2017-01-01'`},
		{"ts = d (column against column: d's whole day)", cmp("=", colTS, colD), `julianday(ts) >= julianday(date(d)) AND julianday(ts) < julianday(date(d, '+1 day'))`},
		{"d < date_add(d)", cmp("<", colD, `{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"day"},{"kind":"literal","value":1},`+colD+`]}`),
			`julianday(d) IS NOT NULL`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := col(semShapeRun(t, db, tc.where), 0)
			want, err := queryAll(db, "SELECT id FROM ev WHERE "+tc.hand+" ORDER BY id")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, col(want, 0)) {
				t.Errorf("ids %v, want %v (by hand: %s)", got, col(want, 0), tc.hand)
			}
			if len(got) == 0 {
				t.Errorf("no rows: the case tests nothing")
			}
		})
	}
}

// semShapeRun runs SELECT id FROM ev WHERE where ORDER BY id on SQLite.
func semShapeRun(t *testing.T, db *sql.DB, where string) [][]string {
	t.Helper()
	p := `{"select":[{"expr":{"kind":"column","column":"id"},"alias":"id"}],"from":[{"table":"ev","alias":"e"}],"where":` +
		where + `,"order_by":[{"expr":{"kind":"column","column":"id"}}]}`
	s := renderOn(t, shapeCatalog, p, sqliteDialect)
	rows, err := queryAll(db, s)
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	return rows
}

// renderOn validates plan p against cat and renders it in d.
func renderOn(t *testing.T, cat memCatalog, p string, d render.Dialect) string {
	t.Helper()
	q, err := planast.Decode([]byte(p), planast.Limits{})
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, p)
	}
	v, err := validate.Plan(q, cat, validate.Options{})
	if err != nil {
		t.Fatalf("validate: %v\n%s", err, p)
	}
	s, err := render.SQL(v.Plan, d, render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSQLiteTemporalOnlyThere: DuckDB and PostgreSQL columns are typed, so
// their comparisons stay as they were, without normalising calls.
func TestSQLiteTemporalOnlyThere(t *testing.T) {
	where := `{"kind":"between","expr":{"kind":"column","column":"ts"},"low":{"kind":"literal","type":"date","value":"2017-01-01"},"high":{"kind":"literal","type":"date","value":"2017-12-31"}}`
	p := `{"select":[{"expr":{"kind":"column","column":"id"},"alias":"id"}],"from":[{"table":"ev","alias":"e"}],"where":` + where + `}`
	for _, d := range dialects() {
		s := renderOn(t, shapeCatalog, p, d)
		has := strings.Contains(s, "strftime")
		if has != (d.Name() == "sqlite") {
			t.Errorf("%s: normalising call present=%v:\n%s", d.Name(), has, s)
		}
	}
}
