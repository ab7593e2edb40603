package engine

import (
	"fmt"
	"strings"
	"testing"
)

// The threat: a host reorders day-first timestamps into ISO with SUBSTR
// and CONCAT, as the date warning shows, and casts the result; SQLite's
// cast tests named the reordered text some thirty times, so a short plan
// rendered to 39 kB of SQL, too long to show beside its rows, and the
// host could no longer read what ran. A long operand is named once (a
// subquery over it on SQLite), and the answer is the same on every engine.
func TestACastOfALongExpressionNamesItOnce(t *testing.T) {
	db := []string{
		"CREATE TABLE bookings (id INTEGER PRIMARY KEY, start_at TEXT, end_at TEXT)",
		"INSERT INTO bookings VALUES (1, '01/03/2025 08:00', '01/03/2025 10:30'), (2, '2025-03-02 09:00', '2025-03-02 10:00'), (3, '15/03/2025 13:00', '2025-03-15T16:00:00Z')",
	}
	reordered := func(col string) string {
		c := `{"kind":"column","table":"b","column":"` + col + `"}`
		sub := func(from, n int) string {
			return fmt.Sprintf(`{"kind":"func","name":"SUBSTR","args":[%s,{"kind":"literal","value":%d},{"kind":"literal","value":%d}]}`, c, from, n)
		}
		dash := `{"kind":"literal","value":"-"}`
		return `{"kind":"cast","type":"timestamp","expr":{"kind":"case","whens":[{"when":{"kind":"like","expr":` + c + `,"pattern":{"kind":"literal","value":"__/__/____%"}},` +
			`"then":{"kind":"func","name":"CONCAT","args":[` + sub(7, 4) + `,` + dash + `,` + sub(4, 2) + `,` + dash + `,` + sub(1, 2) + `,` + sub(11, 6) + `]}}],"else":` + c + `}}`
	}
	plan := `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"func","name":"ELAPSED_SECONDS","args":[` + reordered("end_at") + `,` + reordered("start_at") + `]}]},"alias":"s"}],"from":[{"table":"bookings","alias":"b"}]}`
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			res := runAir(t, specEngine(t, en.spec(t)), plan)
			if got := strings.TrimSuffix(fmt.Sprint(res.Rows), ".0]]"); got != "[[23400]]" && got != "[[23400" {
				t.Errorf("rows %v, want 23400 seconds (2.5 h + 1 h + 2.5 h)", res.Rows)
			}
			if len(res.SQL) > 12000 {
				t.Errorf("the SQL is %d bytes, want the long operands named once", len(res.SQL))
			}
			// grouped by such a cast, and ordered by it
			day := `{"kind":"func","name":"DATE_TRUNC","args":[{"kind":"literal","value":"day"},` + reordered("start_at") + `]}`
			res = runAir(t, specEngine(t, en.spec(t)), `{"select":[{"expr":`+day+`,"alias":"d"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"bookings","alias":"b"}],"group_by":[`+day+`],"order_by":[{"expr":{"kind":"column","column":"d"}}]}`)
			if got := fmt.Sprint(res.Rows); !strings.Contains(got, "2025-03-01") || !strings.Contains(got, "2025-03-15") || len(res.Rows) != 3 {
				t.Errorf("grouped by the day: %v, want the three days", got)
			}
		})
	}
}
