package render_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// The differential test runs random plans over text columns holding
// numbers, dates and junk on SQLite, DuckDB and PostgreSQL, and requires
// the three engines to return the same rows: one meaning per plan (+, -,
// *, / and div over integers, decimals and floats, casts of text, dates,
// aggregates: AVG and SUM / COUNT over integer, decimal and float columns
// and casts too). A plan the validator refuses counts as refused (the same
// on every engine, before any SQL); an engine error or a differing row
// fails the test. Set NL2SQL_DIFF_PLANS to run more plans than the
// default.

var diffCatalog = memCatalog{table("d", []string{"id integer", "s text", "t text", "n integer", "f float", "m integer", "q decimal"})}

// int32s are the values of column m, a 32-bit INTEGER on PostgreSQL and
// DuckDB (diffEngines), whose products pass 2^31.
var int32s = []string{"2147483647", "-2147483648", "46341", "NULL", "3", "-65536"}

func diffRows() map[string][]string {
	var rows []string
	texts := junkTexts // big numbers included: their products overflow, one error everywhere
	for i, s := range texts {
		t := texts[(i*7+3)%len(texts)]
		n := "NULL"
		if i%5 != 0 {
			n = strconv.Itoa(i*3 - 20)
		}
		q := "NULL"
		if i%4 != 1 {
			q = strconv.FormatFloat(float64(i*i%97)*1.25-37.5, 'f', 2, 64)
		}
		rows = append(rows, fmt.Sprintf("%d, %s, %s, %s, %s, %s, %s", i+1, render.QuoteString(s), render.QuoteString(t), n, strconv.FormatFloat(float64(i)/4-2.5, 'f', -1, 64), int32s[i%len(int32s)], q))
	}
	return map[string][]string{"d": append(rows, fmt.Sprintf("%d, NULL, NULL, NULL, NULL, NULL, NULL", len(texts)+1))}
}

// diffEngines opens the engines on diffCatalog with m as a 32-bit column
// where the engine has one.
func diffEngines(t *testing.T) []engineDB {
	dbs := engines(t, diffCatalog, diffRows())
	for _, e := range dbs {
		if e.d.Name() != "sqlite" {
			if _, err := e.db.Exec(`ALTER TABLE "d" ALTER COLUMN "m" TYPE INTEGER`); err != nil {
				t.Fatalf("%s: %v", e.d.Name(), err)
			}
		}
	}
	return dbs
}

type planGen struct{ r *rand.Rand }

func (g planGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g planGen) textCol() string { return column(g.pick("s", "t")) }

func (g planGen) cast(to string) string {
	return `{"kind":"cast","expr":` + g.textCol() + `,"type":"` + to + `"}`
}

// num is a numeric expression.
func (g planGen) num(depth int) string {
	switch k := g.r.IntN(6); {
	case k == 0 && depth > 0:
		// div truncates to an integer: a float or decimal quotient beyond
		// int64 is ARITHMETIC_OVERFLOW on every engine
		return binary(g.pick("+", "-", "*", "div", "/"), g.num(depth-1), g.num(depth-1))
	case k == 1:
		return column(g.pick("n", "f", "m", "q"))
	case k == 2:
		return num(g.pick("0", "1", "-2", "12.5", "100"))
	case k == 3 && depth > 0:
		return call("COALESCE", g.cast(g.pick("integer", "decimal", "float")), num("0"))
	}
	return g.cast(g.pick("integer", "decimal", "float"))
}

func (g planGen) dateExpr() string {
	if g.r.IntN(4) == 0 {
		// seconds since 1970 with a fraction (milliseconds / 1000 among
		// them): the same millisecond on every engine, NULL past 9999
		return call("FROM_EPOCH_SECONDS", g.pick(column("f"), column("q"), g.cast("float"),
			binary("/", column("n"), num("1000")), binary("/", g.cast(g.pick("integer", "float")), num("1000")), binary("*", column("f"), num("123456789.0123"))))
	}
	if g.r.IntN(3) == 0 {
		// a timestamp shifted keeps its time of day and its fraction,
		// lands on a month's last day; it and a date are NULL past 9999
		// (9999-12-31 is among the texts) and before year 1 (0000-01-01)
		return call("DATE_ADD", str(g.pick("day", "month", "quarter", "year")), g.pick(num("1"), num("-1"), num("13"), column("n")), g.cast(g.pick("timestamp", "date")))
	}
	return g.cast(g.pick("date", "timestamp"))
}

