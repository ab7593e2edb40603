package render_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// The threat: one plan, one database's rows, and a user who sees
// 10000000000 on SQLite, "integer out of range" on PostgreSQL and DuckDB
// (n is a 32-bit INTEGER column there); or 9.223372036854776e18 on SQLite
// where PostgreSQL and DuckDB fail; or a SUM that is a value on two
// engines and an error on the third. Every case below must give the same
// rows on all three engines, or the same ARITHMETIC_OVERFLOW.
func TestArithmeticHasOneRange(t *testing.T) {
	cat := memCatalog{table("o", []string{"id integer", "n integer", "big integer", "s text"})}
	rows := map[string][]string{"o": {
		`1, 100000, 9223372036854775807, '1e10'`,
		`2, -3, 4611686018427387904, '2.5'`,
		`3, NULL, NULL, NULL`,
	}}
	dbs := engines(t, cat, rows)
	for _, e := range dbs {
		if e.d.Name() != "sqlite" { // n is 32-bit where the engine has such a type
			if _, err := e.db.Exec(`ALTER TABLE "o" ALTER COLUMN "n" TYPE INTEGER`); err != nil {
				t.Fatalf("%s: %v", e.d.Name(), err)
			}
		}
	}
	n, big, id := column("n"), column("big"), column("id")
	dec := `{"kind":"cast","expr":` + column("s") + `,"type":"decimal"}`
	sel := func(es ...string) string {
		items := []string{`{"expr":` + id + `,"alias":"id"}`}
		for i, e := range es {
			items = append(items, `{"expr":`+e+`,"alias":"e`+string(rune('0'+i))+`"}`)
		}
		return `{"select":[` + strings.Join(items, ",") + `],"from":[{"table":"o","alias":"o"}],"order_by":[{"expr":` + id + `}]}`
	}
	agg := func(e string) string {
		return `{"select":[{"expr":` + e + `,"alias":"a"}],"from":[{"table":"o","alias":"o"}]}`
	}
	overflow := [][]string{{"ARITHMETIC_OVERFLOW"}}
	cases := []rangeCase{
		{"32-bit columns and literals widen to 64 bits", sel(binary("*", n, n), binary("*", n, num("100000")), `{"kind":"unary","op":"-","expr":`+n+`}`, binary("*", num("100000"), num("100000"))),
			[][]string{{"1", "10000000000", "10000000000", "-100000", "10000000000"}, {"2", "9", "-300000", "3", "10000000000"}, {"3", "NULL", "NULL", "NULL", "10000000000"}}},
		{"a sum of 32-bit products", agg(call("SUM", binary("*", n, n))), [][]string{{"10000000009"}}},
		{"in range near int64 stays exact", sel(binary("-", big, num("1")), binary("-", big, big)),
			[][]string{{"1", "9223372036854775806", "0"}, {"2", "4611686018427387903", "0"}, {"3", "NULL", "NULL"}}},
		{"beyond int64 fails everywhere", sel(binary("+", big, num("1"))), overflow},
		{"beyond int64 inside a function fails everywhere", sel(call("COALESCE", binary("*", big, num("2")), num("0"))), overflow},
		{"an overflow undone later in the chain still fails", sel(binary("-", binary("*", big, num("2")), big)), overflow},
		{"a sum beyond int64 fails everywhere", agg(call("SUM", big)), overflow},
		{"a product of two decimals beyond 10^18 fails everywhere", sel(binary("*", dec, dec)), overflow},
		{"an integer times a decimal beyond 10^28 fails everywhere", sel(binary("*", big, dec)), overflow},
		// DuckDB computes a product at the sum of its operands' scales and refuses a scale beyond 38
		{"decimal products of products keep their scale", strings.Replace(sel(binary("*", binary("*", dec, dec), binary("*", dec, dec))), `],"from"`, `],"where":`+binary("=", id, num("2"))+`,"from"`, 1),
			[][]string{{"2", "39.0625"}}},
	}
	checkRangeCases(t, dbs, cat, cases)
}

// rangeCase is one plan and the rows it must return on every engine, or
// the one row ARITHMETIC_OVERFLOW.
type rangeCase struct {
	name, plan string
	want       [][]string
}

