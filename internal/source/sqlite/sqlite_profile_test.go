package sqlite

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"

	"github.com/nl2sql/nl2sql/planast"
)

func TestProfileChinook(t *testing.T) {
	s := openTest(t, sourcetest.SharedPath(t, "data/chinook/Chinook_Sqlite.sqlite"), source.Options{})
	snap := sourcetest.Profiled(t, s)
	inv, _ := snap.Lookup("", "Invoice")
	if inv.RowCount == nil || *inv.RowCount != 412 {
		t.Errorf("Invoice row count %v", inv.RowCount)
	}
	tests := []struct {
		table, column, want string
	}{
		// A timestamp column: range in the result encoding, most frequent values.
		{"Invoice", "InvoiceDate", `{"distinct_count":354,"null_fraction":0,"min":"2021-01-01 00:00:00","max":"2025-12-22 00:00:00",` +
			`"sample_values":["2021-02-01 00:00:00","2021-03-04 00:00:00","2021-04-04 00:00:00","2021-05-05 00:00:00","2021-06-05 00:00:00"]}`},
		// A decimal column: range, then the 5 most frequent totals.
		{"Invoice", "Total", `{"distinct_count":23,"null_fraction":0,"min":0.99,"max":25.86,"sample_values":[1.98,3.96,5.94,0.99,8.91]}`},
		// Text with ≤ 50 distinct values: all of them, sorted (NULLs excluded).
		{"Invoice", "BillingCountry", ""},
		// Text with more: the 5 most frequent, ties broken by value.
		{"Track", "Composer", `{"distinct_count":853,"null_fraction":0.2789038,` +
			`"sample_values":["Steve Harris","U2","Jagger/Richards","Billy Corgan","Kurt Cobain"]}`},
		// A text column of ISO timestamps is recognised as temporal.
		{"Employee", "BirthDate", ""},
	}
	for _, tt := range tests {
		got := sourcetest.ProfileJSON(t, snap, tt.table, tt.column)
		if tt.want != "" && !jsonNear(got, tt.want) {
			t.Errorf("%s.%s profile\n got %s\nwant %s", tt.table, tt.column, got, tt.want)
		}
	}
	country, _ := inv.Column("BillingCountry")
	if p := country.Profile; !p.AllValues || len(p.SampleValues) != 24 || p.SampleValues[0] != "Argentina" || p.Min != nil {
		t.Errorf("BillingCountry profile %+v", p)
	}
	state, _ := inv.Column("BillingState")
	if p := state.Profile; !p.AllValues || len(p.SampleValues) != 25 || p.NullFraction < 0.49 || p.NullFraction > 0.5 {
		t.Errorf("BillingState profile %+v", p)
	}
	emp, _ := snap.Lookup("", "Employee")
	if c, _ := emp.Column("BirthDate"); c.Type != planast.TypeTimestamp || c.Profile.Min != "1947-09-19 00:00:00" {
		t.Errorf("BirthDate %+v %+v", c, c.Profile)
	}
}

// jsonNear compares two JSON texts, numbers to 6 significant digits.
func jsonNear(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return near(x, y)
}