func (g planGen) pred() string {
	switch g.r.IntN(4) {
	case 0:
		return binary(g.pick("=", "<", ">=", "!="), g.num(1), g.num(1))
	case 1:
		return binary(g.pick("<", ">=", "="), g.cast("date"), `{"kind":"literal","type":"date","value":"`+g.pick("2024-02-29", "2024-03-01", "2000-01-01")+`"}`)
	case 2:
		return `{"kind":"is_null","expr":` + g.pick(g.cast("float"), g.dateExpr()) + `}`
	}
	return `{"kind":"binary","op":"and","left":` + g.pred() + `,"right":` + g.pred() + `}`
}

// oneMeaning is an expression whose meaning differed by engine until the
// renderer or the validator fixed one: a scalar subquery over d that finds
// no row, one or several (the several-rows error on every engine), a
// SUBSTR whose start and length are computed and often negative, a float
// or decimal cast to text or put in a CONCAT (refused).
func (g planGen) oneMeaning() string {
	d2 := func(c string) string { return `{"kind":"column","table":"d2","column":"` + c + `"}` }
	d := func(c string) string { return `{"kind":"column","table":"d","column":"` + c + `"}` }
	intExpr := func() string {
		switch g.r.IntN(4) {
		case 0:
			return num(g.pick("-3", "-1", "0", "2", "5"))
		case 1:
			return binary(g.pick("-", "+"), d("n"), num(g.pick("3", "-7", "25")))
		case 2:
			return binary("-", num(g.pick("0", "4")), d("n"))
		}
		return d("n")
	}
	switch g.r.IntN(3) {
	case 0:
		// n is distinct but for NULLs: = finds at most one row, < and > several
		where := binary(g.pick("=", "=", "<", ">"), d2("n"), g.pick(d("n"), num(g.pick("-20", "1", "100"))))
		return `{"kind":"subquery","query":{"select":[{"expr":` + d2(g.pick("id", "s", "f", "q")) + `,"alias":"v"}],"from":[{"table":"d","alias":"d2"}],"where":` + where + `}}`
	case 1:
		return call("SUBSTR", d(g.pick("s", "t")), intExpr(), intExpr())
	}
	x := g.pick(d("f"), d("q"), binary("*", d("q"), num("2.5")), binary("/", d("n"), num("3")))
	if g.r.IntN(2) == 0 {
		return call("CONCAT", d("s"), x)
	}
	return `{"kind":"cast","expr":` + x + `,"type":"text"}`
}

// oneMeaningKinds name, by a piece of their JSON, the kinds of plan
// oneMeaning writes, for the counts the differential test logs.
var oneMeaningKinds = []string{`"subquery","query"`, `"SUBSTR"`, `"type":"text"`, `"CONCAT"`}

