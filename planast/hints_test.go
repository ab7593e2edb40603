package planast_test

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// A SQLite view's computed column has no declared type. SUM over it was
// refused as "SUM gets only NULL here … CAST(NULL AS integer)", which sent
// the planner after a NULL it never wrote: the message must name the
// column and the cast that works.
func TestUnknownTypedColumnIsNamed(t *testing.T) {
	cat := memCatalog{table("", "Order Subtotals", []string{"OrderID integer", "Subtotal unknown"})}
	sub := c("", "Subtotal")
	for _, tc := range []struct{ name, expr, path string }{
		{"SUM", fn("SUM", sub), "select[0].expr.args[0]"},
		{"AVG", fn("AVG", sub), "select[0].expr.args[0]"},
		{"arithmetic", bin("+", sub, sub), "select[0].expr"},
		{"window", `{"kind":"window","name":"SUM","args":[` + sub + `]}`, "select[0].expr.args[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := firstIssue(t, plan(sel(item(tc.expr, "x")), frm(from("Order Subtotals", "o"))), cat, validate.Options{})
			if is.Code != planast.CodeType || is.Path != tc.path {
				t.Errorf("issue %+v, want %s at %s", is, planast.CodeType, tc.path)
			}
			for _, want := range []string{`column "Subtotal"`, "no declared type", "CAST(Subtotal AS decimal)"} {
				if !strings.Contains(is.Message, want) {
					t.Errorf("message %q lacks %q", is.Message, want)
				}
			}
			if strings.Contains(is.Message, "NULL") || !strings.Contains(is.Hint, "CAST(Subtotal AS decimal)") {
				t.Errorf("message %q / hint %q: speaks of NULL or gives no cast", is.Message, is.Hint)
			}
		})
	}
	// a NULL literal keeps its own message
	is := firstIssue(t, plan(sel(item(fn("SUM", lit("null")), "x")), frm(from("Order Subtotals", "o"))), cat, validate.Options{})
	if !strings.Contains(is.Message, "only NULL") {
		t.Errorf("SUM(NULL): %q", is.Message)
	}
}

// A select alias named in another select item, a window or where is no
// column there (SQL computes select items from the sources). The refusal
// must say so and how to reuse the alias, not just "no such column".
func TestSelectAliasReuseIsExplained(t *testing.T) {
	cnt := item(fn("COUNT"), "n")
	lag := `{"kind":"window","name":"LAG","args":[` + fn("COUNT") + `],"order_by":[{"expr":` + c("", "GenreId") + `}]}`
	tracks := frm(from("Track", "t"))
	group := `"group_by":[` + c("", "GenreId") + `]`
	for _, tc := range []struct{ name, plan, path string }{
		{"in another select item", plan(sel(cnt, item(bin("*", c("", "n"), lit("2")), "twice")), tracks, group), "select[1].expr.left.column"},
		{"in a window", plan(sel(item(lag, "prev_month"), item(`{"kind":"window","name":"SUM","args":[`+c("", "prev_month")+`]}`, "s")), tracks, group), "select[1].expr.args[0].column"},
		{"in where", plan(sel(item(fn("UPPER", c("", "Name")), "upper_name")), tracks, where(bin("=", c("", "upper_name"), lit(`"X"`)))), "where.left.column"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := firstIssue(t, tc.plan, chinook, validate.Options{})
			if is.Code != planast.CodeColumnNotFound || is.Path != tc.path {
				t.Fatalf("issue %+v, want %s at %s", is, planast.CodeColumnNotFound, tc.path)
			}
			if !strings.Contains(is.Message, "alias of this query's select") {
				t.Errorf("message %q does not say the name is a select alias", is.Message)
			}
			for _, want := range []string{"order_by, group_by, having, qualify", "derived table or a CTE"} {
				if !strings.Contains(is.Hint, want) {
					t.Errorf("hint %q lacks %q", is.Hint, want)
				}
			}
		})
	}
	// a name that is no alias gets no such hint
	is := firstIssue(t, plan(sel(cnt, item(c("", "nothing_here"), "x")), tracks, group), chinook, validate.Options{})
	if is.Hint != "" || strings.Contains(is.Message, "alias") {
		t.Errorf("a plain missing column: %+v", is)
	}
}

