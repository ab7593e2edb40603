package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Threat: SQLite stores 'abc' in an INTEGER column and 'n/a' or
// 2024-02-30 in a DATE column (a spreadsheet import, a form that took
// anything). SQLite then computes with them: AVG counts 'abc' as 0, 'abc'
// is greater than every number so it passes qty > 5 and is the MAX, and
// its date functions read 2024-02-30 as some day of March. The same plan
// on PostgreSQL or DuckDB could never see such a value. A user averaging
// quantities gets a wrong number and no sign of why. Such values must
// read as NULL in every plan (one meaning on every engine), the result
// must say how many there were and show one, and clean columns must
// render as before (no guard, so their indexes still serve).
func TestValuesNotOfTheColumnsTypeReadAsNull(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, qty INTEGER, price DECIMAL(10,2), day DATE, region TEXT)",
		"INSERT INTO orders VALUES (1, 10, 1.5, '2024-01-05', 'north'), (2, 20, 2.5, '2024-02-30', 'north'),"+
			" (3, 'abc', 'n/a', 'n/a', 'south'), (4, NULL, 3.5, 45000, 'south'), (5, 30, 4.5, '2025-06-01 10:00:00', 'south')")
	e := airEngine(t, db, nil)
	ctx := context.Background()
	one := func(sel string, where string) *Result {
		t.Helper()
		p := `{"select":[` + sel + `],"from":[{"table":"orders","alias":"o"}]`
		if where != "" {
			p += `,"where":` + where
		}
		res, err := e.RunPlan(ctx, "air", []byte(p+`}`))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	col := func(c string) string { return `{"kind":"column","table":"o","column":"` + c + `"}` }
	agg := func(f, c, alias string) string {
		return `{"expr":{"kind":"func","name":"` + f + `","args":[` + col(c) + `]},"alias":"` + alias + `"}`
	}
	gt := func(c, v string) string {
		return `{"kind":"binary","op":">","left":` + col(c) + `,"right":{"kind":"literal","value":` + v + `}}`
	}

	res := one(agg("AVG", "qty", "a")+","+agg("MAX", "qty", "m")+","+agg("SUM", "price", "s"), "")
	if got := fmt.Sprint(res.Rows[0]); got != "[20 30 12.00]" {
		t.Errorf("AVG(qty), MAX(qty), SUM(price) = %s, want 20 30 12.00 ('abc' and 'n/a' read as NULL; SQLite alone gives 15, \"abc\", 12)", got)
	}
	w := warningWith(res.Warnings, `"qty" holds`)
	if !strings.Contains(w, "1 value that is not an integer") || !strings.Contains(w, `"abc"`) || !strings.Contains(w, "NULL") {
		t.Errorf("warnings %q: want one naming qty's 1 value that is not an integer, such as \"abc\"", res.Warnings)
	}
	if warningWith(res.Warnings, `"price" holds`) == "" {
		t.Errorf("warnings %q: want one for price's 'n/a'", res.Warnings)
	}

	res = one(`{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}`, gt("qty", "5"))
	if fmt.Sprint(res.Rows[0]) != "[3]" {
		t.Errorf("COUNT(*) WHERE qty > 5 = %s, want 3 ('abc' is no number above 5)", fmt.Sprint(res.Rows[0]))
	}

	// dates: 2024-02-30, 'n/a' and 45000 are no dates; the year of each is NULL
	grouped, err := e.RunPlan(ctx, "air", []byte(`{"select":[{"expr":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"year"},`+col("day")+`]},"alias":"y"},`+
		`{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"orders","alias":"o"}],"group_by":[{"kind":"column","column":"y"}],"order_by":[{"expr":{"kind":"column","column":"y"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(grouped.Rows); got != "[[<nil> 3] [2024 1] [2025 1]]" && got != "[[2024 1] [2025 1] [<nil> 3]]" {
		t.Errorf("orders per year = %s, want 2024: 1, 2025: 1 and 3 without a valid date", got)
	}
	if w := warningWith(grouped.Warnings, `"day" holds 3 values`); !strings.Contains(w, "valid dates") {
		t.Errorf("warnings %q: want one naming day's 3 values that are not valid dates", grouped.Warnings)
	}

	// a clean column renders as before
	res = one(`{"expr":`+col("id")+`,"alias":"id"}`, gt("id", "3"))
	if strings.Contains(res.SQL, "typeof") || len(res.Warnings) != 0 {
		t.Errorf("a column of clean values was guarded or warned about:\n%s\n%q", res.SQL, res.Warnings)
	}

	// a caller behind a row filter is told there are such values, not how
	// many or what they are (they may be in rows it cannot read)
	ne, nctx := northCaller(t, db, "air.main.orders", "air.main.orders")
	filtered, err := ne.RunPlan(nctx, "air", []byte(`{"select":[`+agg("AVG", "qty", "a")+`],"from":[{"table":"orders","alias":"o"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	w = warningWith(filtered.Warnings, `"qty" holds`)
	if w == "" || strings.Contains(w, "abc") || strings.Contains(w, "1 value") {
		t.Errorf("row-filtered caller's warnings %q: want that qty holds such values, without their count or an example", filtered.Warnings)
	}
}