// plan is a random plan over d: rows with expressions, or aggregates.
func (g planGen) plan() string {
	if g.r.IntN(4) == 0 {
		return `{"select":[{"expr":` + column("id") + `,"alias":"id"},{"expr":` + g.oneMeaning() + `,"alias":"x"}],"from":[{"table":"d","alias":"d"}],"order_by":[{"expr":` + column("id") + `}]}`
	}
	where := ""
	if g.r.IntN(2) == 0 {
		where = `,"where":` + g.pred()
	}
	if g.r.IntN(3) == 0 {
		aggs := []string{
			`{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"c"}`,
			`{"expr":{"kind":"func","name":"SUM","args":[` + g.cast(g.pick("integer", "decimal")) + `]},"alias":"s"}`,
			`{"expr":{"kind":"func","name":"AVG","args":[` + g.cast(g.pick("float", "integer", "decimal")) + `]},"alias":"a"}`,
			`{"expr":{"kind":"func","name":"AVG","args":[` + column(g.pick("n", "m", "f", "q")) + `]},"alias":"a2"}`,
			`{"expr":{"kind":"binary","op":"/","left":{"kind":"func","name":"SUM","args":[` + g.cast(g.pick("integer", "decimal")) + `]},"right":{"kind":"func","name":"COUNT","args":[]}},"alias":"r"}`,
			`{"expr":{"kind":"func","name":"MIN","args":[` + g.dateExpr() + `]},"alias":"lo"}`,
			`{"expr":{"kind":"func","name":"MAX","args":[` + g.num(1) + `]},"alias":"hi"}`,
		}
		return `{"select":[` + strings.Join(aggs, ",") + `],"from":[{"table":"d","alias":"d"}]` + where + `}`
	}
	items := []string{`{"expr":` + column("id") + `,"alias":"id"}`}
	for i := range 1 + g.r.IntN(3) {
		e := g.num(2)
		if g.r.IntN(3) == 0 {
			e = g.dateExpr()
		}
		items = append(items, `{"expr":`+e+`,"alias":"e`+strconv.Itoa(i)+`"}`)
	}
	return `{"select":[` + strings.Join(items, ",") + `],"from":[{"table":"d","alias":"d"}]` + where + `,"order_by":[{"expr":` + column("id") + `}]}`
}

// normValue puts an engine's value of portable type t in one shape.
func normValue(v string, t planast.Type) string {
	if v == "NULL" {
		return v
	}
	switch t {
	case planast.TypeInteger:
		// exact: an integer that came back as a double (beyond 2^53 it
		// loses digits) must show as a difference
		return v
	case planast.TypeDecimal, planast.TypeFloat:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return strconv.FormatFloat(f+0, 'g', 9, 64) // -0 and 0 are one value
		}
	case planast.TypeDate:
		return v[:min(10, len(v))]
	case planast.TypeTimestamp:
		// to the microsecond: a fraction of a second is part of the value
		const micro = "2006-01-02 15:04:05.999999"
		if tt, err := time.Parse("2006-01-02 15:04:05 -0700 MST", v); err == nil {
			return tt.Format(micro)
		}
		// SQLite's stored text with Z or a UTC offset: the instant it names
		for _, layout := range []string{"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04Z07:00", "2006-01-02 15:04Z07:00"} {
			if tt, err := time.Parse(layout, v); err == nil {
				return tt.UTC().Format(micro)
			}
		}
		if len(v) == 10 {
			return v + " 00:00:00" // a day stored as a timestamp's text
		}
		if tt, err := time.Parse("2006-01-02 15:04:05.999999999", strings.Replace(v, "T", " ", 1)); err == nil {
			return tt.Format(micro)
		}
		return strings.Replace(v, "T", " ", 1)
	}
	return v
}