// A host that ranks by a computed column it named ("order_by" of a window
// naming a select alias) was refused although the guide says aliases work
// in order_by. The alias now means the aliased expression inside OVER, the
// same SQL as writing the expression out; an alias of a window still
// cannot order another window.
func TestWindowOrderByNamesASelectAlias(t *testing.T) {
	tracks := frm(from("Track", "t"))
	group := `"group_by":[` + c("", "GenreId") + `]`
	rank := func(by string) string {
		return `{"kind":"window","name":"RANK","args":[],"partition_by":[` + by + `],"order_by":[{"expr":` + by + `,"direction":"desc"}]}`
	}
	for _, tc := range []struct{ name, alias, aliased, tail string }{
		{"a scalar expression", "upper_name", fn("UPPER", c("t", "Name")), ""},
		{"an aggregate", "n", fn("COUNT"), group},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parts := func(by string) string {
				p := []string{sel(item(tc.aliased, tc.alias), item(rank(by), "r")), tracks}
				if tc.tail != "" {
					p = append(p, tc.tail)
				}
				return plan(p...)
			}
			byAlias, err := validate.Plan(decode(t, parts(c("", tc.alias))), chinook, validate.Options{})
			if err != nil {
				t.Fatalf("window ordered by the alias %q: %v", tc.alias, err)
			}
			written, err := validate.Plan(decode(t, parts(tc.aliased)), chinook, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := string(byAlias.Plan.Canonical()), string(written.Plan.Canonical()); got != want {
				t.Errorf("by alias:\n%s\nwritten out:\n%s", got, want)
			}
		})
	}
	lag := `{"kind":"window","name":"LAG","args":[` + c("t", "Name") + `],"order_by":[{"expr":` + c("t", "TrackId") + `}]}`
	is := firstIssue(t, plan(sel(item(lag, "prev"), item(`{"kind":"window","name":"RANK","args":[],"order_by":[{"expr":`+c("", "prev")+`}]}`, "r")), tracks), chinook, validate.Options{})
	if is.Code != planast.CodeColumnNotFound || !strings.Contains(is.Message, "holding a window") {
		t.Errorf("a window ordered by another window's alias: %+v", is)
	}
}

// An integer column of Unix times cast to a timestamp is refused (each
// engine reads a number as a time its own way, or not at all); the user
// must learn the function that reads it, not only that the cast fails.
func TestCastOfANumberToATimeNamesTheEpochReading(t *testing.T) {
	for _, to := range []string{"timestamp", "date"} {
		is := firstIssue(t, plan(sel(item(`{"kind":"cast","type":"`+to+`","expr":`+c("", "Milliseconds")+`}`, "x")), frm(from("Track", "t"))), chinook, validate.Options{})
		if is.Code != planast.CodeType || !strings.Contains(is.Message, "FROM_EPOCH_SECONDS(x)") {
			t.Errorf("cast to %s: issue %+v, want a type error naming FROM_EPOCH_SECONDS(x)", to, is)
		}
	}
}

// A Unix-time column compared with a date: the refusal must name the
// reading that makes the comparison, or the planner guesses arithmetic.
func TestNumberComparedWithADateNamesTheEpochReading(t *testing.T) {
	is := firstIssue(t, plan(sel(c("", "Name")), frm(from("Track", "t")), where(bin(">", c("", "Milliseconds"), `{"kind":"literal","type":"date","value":"2024-01-01"}`))), chinook, validate.Options{})
	if is.Code != planast.CodeType || !strings.Contains(is.Hint, "FROM_EPOCH_SECONDS(x)") {
		t.Errorf("issue %+v, want a type error whose hint names FROM_EPOCH_SECONDS(x)", is)
	}
}

