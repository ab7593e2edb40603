package lift

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// strftime(format, x, 'unixepoch') is how SQLite users label Unix times;
// refused as "strftime with modifiers" with the generic hint, a user had
// no plan for the most common query over such a column. It lifts as
// strftime(format, datetime(x, 'unixepoch')) does, to the letter.
func TestLiftStrftimeUnixepoch(t *testing.T) {
	for _, tc := range []struct{ name, sql, same string }{
		{"month label", "SELECT strftime('%Y-%m', id, 'unixepoch') AS m, count(*) FROM invoice GROUP BY m",
			"SELECT strftime('%Y-%m', datetime(id, 'unixepoch')) AS m, count(*) FROM invoice GROUP BY m"},
		{"year compared", "SELECT count(*) FROM invoice WHERE strftime('%Y', id, 'UnixEpoch') = '2024'",
			"SELECT count(*) FROM invoice WHERE strftime('%Y', datetime(id, 'unixepoch')) = '2024'"},
		{"day label", "SELECT strftime('%Y-%m-%d', id, 'unixepoch') AS d FROM invoice",
			"SELECT strftime('%Y-%m-%d', datetime(id, 'unixepoch')) AS d FROM invoice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := Lift(tc.same, DialectSQLite, cat)
			if err != nil {
				t.Fatalf("Lift(%q): %v", tc.same, err)
			}
			checkLift(t, liftCase{tc.name, tc.sql, string(want.Canonical())}, DialectSQLite)
		})
	}
}

// The strftime forms that do not lift are refused with a hint naming SQL
// that does, and that SQL lifts and validates: '%s' of a date compared
// with a Unix-time column reads the column with FROM_EPOCH_SECONDS
// instead, and other modifiers name DATE_ADD and FROM_EPOCH_SECONDS.
func TestLiftStrftimeRefusalsNameWhatLifts(t *testing.T) {
	for _, tc := range []struct{ name, sql, construct, hint, works string }{
		{"seconds of a date", "SELECT count(*) FROM invoice WHERE id >= strftime('%s', '2024-06-01')", `strftime format "%s"`,
			"FROM_EPOCH_SECONDS(x) >= '2024-06-01'", "SELECT count(*) FROM invoice WHERE FROM_EPOCH_SECONDS(id) >= '2024-06-01'"},
		{"seconds of a timestamp column", "SELECT strftime('%s', invoicedate) AS s FROM invoice", `strftime format "%s"`,
			"ELAPSED_SECONDS(x, '1970-01-01 00:00:00')", "SELECT ELAPSED_SECONDS(invoicedate, '1970-01-01 00:00:00') AS s FROM invoice"},
		{"unixepoch and a shift", "SELECT strftime('%Y-%m', id, 'unixepoch', '+1 month') AS m FROM invoice", "strftime with modifiers",
			"DATE_ADD", "SELECT PERIOD_LABEL('month', DATE_ADD('month', 1, FROM_EPOCH_SECONDS(id))) AS m FROM invoice"},
		{"another modifier", "SELECT strftime('%Y', invoicedate, 'start of month') AS y FROM invoice", "strftime with modifiers",
			"FROM_EPOCH_SECONDS(x)", "SELECT strftime('%Y', invoicedate) AS y FROM invoice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Lift(tc.sql, DialectSQLite, cat)
			var un *Unsupported
			if !errors.As(err, &un) || !strings.Contains(un.Construct, tc.construct) || !strings.Contains(un.Hint, tc.hint) {
				t.Fatalf("Lift(%q) = %v; want %q refused with a hint naming %q", tc.sql, err, tc.construct, tc.hint)
			}
			q, err := Lift(tc.works, DialectSQLite, cat)
			if err != nil {
				t.Fatalf("the hint's SQL %q: %v", tc.works, err)
			}
			if _, err := validate.Plan(q, cat, validate.Options{}); err != nil {
				t.Errorf("the hint's SQL %q does not validate: %v", tc.works, err)
			}
		})
	}
}

// The lift's arity refusals read as the validator's (planast.TakesArgs).
func TestLiftArityMessage(t *testing.T) {
	_, err := Lift("SELECT abs(total, 2) FROM invoice", DialectSQLite, cat)
	if err == nil || !strings.Contains(err.Error(), planast.TakesArgs("abs", 1, 1, 2)) || strings.Contains(err.Error(), "1 arguments") {
		t.Errorf("abs of two: %v", err)
	}
}

// DATE_ADD written with its unit first is the plan's own, which the
// modifier refusals name; other date_add spellings (PostgreSQL's, DuckDB's)
// stay refused.
func TestLiftPlanDateAdd(t *testing.T) {
	for _, sql := range []string{"SELECT date_add(invoicedate, INTERVAL '1 day') FROM invoice", "SELECT date_add() FROM invoice", "SELECT date_add('fortnight', 1, invoicedate) FROM invoice"} {
		if _, err := Lift(sql, DialectSQLite, cat); err == nil {
			t.Errorf("Lift(%q) accepted", sql)
		}
	}
}

// SQLite's TRUE and FALSE are 1 and 0: "is_active = TRUE" over a flag
// kept in an INTEGER column was refused as a comparison of an integer
// with a boolean, while the bare "WHERE is_active" lifted. It lifts as
// the comparison with 1 (or 0) it is.
func TestLiftTrueAgainstAnIntegerFlag(t *testing.T) {
	for _, tc := range []struct{ name, sql, same string }{
		{"true", "SELECT count(*) FROM invoice WHERE id = TRUE", "SELECT count(*) FROM invoice WHERE id = 1"},
		{"false", "SELECT count(*) FROM invoice WHERE FALSE <> id", "SELECT count(*) FROM invoice WHERE 0 <> id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := Lift(tc.same, DialectSQLite, cat)
			if err != nil {
				t.Fatalf("Lift(%q): %v", tc.same, err)
			}
			checkLift(t, liftCase{tc.name, tc.sql, string(want.Canonical())}, DialectSQLite)
		})
	}
}

// "WHERE Is_male = 'yes'" over a boolean column matched, on SQLite, only
// the rows stored as that text; the plan reads every spelling as the
// boolean it means. The refusal says so and names the condition that
// lifts, which does.
func TestLiftBooleanAgainstTextNamesTheCondition(t *testing.T) {
	_, err := Lift("SELECT count(*) FROM singer WHERE Is_male = 'yes'", DialectSQLite, cat)
	var u *Unsupported
	if !errors.As(err, &u) || !strings.Contains(u.Hint, "WHERE x for true") {
		t.Fatalf("lift: %v, want a refusal whose hint names WHERE x", err)
	}
	if _, err := Lift("SELECT count(*) FROM singer WHERE Is_male", DialectSQLite, cat); err != nil {
		t.Errorf("the hint's condition: %v", err)
	}
}