func TestDifferentialTextColumns(t *testing.T) {
	n := 300
	if s := os.Getenv("NL2SQL_DIFF_PLANS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	dbs := diffEngines(t)
	g := planGen{rand.New(rand.NewPCG(21, 1))}
	var ran, refused, differ, order, overflow, several int
	kinds := map[string]map[diffOutcome]int{} // the oneMeaning plans by kind
	for i := range n {
		plan := g.plan()
		out := diffRun(t, dbs, diffCatalog, i, plan)
		for _, k := range oneMeaningKinds {
			if strings.Contains(plan, k) {
				if kinds[k] == nil {
					kinds[k] = map[diffOutcome]int{}
				}
				kinds[k][out]++
			}
		}
		switch out {
		case diffOverflow:
			ran++
			overflow++
		case diffSeveralRows:
			ran++
			several++
		case diffRefused:
			refused++
		case diffOrder:
			ran++
			order++
		case diffDiffered:
			ran++
			differ++
		default:
			ran++
		}
	}
	t.Logf("differential: %d plans, %d ran on %d engines, %d refused by the validator, %d differed (%d of the others failed with an overflow on every engine, %d with a scalar subquery's several rows on every engine; %d overflowed on some engines only because an and/or decided first)", n, ran, len(dbs), refused, differ, overflow, several, order)
	for _, k := range oneMeaningKinds {
		c := kinds[k]
		t.Logf("plans with %s: %d same rows, %d several rows on every engine, %d refused, %d differed", k, c[diffSame], c[diffSeveralRows], c[diffRefused], c[diffDiffered])
	}
}

// Integers and decimals beyond 2^53 compared with a float: PostgreSQL and
// DuckDB compare them as doubles, SQLite exactly, so `CAST(s AS integer) =
// CAST(s AS float)` held on two engines and not on the third for
// 9007199254740993. Every comparison of a float with an integer or decimal
// is now rendered as a comparison of doubles (Binary.Temporal = float).
func TestDifferentialBigIntegersAgainstFloats(t *testing.T) {
	cat := memCatalog{table("b", []string{"id integer", "s text", "f float", "n integer"})}
	texts := []string{"9007199254740993", "9007199254740992", "-9007199254740993", "9223372036854775807", "12345678901234567891", "1e16", "42"}
	var rows []string
	for i, s := range texts {
		rows = append(rows, fmt.Sprintf("%d, %s, 9007199254740992.0, %s", i+1, render.QuoteString(s), "9007199254740993"))
	}
	dbs := engines(t, cat, map[string][]string{"b": rows})
	sides := []string{
		`{"kind":"cast","expr":` + column("s") + `,"type":"integer"}`,
		`{"kind":"cast","expr":` + column("s") + `,"type":"decimal"}`,
		column("n"),
	}
	floats := []string{`{"kind":"cast","expr":` + column("s") + `,"type":"float"}`, column("f")}
	var ran, differ, refused int
	for _, x := range sides {
		for _, y := range floats {
			var conds []string
			for _, op := range []string{"=", "!=", "<", ">="} {
				for _, pair := range [][2]string{{x, y}, {y, x}} {
					conds = append(conds, binary(op, pair[0], pair[1]))
				}
			}
			// an IN subquery with a float on either side compares doubles too
			sub := func(e string) string {
				return `{"select":[{"expr":` + e + `,"alias":"v"}],"from":[{"table":"b","alias":"b2"}],"where":` + binary("=", `{"kind":"column","table":"b2","column":"id"}`, `{"kind":"column","table":"b","column":"id"}`) + `}`
			}
			for _, pair := range [][2]string{{x, y}, {y, x}} {
				conds = append(conds, `{"kind":"in","expr":`+pair[0]+`,"subquery":`+sub(pair[1])+`}`,
					`{"kind":"in","expr":`+pair[0]+`,"subquery":`+sub(pair[1])+`,"negated":true}`)
			}
			// IN lists and BETWEEN follow the same rule as plain comparisons.
			for _, pair := range [][2]string{{x, y}, {y, x}} {
				conds = append(conds,
					`{"kind":"in","expr":`+pair[0]+`,"list":[`+pair[1]+`]}`,
					`{"kind":"in","expr":`+pair[0]+`,"list":[`+num("1")+`,`+pair[1]+`],"negated":true}`,
					`{"kind":"between","expr":`+pair[0]+`,"low":`+pair[1]+`,"high":`+pair[1]+`}`,
					`{"kind":"between","expr":`+pair[0]+`,"low":`+pair[1]+`,"high":`+pair[0]+`,"negated":true}`)
			}
			{
				for _, cond := range conds {
					plan := `{"select":[{"expr":` + column("id") + `,"alias":"id"}],"from":[{"table":"b","alias":"b"}],"where":` +
						cond + `,"order_by":[{"expr":` + column("id") + `}]}`
					switch diffRun(t, dbs, cat, ran+refused, plan) {
					case diffRefused:
						refused++
						t.Errorf("refused: %s", plan)
					case diffDiffered:
						ran++
						differ++
					default:
						ran++
					}
				}
			}
		}
	}
	t.Logf("big integers against floats: %d plans ran on %d engines, %d refused, %d differed", ran, len(dbs), refused, differ)
}

type diffOutcome int

const (
	diffSame diffOutcome = iota
	diffRefused
	diffDiffered
	diffOrder       // an overflow on one engine only, in a filter an and/or decides
	diffOverflow    // ARITHMETIC_OVERFLOW on every engine
	diffSeveralRows // a scalar subquery's several rows, an error on every engine
)

var overflowRows = [][]string{{"ARITHMETIC_OVERFLOW"}}

// severalRowsRows is the one outcome of a scalar subquery that returned
// several rows: each engine's error names it (SQLite's through the
// renderer's check), and the adapters map it onto one typed error.
var severalRowsRows = [][]string{{"SEVERAL_ROWS"}}

// errorRows is the agreed outcome of the engine error err, nil when err is
// no such error.
func errorRows(err error) [][]string {
	switch {
	case overflowed(err):
		return overflowRows
	case strings.Contains(strings.ToLower(err.Error()), render.SeveralRowsMessage):
		return severalRowsRows
	}
	return nil
}

// decidedByOrder reports whether q's filter has an and/or, whose operands
// PostgreSQL reorders by cost and any engine may skip once the result is
// decided.
func decidedByOrder(q *planast.Query) bool {
	if q.Where == nil {
		return false
	}
	b, _ := json.Marshal(q.Where)
	return strings.Contains(string(b), `"op":"and"`) || strings.Contains(string(b), `"op":"or"`)
}

// diffRun validates plan against cat and runs it on every engine, failing
// the test when an engine errs or returns other rows than the first.
func diffRun(t *testing.T, dbs []engineDB, cat memCatalog, i int, plan string) diffOutcome {
	t.Helper()
	q, err := planast.Decode([]byte(plan), planast.DefaultLimits)
	if err != nil {
		t.Fatalf("plan %d does not decode: %v\n%s", i, err, plan)
	}
	v, err := validate.Plan(q, cat, validate.Options{})
	if err != nil {
		return diffRefused
	}
	var first [][]string
	var firstName string
	for _, e := range dbs {
		s, err := render.SQL(v.Plan, e.d, render.Options{})
		if err != nil {
			t.Fatalf("render %s: %v", e.d.Name(), err)
		}
		got, err := queryAll(e.db, s)
		if err != nil {
			if got = errorRows(err); got == nil {
				t.Errorf("plan %d fails on %s: %v\nplan: %s\nsql: %s", i, e.d.Name(), err, v.Plan.Canonical(), s)
				return diffDiffered
			}
		}
		for _, row := range got {
			for j := range row {
				if err == nil {
					row[j] = normValue(row[j], v.Types[j])
				}
			}
		}
		if first == nil {
			first, firstName = got, e.d.Name()
			continue
		}
		if fmt.Sprint(first) != fmt.Sprint(got) {
			if (err != nil || fmt.Sprint(first) == fmt.Sprint(overflowRows)) && decidedByOrder(v.Plan) {
				// known gap (render/doc.go): whether an engine evaluates the
				// overflowing side of an and/or depends on its own order
				t.Logf("plan %d: %s and %s differ in evaluation order: %v, %v", i, firstName, e.d.Name(), first, got)
				return diffOrder
			}
			t.Errorf("plan %d: %s and %s differ\nplan: %s\n%s: %v\n%s: %v\nsql: %s", i, firstName, e.d.Name(), v.Plan.Canonical(), firstName, first, e.d.Name(), got, s)
			return diffDiffered
		}
	}
	switch fmt.Sprint(first) {
	case fmt.Sprint(overflowRows):
		return diffOverflow
	case fmt.Sprint(severalRowsRows):
		return diffSeveralRows
	}
	return diffSame
}

// overflowed reports whether err is an engine's arithmetic overflow, which
// the adapters report as ARITHMETIC_OVERFLOW (internal/source).
func overflowed(err error) bool {
	m := err.Error()
	for _, p := range []string{"integer overflow", "Out of Range Error", "out of range", "numeric field overflow"} {
		if strings.Contains(m, p) {
			return true
		}
	}
	return false
}
