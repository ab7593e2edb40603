package render_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2" // the real DuckDB engine, in memory

	"github.com/nl2sql/nl2sql/internal/pgtest"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/postgres"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// The engine tests run one validated plan on real SQLite, DuckDB and
// PostgreSQL databases holding the same rows, and require each engine's
// rows to equal both the rows the plan language promises and the rows of a
// hand-written query for that engine.

var duckTypes = map[planast.Type]string{
	planast.TypeInteger: "BIGINT", planast.TypeDecimal: "DECIMAL(18,4)", planast.TypeFloat: "DOUBLE", planast.TypeText: "VARCHAR",
	planast.TypeBoolean: "BOOLEAN", planast.TypeDate: "DATE", planast.TypeTimestamp: "TIMESTAMP", planast.TypeBlob: "BLOB",
}

// openDuckDB opens a fresh in-memory DuckDB database holding cat's tables
// and rows.
func openDuckDB(t testing.TB, cat memCatalog, rows map[string][]string) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	for _, tb := range cat {
		var cols []string
		for _, c := range tb.Columns {
			cols = append(cols, render.QuoteIdent(c.Name)+" "+duckTypes[c.Type])
		}
		stmts := []string{fmt.Sprintf("CREATE TABLE %s (%s)", render.QuoteIdent(tb.Name), strings.Join(cols, ", "))}
		for _, r := range rows[tb.Name] {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO %s VALUES (%s)", render.QuoteIdent(tb.Name), r))
		}
		for _, s := range stmts {
			if _, err := db.Exec(s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
	return db
}

type engineDB struct {
	d  render.Dialect
	db *sql.DB
}

// engines opens the three engines on cat and rows; PostgreSQL needs
// NL2SQL_TEST_PG_DSN (without it the test runs on SQLite and DuckDB only,
// and says so).
func engines(t *testing.T, cat memCatalog, rows map[string][]string) []engineDB {
	t.Helper()
	lite, _ := render.Lookup("sqlite")
	duck, _ := render.Lookup("duckdb")
	pg, _ := render.Lookup("postgres")
	out := []engineDB{{lite, openSQLite(t, cat, rows)}, {duck, openDuckDB(t, cat, rows)}}
	if os.Getenv("NL2SQL_TEST_PG_DSN") == "" && os.Getenv("CI") == "" {
		t.Log("NL2SQL_TEST_PG_DSN is not set: PostgreSQL part not tested")
		return out
	}
	return append(out, engineDB{render.WithFold(pg, pgFold(t)), openPostgres(t, cat, rows)})
}

// pgFold is the collation the PostgreSQL adapter has its plans fold letters
// under on the test server, asked of the adapter itself.
func pgFold(t *testing.T) string {
	t.Helper()
	pgFoldOnce.Do(func() {
		a, err := postgres.OpenPostgres(context.Background(), "fold", pgtest.DSN(t), source.Options{AllowWritableRole: true})
		if err != nil {
			pgFoldErr = err
			return
		}
		defer a.Close()
		pgFoldName = a.FoldCollation()
	})
	if pgFoldErr != nil {
		t.Fatal(pgFoldErr)
	}
	return pgFoldName
}

var (
	pgFoldOnce sync.Once
	pgFoldName string
	pgFoldErr  error
)

// engineCase is one plan, the rows it must return (in order), and
// hand-written SQL per engine ("" for the engines a single query fits).
type engineCase struct {
	name string
	plan string
	want [][]string
	sql  map[string]string
	opts *render.Options
}

func runEngineCases(t *testing.T, cat memCatalog, rows map[string][]string, cases []engineCase) {
	t.Helper()
	dbs := engines(t, cat, rows)
	for _, c := range cases {
		q, err := planast.Decode([]byte(c.plan), planast.DefaultLimits)
		if err != nil {
			t.Fatalf("%s: decode: %v", c.name, err)
		}
		v, err := validate.Plan(q, cat, validate.Options{})
		if err != nil {
			t.Fatalf("%s: validate: %v", c.name, err)
		}
		opts := render.Options{}
		if c.opts != nil {
			opts = *c.opts
		}
		for _, e := range dbs {
			s, err := render.SQL(v.Plan, e.d, opts)
			if err != nil {
				t.Fatalf("%s/%s: %v", c.name, e.d.Name(), err)
			}
			got, err := queryAll(e.db, s)
			if err != nil {
				t.Errorf("%s/%s: %v\n%s", c.name, e.d.Name(), err, s)
				continue
			}
			if !slices.EqualFunc(got, c.want, slices.Equal) {
				t.Errorf("%s/%s: got %v, want %v\n%s", c.name, e.d.Name(), got, c.want, s)
			}
			hand := c.sql[e.d.Name()]
			if hand == "" {
				hand = c.sql[""]
			}
			if hand == "" {
				continue
			}
			ref, err := queryAll(e.db, hand)
			if err != nil {
				t.Errorf("%s/%s hand-written: %v\n%s", c.name, e.d.Name(), err, hand)
				continue
			}
			if !slices.EqualFunc(got, ref, slices.Equal) {
				t.Errorf("%s/%s: plan rows %v differ from the hand-written query's %v", c.name, e.d.Name(), got, ref)
			}
		}
	}
}

// textCatalog holds text and dates as each engine stores them; on SQLite
// the dates are ISO text, with and without a time and a "T".
var textCatalog = memCatalog{
	table("w", []string{"id integer", "s text", "n integer", "d date", "ts timestamp"}),
}

var textRows = map[string][]string{"w": {
	`1, 'hello', 2, '2024-03-31', '2024-03-31 23:59:59'`,
	`2, 'ab', 5, '2023-12-01', '2023-10-01 00:00:00'`,
	`3, '', 0, '1999-01-09', '2024-04-01 00:00:00'`,
	`4, NULL, NULL, NULL, NULL`,
	`5, 'ñandú', -1, '2024-02-29', '2024-03-01 00:00:00.5'`,
}}

// row selects the expressions es (aliased e0, e1, ...) of table w, ordered
// by id.
func wRows(es ...string) string {
	items := make([]string, len(es)+1)
	items[0] = `{"expr":{"kind":"column","column":"id"},"alias":"id"}`
	for i, e := range es {
		items[i+1] = `{"expr":` + e + `,"alias":"e` + string(rune('0'+i)) + `"}`
	}
	return `{"select":[` + strings.Join(items, ",") + `],"from":[{"table":"w","alias":"w"}],"order_by":[{"expr":{"kind":"column","column":"id"}}]}`
}

func TestEnginesSubstrLeftRight(t *testing.T) {
	s, n := column("s"), column("n")
	sub := func(args ...string) string { return call("SUBSTR", append([]string{s}, args...)...) }
	runEngineCases(t, textCatalog, textRows, []engineCase{
		{name: "substr from the end", plan: wRows(sub(num("-2")), sub(num("-3"), num("2")), sub(num("0"), num("2")), sub(num("-10")), sub(num("-7"), num("4")), sub(num("9"))),
			want: [][]string{{"1", "lo", "ll", "h", "hello", "he", ""}, {"2", "ab", "a", "a", "ab", "", ""}, {"3", "", "", "", "", "", ""},
				{"4", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}, {"5", "dú", "nd", "ñ", "ñandú", "ña", ""}},
			sql: map[string]string{"sqlite": `SELECT id, substr(s, -2), substr(s, -3, 2), substr(s, 0, 2), substr(s, -10), substr(s, -7, 4), substr(s, 9) FROM w ORDER BY id`,
				"duckdb":   `SELECT id, right(s, 2), CASE WHEN length(s) >= 3 THEN substring(s, length(s) - 2, 2) ELSE substring(s, 1, greatest(length(s) - 1, 0)) END, left(s, 1), s, left(s, greatest(length(s) - 3, 0)), substring(s, 9) FROM w ORDER BY id`,
				"postgres": `SELECT id, right(s, 2), substr(s, length(s) - 2, 2), substr(s, 0, 2), s, left(s, greatest(length(s) - 3, 0)), substr(s, 9) FROM w ORDER BY id`}},
		{name: "substr with a start computed from a column", plan: wRows(sub(binary("-", num("0"), n)), sub(binary("-", num("0"), n), num("1"))),
			want: [][]string{{"1", "lo", "l"}, {"2", "ab", ""}, {"3", "", ""}, {"4", "NULL", "NULL"}, {"5", "ñandú", "ñ"}}},
		{name: "left and right", plan: wRows(call("LEFT", s, num("2")), call("RIGHT", s, num("2")), call("LEFT", s, num("0")), call("RIGHT", s, num("0")),
			call("LEFT", s, num("99")), call("RIGHT", s, num("99")), call("LEFT", s, n), call("RIGHT", s, n)),
			want: [][]string{{"1", "he", "lo", "", "", "hello", "hello", "he", "lo"}, {"2", "ab", "ab", "", "", "ab", "ab", "ab", "ab"},
				{"3", "", "", "", "", "", "", "", ""}, {"4", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"},
				{"5", "ña", "dú", "", "", "ñandú", "ñandú", "", ""}},
			sql: map[string]string{"sqlite": `SELECT id, substr(s, 1, 2), substr(s, -2), substr(s, 1, 0), substr(s, 1, 0), s, s, substr(s, 1, max(n, 0)), CASE WHEN n <= 0 THEN substr(s, 1, 0) ELSE substr(s, -n) END FROM w ORDER BY id`,
				"duckdb":   `SELECT id, left(s, 2), right(s, 2), left(s, 0), right(s, 0), left(s, 99), right(s, 99), left(s, greatest(n, 0)), right(s, greatest(n, 0)) FROM w ORDER BY id`,
				"postgres": `SELECT id, left(s, 2), right(s, 2), left(s, 0), right(s, 0), left(s, 99), right(s, 99), left(s, greatest(n, 0)::int), right(s, greatest(n, 0)::int) FROM w ORDER BY id`}},
	})
}

func TestEnginesPeriodLabel(t *testing.T) {
	lab := func(unit, x string) string { return call("PERIOD_LABEL", str(unit), column(x)) }
	runEngineCases(t, textCatalog, textRows, []engineCase{
		{name: "period labels of dates and timestamps", plan: wRows(lab("year", "d"), lab("quarter", "d"), lab("month", "d"), lab("day", "d"),
			lab("year", "ts"), lab("quarter", "ts"), lab("month", "ts"), lab("day", "ts")),
			want: [][]string{{"1", "2024", "2024-Q1", "2024-03", "2024-03-31", "2024", "2024-Q1", "2024-03", "2024-03-31"},
				{"2", "2023", "2023-Q4", "2023-12", "2023-12-01", "2023", "2023-Q4", "2023-10", "2023-10-01"},
				{"3", "1999", "1999-Q1", "1999-01", "1999-01-09", "2024", "2024-Q2", "2024-04", "2024-04-01"},
				{"4", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"},
				{"5", "2024", "2024-Q1", "2024-02", "2024-02-29", "2024", "2024-Q1", "2024-03", "2024-03-01"}},
			sql: map[string]string{"sqlite": `SELECT id, strftime('%Y', d), strftime('%Y', d) || '-Q' || ((strftime('%m', d) + 2) / 3), strftime('%Y-%m', d), strftime('%Y-%m-%d', d),
				strftime('%Y', ts), strftime('%Y', ts) || '-Q' || ((strftime('%m', ts) + 2) / 3), strftime('%Y-%m', ts), strftime('%Y-%m-%d', ts) FROM w ORDER BY id`,
				"duckdb": `SELECT id, strftime(d, '%Y'), strftime(d, '%Y') || '-Q' || quarter(d), strftime(d, '%Y-%m'), strftime(d, '%Y-%m-%d'),
				strftime(ts, '%Y'), strftime(ts, '%Y') || '-Q' || quarter(ts), strftime(ts, '%Y-%m'), strftime(ts, '%Y-%m-%d') FROM w ORDER BY id`,
				"postgres": `SELECT id, to_char(d, 'YYYY'), to_char(d, 'YYYY-"Q"Q'), to_char(d, 'YYYY-MM'), to_char(d, 'YYYY-MM-DD'),
				to_char(ts, 'YYYY'), to_char(ts, 'YYYY-"Q"Q'), to_char(ts, 'YYYY-MM'), to_char(ts, 'YYYY-MM-DD') FROM w ORDER BY id`}},
	})
}

// idsWhere selects the ids of w's rows where cond holds.
func idsWhere(cond string) string {
	return `{"select":[{"expr":{"kind":"column","column":"id"},"alias":"id"}],"from":[{"table":"w","alias":"w"}],"where":` + cond + `,"order_by":[{"expr":{"kind":"column","column":"id"}}]}`
}

func ids(xs ...string) [][]string {
	out := [][]string{}
	for _, x := range xs {
		out = append(out, []string{x})
	}
	return out
}

// TestEnginesDateCoversItsDay: a date compared with a timestamp covers its
// whole day, so the last second of a month's last day is in the month on
// every engine.
func TestEnginesDateCoversItsDay(t *testing.T) {
	ts := column("ts")
	between := func(lo, hi string, neg bool) string {
		return fmt.Sprintf(`{"kind":"between","expr":%s,"low":%s,"high":%s,"negated":%v}`, ts, lo, hi, neg)
	}
	hand := func(cond string) map[string]string {
		pg := strings.NewReplacer("'2024", "TIMESTAMP '2024", "'2023", "TIMESTAMP '2023").Replace(cond)
		return map[string]string{"sqlite": "SELECT id FROM w WHERE " + cond + " ORDER BY id",
			"duckdb": "SELECT id FROM w WHERE " + pg + " ORDER BY id", "postgres": "SELECT id FROM w WHERE " + pg + " ORDER BY id"}
	}
	runEngineCases(t, textCatalog, textRows, []engineCase{
		{name: "between dates", plan: idsWhere(between(date("2024-03-01"), date("2024-03-31"), false)), want: ids("1", "5"),
			sql: hand("ts >= '2024-03-01 00:00:00' AND ts < '2024-04-01 00:00:00'")},
		{name: "between date strings", plan: idsWhere(between(str("2024-03-01"), str("2024-03-31"), false)), want: ids("1", "5")},
		{name: "not between", plan: idsWhere(between(date("2024-03-01"), date("2024-03-31"), true)), want: ids("2", "3"),
			sql: hand("NOT (ts >= '2024-03-01 00:00:00' AND ts < '2024-04-01 00:00:00')")},
		{name: "equal", plan: idsWhere(binary("=", ts, date("2024-03-31"))), want: ids("1"),
			sql: hand("ts >= '2024-03-31 00:00:00' AND ts < '2024-04-01 00:00:00'")},
		{name: "not equal", plan: idsWhere(binary("!=", ts, date("2024-03-31"))), want: ids("2", "3", "5")},
		{name: "at most", plan: idsWhere(binary("<=", ts, date("2024-03-31"))), want: ids("1", "2", "5"), sql: hand("ts < '2024-04-01 00:00:00'")},
		{name: "after", plan: idsWhere(binary(">", ts, date("2024-03-31"))), want: ids("3"), sql: hand("ts >= '2024-04-01 00:00:00'")},
		{name: "before", plan: idsWhere(binary("<", ts, date("2024-04-01"))), want: ids("1", "2", "5"), sql: hand("ts < '2024-04-01 00:00:00'")},
		{name: "from", plan: idsWhere(binary(">=", ts, date("2024-04-01"))), want: ids("3"), sql: hand("ts >= '2024-04-01 00:00:00'")},
		{name: "date on the left", plan: idsWhere(binary(">=", date("2024-03-31"), ts)), want: ids("1", "2", "5")},
		{name: "in a list of days", plan: idsWhere(`{"kind":"in","expr":` + ts + `,"list":[` + date("2024-03-31") + `,` + str("2023-10-01") + `]}`), want: ids("1", "2")},
		{name: "a date column", plan: idsWhere(binary("<=", ts, column("d"))), want: ids("1", "2")},
	})
}

func TestEnginesOutputAliasesInGroupByHaving(t *testing.T) {
	plan := `{"select":[{"expr":` + call("PERIOD_LABEL", str("year"), column("d")) + `,"alias":"yr"},{"expr":` + call("COUNT") + `,"alias":"cnt"}],
	 "from":[{"table":"w","alias":"w"}],"group_by":[` + column("yr") + `],"having":` + binary(">", column("cnt"), num("1")) + `,"order_by":[{"expr":` + column("yr") + `}]}`
	runEngineCases(t, textCatalog, textRows, []engineCase{
		{name: "group by and having on aliases", plan: plan, want: [][]string{{"2024", "2"}},
			sql: map[string]string{"sqlite": `SELECT strftime('%Y', d) AS yr, COUNT(*) AS cnt FROM w GROUP BY yr HAVING cnt > 1 ORDER BY yr`,
				"duckdb":   `SELECT strftime(d, '%Y') AS yr, COUNT(*) AS cnt FROM w GROUP BY yr HAVING cnt > 1 ORDER BY yr`,
				"postgres": `SELECT to_char(d, 'YYYY') AS yr, COUNT(*) AS cnt FROM w GROUP BY to_char(d, 'YYYY') HAVING COUNT(*) > 1 ORDER BY yr`}},
	})
}

// tracksBy selects TrackId and Name of the golden tracks ordered by key
// (descending) with the extra plan fields.
func tracksBy(key, extra string) string {
	return `{"select":[{"expr":{"kind":"column","column":"TrackId"},"alias":"id"},{"expr":{"kind":"column","column":"Name"},"alias":"name"}],
	 "from":[{"table":"Track","alias":"t"}],"order_by":[{"expr":{"kind":"column","table":"t","column":"` + key + `"},"direction":"desc"}]` + extra + `}`
}

func TestEnginesWithTiesAndQualify(t *testing.T) {
	// prices: tracks 4 and 5 cost 1.99, tracks 1, 2 and 3 cost 0.99
	topPrice := func(n string) map[string]string {
		return map[string]string{
			"sqlite":   `SELECT id, name FROM (SELECT TrackId AS id, Name AS name, UnitPrice AS p, RANK() OVER (ORDER BY UnitPrice DESC) AS r FROM Track) WHERE r <= ` + n + ` ORDER BY p DESC, id, name`,
			"duckdb":   `SELECT TrackId AS id, Name AS name FROM Track QUALIFY RANK() OVER (ORDER BY UnitPrice DESC) <= ` + n + ` ORDER BY UnitPrice DESC, id, name`,
			"postgres": `SELECT id, name FROM (SELECT "TrackId" AS id, "Name" AS name, "UnitPrice" AS p FROM "Track" ORDER BY "UnitPrice" DESC FETCH FIRST ` + n + ` ROWS WITH TIES) x ORDER BY p DESC, id, name`,
		}
	}
	cap3 := render.Options{MaxRows: 3}
	rankAlias := `{"expr":{"kind":"window","name":"RANK","args":[],"partition_by":[{"kind":"column","column":"GenreId"}],"order_by":[{"expr":{"kind":"column","column":"Milliseconds"},"direction":"desc"}]},"alias":"r"}`
	perGenre := `{"select":[{"expr":{"kind":"column","column":"GenreId"},"alias":"genre"},{"expr":{"kind":"column","column":"Name"},"alias":"name"},` + rankAlias + `],
	 "from":[{"table":"Track","alias":"t"}],"qualify":{"kind":"binary","op":"=","left":{"kind":"column","column":"r"},"right":{"kind":"literal","value":1}},
	 "order_by":[{"expr":{"kind":"column","column":"genre"}}]}`
	runEngineCases(t, goldenCatalog, goldenRows, []engineCase{
		{name: "limit 1 with ties", plan: tracksBy("UnitPrice", `,"limit":1,"with_ties":true`),
			want: [][]string{{"4", "Walk On Water"}, {"5", "Love In An Elevator"}}, sql: topPrice("1")},
		{name: "limit 3 with ties keeps every tie of the third row", plan: tracksBy("UnitPrice", `,"limit":3,"with_ties":true`),
			want: [][]string{{"4", "Walk On Water"}, {"5", "Love In An Elevator"}, {"1", "For Those About To Rock"}, {"2", "Balls to the Wall"}, {"3", "Fast As a Shark"}}, sql: topPrice("3")},
		{name: "without ties the limit cuts", plan: tracksBy("UnitPrice", `,"limit":3`),
			want: [][]string{{"4", "Walk On Water"}, {"5", "Love In An Elevator"}, {"1", "For Those About To Rock"}}},
		// the engine renders with its row cap + 1: rows beyond the cap show the result was cut
		{name: "the row cap still cuts ties", plan: tracksBy("UnitPrice", `,"limit":3,"with_ties":true`), opts: &cap3,
			want: [][]string{{"4", "Walk On Water"}, {"5", "Love In An Elevator"}, {"1", "For Those About To Rock"}}},
		{name: "qualify the first of each genre", plan: perGenre,
			want: [][]string{{"1", "For Those About To Rock", "1"}, {"2", "Love In An Elevator", "1"}, {"3", "Fast As a Shark", "1"}},
			sql: map[string]string{
				"sqlite":   `SELECT * FROM (SELECT GenreId AS genre, Name AS name, RANK() OVER (PARTITION BY GenreId ORDER BY Milliseconds DESC) AS r FROM Track) WHERE r = 1 ORDER BY genre`,
				"duckdb":   `SELECT GenreId AS genre, Name AS name, RANK() OVER (PARTITION BY GenreId ORDER BY Milliseconds DESC) AS r FROM Track QUALIFY r = 1 ORDER BY genre`,
				"postgres": `SELECT * FROM (SELECT "GenreId" AS genre, "Name" AS name, RANK() OVER (PARTITION BY "GenreId" ORDER BY "Milliseconds" DESC) AS r FROM "Track") x WHERE r = 1 ORDER BY genre`}},
	})
}

// The golden plan joining Invoice to Customer on the billing country, a
// pair no foreign key declares, validates with exactly that warning.
func TestGoldenUndeclaredJoinWarns(t *testing.T) {
	for _, g := range goldenPlans(t) {
		if g.name == "undeclared_join" {
			if len(g.v.Warnings) != 1 || !strings.HasPrefix(g.v.Warnings[0], "joins[0].on[0]: no foreign key or declared relationship joins i.BillingCountry to c.Country") {
				t.Errorf("warnings %q", g.v.Warnings)
			}
			return
		}
	}
	t.Fatal("no undeclared_join golden plan")
}

// The threat: a plan joining more tables than an engine can (SQLite joins
// at most 64) passed check_plan and then failed at run time as
// QUERY_FAILED, phrased as the engine's error. The decoder's bound is
// that limit: at it, the plan runs on every engine; past it, decoding
// refuses it (planast's decode tests).
func TestJoinAtTheSourceLimitRunsEverywhere(t *testing.T) {
	cat := memCatalog{table("n", []string{"id integer"})}
	from := make([]string, planast.MaxSources)
	var joins []string
	for i := range from {
		from[i] = fmt.Sprintf(`{"table":"n","alias":"a%d"}`, i)
		if i > 0 {
			joins = append(joins, fmt.Sprintf(`{"type":"inner","left":"a0","right":"a%d","on":[{"left_column":"id","right_column":"id"}]}`, i))
		}
	}
	plan := `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[` + strings.Join(from, ",") +
		`],"joins":[` + strings.Join(joins, ",") + `]}`
	for _, e := range engines(t, cat, map[string][]string{"n": {"1", "2"}}) {
		if got := planRows(t, e, cat, plan); fmt.Sprint(got) != "[[2]]" {
			t.Errorf("%s: %v, want [[2]]", e.d.Name(), got)
		}
	}
}