func near(x, y any) bool {
	switch xv := x.(type) {
	case float64:
		yv, ok := y.(float64)
		d := xv - yv
		return ok && d < 1e-6 && d > -1e-6
	case []any:
		yv, ok := y.([]any)
		if !ok || len(xv) != len(yv) {
			return false
		}
		for i := range xv {
			if !near(xv[i], yv[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok || len(xv) != len(yv) {
			return false
		}
		for k := range xv {
			if !near(xv[k], yv[k]) {
				return false
			}
		}
		return true
	}
	return x == y
}

func TestProfileShapes(t *testing.T) {
	p := sourcetest.TempDB(t,
		`CREATE TABLE t (id INTEGER PRIMARY KEY, d TEXT, ts TEXT, mixed TEXT, flag BOOLEAN, data BLOB, amount NUMERIC(10,2), born DATE)`,
		`INSERT INTO t VALUES
			(1, '2024-01-02', '2024-01-02 10:00:00', '2024-01-02', 1, x'00', 1.5, '2001-02-03'),
			(2, '2023-12-31', '2024-01-02T11:00', 'soon', 0, x'01', 2.25, '1999-12-31'),
			(3, NULL, '2024-01-03', NULL, 1, NULL, NULL, NULL)`,
		`CREATE TABLE empty (a TEXT, b INTEGER)`,
		`CREATE VIEW v AS SELECT * FROM t`,
	)
	s := openTest(t, p, source.Options{})
	snap := sourcetest.Profiled(t, s)
	tests := []struct {
		table, column, want string
	}{
		{"t", "id", `{"distinct_count":3,"null_fraction":0,"min":1,"max":3,"sample_values":[1,2,3],"all_values":true}`},
		{"t", "d", `{"distinct_count":2,"null_fraction":0.3333333333333333,"min":"2023-12-31","max":"2024-01-02",` +
			`"sample_values":["2023-12-31","2024-01-02"],"all_values":true,"temporal":"date"}`},
		{"t", "ts", `{"distinct_count":3,"null_fraction":0,"min":"2024-01-02 10:00:00","max":"2024-01-03",` +
			`"sample_values":["2024-01-02 10:00:00","2024-01-02T11:00","2024-01-03"],"all_values":true,"temporal":"timestamp",` +
			`"timestamp_spellings":{"t":1,"t_example":"2024-01-02T11:00","space":1,"space_example":"2024-01-02 10:00:00"}}`},
		// one date among the samples is enough to count what a cast to date loses
		{"t", "mixed", `{"distinct_count":2,"null_fraction":0.3333333333333333,"sample_values":["2024-01-02","soon"],"all_values":true,` +
			`"cast_nulls":[{"to":"date","invalid":1,"invalid_example":"soon"},{"to":"timestamp","invalid":1,"invalid_example":"soon"}]}`},
		{"t", "flag", `{"distinct_count":2,"null_fraction":0,"sample_values":[true,false],"all_values":true}`},
		{"t", "data", `{"distinct_count":2,"null_fraction":0.3333333333333333}`},
		{"t", "amount", `{"distinct_count":2,"null_fraction":0.3333333333333333,"min":1.50,"max":2.25,"sample_values":[1.50,2.25],"all_values":true}`},
		{"t", "born", `{"distinct_count":2,"null_fraction":0.3333333333333333,"min":"1999-12-31","max":"2001-02-03",` +
			`"sample_values":["1999-12-31","2001-02-03"],"all_values":true}`},
		{"empty", "a", `{"distinct_count":0,"null_fraction":0}`},
		{"empty", "b", `{"distinct_count":0,"null_fraction":0}`},
	}
	for _, tt := range tests {
		if got := sourcetest.ProfileJSON(t, snap, tt.table, tt.column); got != tt.want {
			t.Errorf("%s.%s profile\n got %s\nwant %s", tt.table, tt.column, got, tt.want)
		}
	}
	v, _ := snap.Lookup("", "v")
	if v.RowCount != nil || v.Columns[0].Profile != nil {
		t.Error("a view was profiled")
	}
	e, _ := snap.Lookup("", "empty")
	if e.RowCount == nil || *e.RowCount != 0 {
		t.Errorf("empty row count %v", e.RowCount)
	}
}

// A profile describes a column's values of its type: 'abc' in an INTEGER
// column is not its largest value (text sorts above numbers), and
// 2024-02-30 is no date. Such values are counted (they read as NULL in
// plans, render.ReadAs) and the least is kept as an example.
func TestProfileCountsValuesNotOfTheType(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE o (id INTEGER PRIMARY KEY, qty INTEGER, day DATE, note TEXT)",
		"INSERT INTO o VALUES (1, 10, '2024-01-05', 'x'), (2, 'abc', '2024-02-30', 'y'), (3, 20, 'n/a', 'z'), (4, 'zz', '2024-03-01', NULL)")
	s := openTest(t, db, source.Options{})
	snap := sourcetest.Profiled(t, s)
	for _, c := range []struct{ column, want string }{
		{"qty", `"min":10,"max":20`},
		{"qty", `"invalid":2,"invalid_example":"abc"`},
		{"day", `"min":"2024-01-05","max":"2024-03-01"`},
		{"day", `"invalid":2,"invalid_example":"2024-02-30"`},
	} {
		if got := sourcetest.ProfileJSON(t, snap, "o", c.column); !strings.Contains(got, c.want) {
			t.Errorf("%s profile %s, want %s", c.column, got, c.want)
		}
	}
	for _, clean := range []string{"id", "note"} {
		if got := sourcetest.ProfileJSON(t, snap, "o", clean); strings.Contains(got, "invalid") {
			t.Errorf("%s: a clean column counted invalid values: %s", clean, got)
		}
	}
}