func checkRangeCases(t *testing.T, dbs []engineDB, cat memCatalog, cases []rangeCase) {
	t.Helper()
	overflow := [][]string{{"ARITHMETIC_OVERFLOW"}}
	for _, c := range cases {
		q, err := planast.Decode([]byte(c.plan), planast.DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		v, err := validate.Plan(q, cat, validate.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, e := range dbs {
			s, err := render.SQL(v.Plan, e.d, render.Options{})
			if err != nil {
				t.Fatalf("%s/%s: %v", c.name, e.d.Name(), err)
			}
			got, err := queryAll(e.db, s)
			switch {
			case err != nil && overflowed(err):
				got = overflow
			case err != nil:
				t.Errorf("%s/%s: %v\n%s", c.name, e.d.Name(), err, s)
				continue
			}
			for _, row := range got {
				for j, x := range row {
					if strings.Contains(x, ".") { // a decimal's scale is not its value
						row[j] = strings.TrimSuffix(strings.TrimRight(x, "0"), ".")
					}
				}
			}
			if !slices.EqualFunc(got, c.want, slices.Equal) {
				t.Errorf("%s/%s: got %v, want %v\n%s", c.name, e.d.Name(), got, c.want, s)
			}
		}
	}
}

// The threat: a user who divides ids or amounts near int64 with "div" and
// reads 3074457345618258432 for 9223372036854775807 div 3 on every engine
// (the exact 3074457345618258602 went through a double), shown as an exact
// integer. div of two integers is exact int64 division truncating toward
// zero on every engine, NULL for a zero divisor, and the one quotient
// beyond int64 (the smallest int64 div -1) the same ARITHMETIC_OVERFLOW
// as any other.
func TestIntegerDivisionIsExact(t *testing.T) {
	cat := memCatalog{table("q", []string{"id integer", "a integer", "b integer", "m integer", "f float"})}
	rows := map[string][]string{"q": {
		`1, 9223372036854775807, 3, 7, 7.5`,
		`2, 9007199254740993, 3, -7, -7.5`,
		`3, -9223372036854775807, -2, 2147483647, 2.5`,
		`4, -7, 2, -2147483648, NULL`,
		`5, 7, -2, NULL, 1`,
		`6, 5, 0, 0, 0`,
		`7, NULL, 1, 1, 1`,
	}}
	dbs := engines(t, cat, rows)
	for _, e := range dbs {
		if e.d.Name() != "sqlite" { // m is 32-bit where the engine has such a type
			if _, err := e.db.Exec(`ALTER TABLE "q" ALTER COLUMN "m" TYPE INTEGER`); err != nil {
				t.Fatalf("%s: %v", e.d.Name(), err)
			}
		}
	}
	a, b, m, f, id := column("a"), column("b"), column("m"), column("f"), column("id")
	sel := func(where string, es ...string) string {
		items := []string{`{"expr":` + id + `,"alias":"id"}`}
		for i, e := range es {
			items = append(items, `{"expr":`+e+`,"alias":"e`+string(rune('0'+i))+`"}`)
		}
		if where != "" {
			where = `,"where":` + where
		}
		return `{"select":[` + strings.Join(items, ",") + `],"from":[{"table":"q","alias":"q"}]` + where + `,"order_by":[{"expr":` + id + `}]}`
	}
	div := func(l, r string) string { return binary("div", l, r) }
	minInt := binary("-", a, num("1")) // -9223372036854775808 on row 3
	overflow := [][]string{{"ARITHMETIC_OVERFLOW"}}
	checkRangeCases(t, dbs, cat, []rangeCase{
		{"exact near int64 and truncated toward zero", sel("", div(a, b), div(a, num("3")), div(num("-7"), b)),
			[][]string{
				{"1", "3074457345618258602", "3074457345618258602", "-2"},
				{"2", "3002399751580331", "3002399751580331", "-2"},
				{"3", "4611686018427387903", "-3074457345618258602", "3"},
				{"4", "-3", "-2", "-3"},
				{"5", "-3", "2", "3"},
				{"6", "NULL", "1", "NULL"},
				{"7", "NULL", "NULL", "-7"},
			}},
		{"32-bit operands divide in 64 bits", sel("", div(m, num("-1")), div(m, m), binary("+", div(m, num("2")), num("2147483647"))),
			[][]string{
				{"1", "-7", "1", "2147483650"},
				{"2", "7", "1", "2147483644"},
				{"3", "-2147483647", "1", "3221225470"},
				{"4", "2147483648", "1", "1073741823"},
				{"5", "NULL", "NULL", "NULL"},
				{"6", "0", "NULL", "2147483647"},
				{"7", "-1", "1", "2147483647"},
			}},
		{"the smallest int64 div -1 fails everywhere", sel(binary("=", id, num("3")), div(minInt, num("-1"))), overflow},
		{"the smallest int64 div 1 is itself", sel(binary("=", id, num("3")), div(minInt, num("1")), div(minInt, binary("-", num("0"), num("2")))),
			[][]string{{"3", "-9223372036854775808", "4611686018427387904"}}},
		{"a float operand still divides as doubles", sel(binary("<", id, num("5")), div(f, num("2")), div(a, f)),
			[][]string{{"1", "3", "1229782938247303424"}, {"2", "-3", "-1200959900632132"}, {"3", "1", "-3689348814741910528"}, {"4", "NULL", "NULL"}}},
	})
}

// The threat: a float column holding NaN or Infinity (a failed
// measurement, a ratio of zeros computed upstream) cast to integer failed
// the query on PostgreSQL ("cannot convert NaN to bigint") and DuckDB, and
// gave 9223372036854775807 on SQLite, shown as if measured. A float cast
// to integer is NULL for NaN, ±Infinity and values beyond int64 on every
// engine, as TRY_CAST and the cast of such text are; in range it truncates
// toward zero.
func TestFloatToIntegerIsTryCast(t *testing.T) {
	cat := memCatalog{table("g", []string{"id integer", "f float"})}
	rows := map[string][]string{"g": {`1, 0`, `2, 0`, `3, 0`, `4, 1e300`, `5, -2.5`, `6, 9007199254740993.0`, `7, NULL`, `8, 9223372036854775807.0`}}
	dbs := engines(t, cat, rows)
	special := map[string][3]string{ // NaN, +Infinity, -Infinity as each engine writes them
		"sqlite":   {"NULL", "9e999", "-9e999"}, // SQLite stores NaN as NULL
		"duckdb":   {"'nan'::DOUBLE", "'inf'::DOUBLE", "'-inf'::DOUBLE"},
		"postgres": {"'NaN'::float8", "'Infinity'::float8", "'-Infinity'::float8"},
	}
	for _, e := range dbs {
		for i, v := range special[e.d.Name()] {
			if _, err := e.db.Exec(`UPDATE "g" SET "f" = ` + v + ` WHERE "id" = ` + strconv.Itoa(i+1)); err != nil {
				t.Fatalf("%s: %v", e.d.Name(), err)
			}
		}
	}
	id := column("id")
	toInt := func(x string) string { return `{"kind":"cast","expr":` + x + `,"type":"integer"}` }
	plan := `{"select":[{"expr":` + id + `,"alias":"id"},{"expr":` + toInt(column("f")) + `,"alias":"i"}],"from":[{"table":"g","alias":"g"}],"order_by":[{"expr":` + id + `}]}`
	checkRangeCases(t, dbs, cat, []rangeCase{{"NaN, Infinity and beyond int64 are NULL", plan, [][]string{
		{"1", "NULL"}, {"2", "NULL"}, {"3", "NULL"}, {"4", "NULL"}, {"5", "-2"}, {"6", "9007199254740992"}, {"7", "NULL"}, {"8", "NULL"},
	}}})
}

// The threat: an average of ids or amounts near int64 that fails with
// ARITHMETIC_OVERFLOW on SQLite (whose SUM raises "integer overflow"
// once the running sum passes int64) while PostgreSQL and DuckDB, which
// sum in wider types, answer. AVG of integers is the exact sum rounded
// once to a double, over the count, on every engine, as an aggregate and
// over a window.
func TestAverageOfIntegersNearInt64(t *testing.T) {
	cat := memCatalog{table("q", []string{"id integer", "g integer", "a integer"})}
	rows := map[string][]string{"q": {
		`1, 1, 9223372036854775807`,
		`2, 1, 9223372036854775807`,
		`3, 1, 1`,
		`4, 1, 9007199254740993`,
		`5, 2, -9223372036854775807`,
		`6, 2, -9223372036854775807`,
		`7, 2, -3`,
		`8, 2, NULL`,
		`9, 3, 7`,
		`10, 3, -2`,
	}}
	dbs := engines(t, cat, rows)
	g, a, id := column("g"), column("a"), column("id")
	avg := `{"kind":"func","name":"AVG","args":[` + a + `]}`
	grouped := `{"select":[{"expr":` + g + `,"alias":"g"},{"expr":` + avg + `,"alias":"avg"}],"from":[{"table":"q","alias":"q"}],"group_by":[` + g + `],"order_by":[{"expr":` + g + `}]}`
	win := `{"kind":"window","name":"AVG","args":[` + a + `],"partition_by":[` + g + `]}`
	windowed := `{"select":[{"expr":` + id + `,"alias":"id"},{"expr":` + win + `,"alias":"avg"}],"from":[{"table":"q","alias":"q"}],"where":` + binary("=", g, num("2")) + `,"order_by":[{"expr":` + id + `}]}`
	checkRangeCases(t, dbs, cat, []rangeCase{
		{"grouped", grouped, [][]string{{"1", "4.613937818241073e+18"}, {"2", "-6.148914691236517e+18"}, {"3", "2.5"}}},
		{"over a window", windowed, [][]string{{"5", "-6.148914691236517e+18"}, {"6", "-6.148914691236517e+18"}, {"7", "-6.148914691236517e+18"}, {"8", "-6.148914691236517e+18"}}},
	})
}

// The threat: a user who divides amounts stored as floats or decimals
// with "div" and gets 9223372036854775807 on SQLite (which clamps the
// quotient to int64) where PostgreSQL and DuckDB fail, a number that looks
// measured. A div with a float or decimal operand whose truncated quotient
// is beyond int64 (or infinite) is ARITHMETIC_OVERFLOW on every engine;
// in range it truncates toward zero, also at the smallest int64.
func TestFloatDivisionBeyondInt64Overflows(t *testing.T) {
	cat := memCatalog{table("w", []string{"id integer", "f float", "s text"})}
	rows := map[string][]string{"w": {
		`1, 1e19, '1e19'`,
		`2, -1e19, '-1e19'`,
		`3, 9.2e18, '9.2e18'`,
		`4, -9223372036854775808.0, '-9223372036854775808'`,
		`5, 9223372036854775807.0, '9223372036854775808'`,
		`6, 0, '0'`,
		`7, 7.5, '7.5'`,
		`8, NULL, NULL`,
		`9, 0, NULL`,
	}}
	dbs := engines(t, cat, rows)
	special := map[string][2]string{ // +Infinity, NaN as each engine writes them
		"sqlite":   {"9e999", "NULL"}, // SQLite stores NaN as NULL
		"duckdb":   {"'inf'::DOUBLE", "'nan'::DOUBLE"},
		"postgres": {"'Infinity'::float8", "'NaN'::float8"},
	}
	for _, e := range dbs {
		for i, v := range special[e.d.Name()] {
			if _, err := e.db.Exec(`UPDATE "w" SET "f" = ` + v + ` WHERE "id" = ` + strconv.Itoa(6+3*i)); err != nil {
				t.Fatalf("%s: %v", e.d.Name(), err)
			}
		}
	}
	f, id := column("f"), column("id")
	dec := `{"kind":"cast","expr":` + column("s") + `,"type":"decimal"}`
	row := func(n, e string) string {
		return `{"select":[{"expr":` + id + `,"alias":"id"},{"expr":` + e + `,"alias":"q"}],"from":[{"table":"w","alias":"w"}],"where":` +
			binary("=", id, num(n)) + `,"order_by":[{"expr":` + id + `}]}`
	}
	div := func(l, r string) string { return binary("div", l, r) }
	overflow := [][]string{{"ARITHMETIC_OVERFLOW"}}
	checkRangeCases(t, dbs, cat, []rangeCase{
		{"a float quotient beyond int64", row("1", div(f, num("1"))), overflow},
		{"a negative float quotient beyond int64", row("2", div(f, num("1"))), overflow},
		{"a decimal quotient beyond int64", row("1", div(dec, num("1"))), overflow},
		{"a float quotient beyond int64 by division", row("3", div(f, num("0.5"))), overflow},
		{"2^63 itself is beyond int64", row("5", div(f, num("1"))), overflow},
		{"an infinite quotient", row("6", div(f, num("2"))), overflow},
		{"in range near int64", row("3", div(f, num("1"))), [][]string{{"3", "9200000000000000000"}}},
		{"the smallest int64 is in range", row("4", div(f, num("1"))), [][]string{{"4", "-9223372036854775808"}}},
		{"truncated toward zero", row("7", div(binary("-", num("0"), f), num("2"))), [][]string{{"7", "-3"}}},
		{"NULL stays NULL", row("8", div(f, num("2"))), [][]string{{"8", "NULL"}}},
		{"a zero divisor is NULL", row("7", div(f, num("0"))), [][]string{{"7", "NULL"}}},
		{"a NaN quotient is NULL", row("6", div(f, f)), [][]string{{"6", "NULL"}}},
		{"a NaN operand is NULL", row("9", div(f, num("2"))), [][]string{{"9", "NULL"}}},
	})
}

// The threat: one plan and one database's rows, and a product or sum of
// doubles past 1.8e308 that is "Infinity" on SQLite and DuckDB, a number
// a user may carry into a report, where PostgreSQL refuses it. A double
// computed from finite operands (+, -, * and /) beyond the double range
// is ARITHMETIC_OVERFLOW on every engine; an infinite operand stored in a
// column gives an infinity everywhere, as PostgreSQL computes it.
func TestFloatArithmeticOverflowsAlike(t *testing.T) {
	cat := memCatalog{table("d", []string{"id integer", "f float", "g float"})}
	rows := map[string][]string{"d": {
		`1, 1e300, 1e-300`,
		`2, 1.7e308, 2`,
		`3, -1.7e308, 0.5`,
		`4, 0, 2`,
		`5, NULL, NULL`,
		`6, 2.5, 4`,
	}}
	dbs := engines(t, cat, rows)
	inf := map[string]string{"sqlite": "9e999", "duckdb": "'inf'::DOUBLE", "postgres": "'Infinity'::float8"}
	for _, e := range dbs {
		if _, err := e.db.Exec(`UPDATE "d" SET "f" = ` + inf[e.d.Name()] + ` WHERE "id" = 4`); err != nil {
			t.Fatalf("%s: %v", e.d.Name(), err)
		}
	}
	f, g, id := column("f"), column("g"), column("id")
	row := func(n string, es ...string) string {
		items := []string{`{"expr":` + id + `,"alias":"id"}`}
		for i, e := range es {
			items = append(items, `{"expr":`+e+`,"alias":"e`+strconv.Itoa(i)+`"}`)
		}
		return `{"select":[` + strings.Join(items, ",") + `],"from":[{"table":"d","alias":"d"}],"where":` +
			binary("=", id, num(n)) + `,"order_by":[{"expr":` + id + `}]}`
	}
	overflow := [][]string{{"ARITHMETIC_OVERFLOW"}}
	checkRangeCases(t, dbs, cat, []rangeCase{
		{"a product beyond the double range", row("1", binary("*", f, f)), overflow},
		{"a sum beyond the double range", row("2", binary("+", f, f)), overflow},
		{"a negative sum beyond the double range", row("3", binary("+", f, f)), overflow},
		{"an overflow inside a chain", row("2", binary("-", binary("*", f, g), f)), overflow},
		{"a quotient beyond the double range", row("1", binary("/", f, g)), overflow},
		{"in range", row("6", binary("*", f, g), binary("/", f, g), binary("-", f, g)), [][]string{{"6", "10", "0.625", "-1.5"}}},
		{"a quotient by a literal of at least 1", row("2", binary("/", f, num("2"))), [][]string{{"2", "8.5e+307"}}},
		{"an infinite operand gives an infinity", row("4", binary("*", f, g), binary("+", f, g)), [][]string{{"4", "+Inf", "+Inf"}}},
		{"NULL stays NULL", row("5", binary("*", f, g), binary("/", f, g)), [][]string{{"5", "NULL", "NULL"}}},
	})
}