// FROM_EPOCH_SECONDS of a literal past year 9999 is NULL on every
// engine: a literal so far out is milliseconds written for seconds, and
// the plan is refused with the division rather than run to a NULL.
func TestEpochLiteralOutOfRangeIsRefused(t *testing.T) {
	epoch := func(x string) string { return `{"kind":"func","name":"FROM_EPOCH_SECONDS","args":[` + x + `]}` }
	is := firstIssue(t, plan(sel(item(epoch(lit("1717418460000")), "t"))), chinook, validate.Options{})
	if is.Code != planast.CodeBadValue || !strings.Contains(is.Hint, "x / 1000") {
		t.Errorf("issue %+v, want INVALID_VALUE whose hint divides by 1000", is)
	}
	// a literal of 301 digits is named as written short, not spelt out
	if is := firstIssue(t, plan(sel(item(epoch(lit("1e300")), "t"))), chinook, validate.Options{}); !strings.Contains(is.Message, "of 1e+300 is outside") {
		t.Errorf("issue %+v, want 1e300 named as 1e+300", is)
	}
	q, err := planast.Decode([]byte(plan(sel(item(epoch(lit("1717418460")), "t")))), planast.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := validate.Plan(q, chinook, validate.Options{}); err != nil {
		t.Errorf("seconds in range refused: %v", err)
	}
}

// DATE_ADD of 999,999,999 years is NULL for every date on every engine: a
// plan that can only return NULL is refused with the unit to check, as a
// FROM_EPOCH_SECONDS of a literal past year 9999 is; the largest shift
// that can stay within years 1 to 9999 is kept.
func TestDateAddPastEveryDateIsRefused(t *testing.T) {
	add := func(unit, n string) string {
		return `{"kind":"func","name":"DATE_ADD","args":[` + lit(`"`+unit+`"`) + `,` + lit(n) + `,{"kind":"column","table":"i","column":"InvoiceDate"}]}`
	}
	body := func(x string) string {
		return `{"select":[{"expr":` + x + `,"alias":"d"}],"from":[{"table":"Invoice","alias":"i"}]}`
	}
	for _, c := range []struct {
		unit, n string
		refused bool
	}{{"year", "999999999", true}, {"year", "9999", true}, {"day", "-3652059", true}, {"year", "9998", false}, {"day", "3652058", false}, {"month", "-119987", false}} {
		q, err := planast.Decode([]byte(body(add(c.unit, c.n))), planast.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = validate.Plan(q, chinook, validate.Options{})
		if (err != nil) != c.refused || c.refused && !strings.Contains(err.Error(), "NULL for every date") {
			t.Errorf("DATE_ADD(%s, %s, x): %v, want refused %v", c.unit, c.n, err, c.refused)
		}
	}
}

// The refusal of a text literal no cast reads names what it lacks in the
// plan's words: "float" is a cast type but no literal type, and "holds no
// float value" sent a user looking for a float literal.
func TestTextLiteralWithoutANumberSaysNumber(t *testing.T) {
	cast := func(v, to string) string {
		return `{"kind":"cast","type":"` + to + `","expr":` + lit(`"`+v+`"`) + `}`
	}
	for _, c := range []struct{ to, want string }{{"float", `"yesterday" holds no number:`}, {"integer", `"yesterday" holds no whole number:`}, {"date", `"yesterday" holds no date:`}} {
		is := firstIssue(t, plan(sel(item(cast("yesterday", c.to), "x"))), chinook, validate.Options{})
		if !strings.Contains(is.Message, c.want) {
			t.Errorf("cast to %s: %q, want %q", c.to, is.Message, c.want)
		}
	}
}

// A host writes the instant it saw stored ('2024-01-31T10:00:00Z'); a
// literal carries no zone and is refused, and the hint gives the same
// instant in UTC, which validates.
func TestZonedTimestampLiteralHintGivesUTC(t *testing.T) {
	cast := func(v string) string {
		return `{"kind":"cast","type":"timestamp","expr":` + lit(`"`+v+`"`) + `}`
	}
	for _, c := range []struct{ in, utc string }{{"2024-01-31T10:00:00Z", "2024-01-31 10:00:00"}, {"2024-01-31T23:30:00-02:00", "2024-02-01 01:30:00"}} {
		is := firstIssue(t, plan(sel(item(cast(c.in), "x"))), chinook, validate.Options{})
		if !strings.Contains(is.Hint, `"`+c.utc+`"`) {
			t.Errorf("%s: hint %q, want %q", c.in, is.Hint, c.utc)
			continue
		}
		q, err := planast.Decode([]byte(plan(sel(item(cast(c.utc), "x")))), planast.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := validate.Plan(q, chinook, validate.Options{}); err != nil {
			t.Errorf("the hint's %s: %v", c.utc, err)
		}
	}
}
