package render_test

import (
	"slices"
	"strings"
	"testing"
)

// A column read as its type (a SQLite DATETIME column holding Unix times
// beside ISO text) or cast from text (timestamps kept as text) is a
// kilobyte of SQL per reference, and a plan names its columns many times:
// an average of the hours between two such columns beside their count was
// 16 kB of SQL, which nobody could review beside the rows. Each table
// reads each such column once, in a derived table, and every reference
// names the reading: the rows stay those of every engine, wherever the
// reference stands (a LEFT JOIN's missing side, a correlated subquery,
// a subquery binding the alias again, a set operation, an ORDER BY with
// a LIMIT, EXISTS).

var readCatalog = func() memCatalog {
	m := table("m", []string{"id integer", "w timestamp", "k integer"})
	m.Columns[1].Mixed, m.Columns[2].Mixed = true, true
	return memCatalog{m, table("e", []string{"id integer", "m_id integer", "s text", "n text"}, "m_id>m.id")}
}()

// readRows are m's rows as SQLite holds them (raw: a Unix time and 'abc'
// its types cannot read) or as the others do (NULL for those), and e's.
func readRows(raw bool) map[string][]string {
	rows := map[string][]string{
		"m": {`1, '2024-03-01 10:00:00', 5`, `2, NULL, NULL`, `3, '2024-03-02 08:00:00', 7`, `4, NULL, NULL`},
		"e": {`1, 1, '2024-03-01 12:30:00', '2.5'`, `2, 3, '2024-03-02T09:00:00Z', 'n/a'`, `3, 9, 'junk', '4'`, `4, 1, '2024-03-01T11:00:00', '1'`},
	}
	if raw {
		rows["m"][1] = `2, 1700000000, 'abc'`
		rows["m"][2] = `3, '2024-03-02T08:00:00Z', 7`
	}
	return rows
}

func TestReadingsAreWrittenOncePerTable(t *testing.T) {
	q := func(alias, col string) string {
		return `{"kind":"column","table":"` + alias + `","column":"` + col + `"}`
	}
	ts := func(v string) string { return `{"kind":"literal","type":"timestamp","value":"` + v + `"}` }
	since := func(x string) string { return call("ELAPSED_SECONDS", x, ts("2024-03-01 00:00:00")) }
	asTS := func(x string) string { return `{"kind":"cast","type":"timestamp","expr":` + x + `}` }
	join := func(typ string) string {
		return `"from":[{"table":"e","alias":"e"},{"table":"m","alias":"m"}],"joins":[{"type":"` + typ + `","left":"e","right":"m","on":[{"left_column":"m_id","right_column":"id"}]}]`
	}
	elapsed := call("ELAPSED_SECONDS", q("e", "s"), q("m", "w"))
	cases := []struct {
		name, plan string
		want       [][]string
	}{
		{"an average of the seconds between two readings and their count",
			`{"select":[{"expr":` + call("AVG", elapsed) + `,"alias":"a"},{"expr":` + call("COUNT", elapsed) + `,"alias":"c"}],` + join("inner") + `}`,
			[][]string{{"5400", "3"}}},
		{"the missing side of a LEFT JOIN reads as NULL",
			`{"select":[{"expr":` + q("e", "id") + `,"alias":"id"},{"expr":` + since(q("m", "w")) + `,"alias":"w"}],` + join("left") + `,"order_by":[{"expr":` + q("e", "id") + `}]}`,
			[][]string{{"1", "36000"}, {"2", "115200"}, {"3", "NULL"}, {"4", "36000"}}},
		{"a correlated subquery reads the outer table's reading and its own",
			`{"select":[{"expr":` + q("m", "id") + `,"alias":"id"},{"expr":{"kind":"subquery","query":{"select":[{"expr":` + call("COUNT") + `,"alias":"n"}],"from":[{"table":"e","alias":"e"}],` +
				`"where":` + binary(">", asTS(q("e", "s")), q("m", "w")) + `}},"alias":"later"}],"from":[{"table":"m","alias":"m"}],"order_by":[{"expr":` + q("m", "id") + `}]}`,
			[][]string{{"1", "3"}, {"2", "0"}, {"3", "1"}, {"4", "0"}}},
		{"a subquery binding the alias again to another table reads its own",
			`{"select":[{"expr":` + q("m", "id") + `,"alias":"id"},{"expr":{"kind":"subquery","query":{"select":[{"expr":` + call("MAX", `{"kind":"cast","type":"float","expr":`+q("m", "n")+`}`) + `,"alias":"n"}],"from":[{"table":"e","alias":"m"}]}},"alias":"top"}],` +
				`"from":[{"table":"m","alias":"m"}],"where":{"kind":"is_null","expr":` + q("m", "w") + `,"negated":true},"order_by":[{"expr":` + q("m", "id") + `}]}`,
			[][]string{{"1", "4"}, {"3", "4"}}},
		{"each branch of a set operation reads its own table",
			`{"select":[{"expr":` + since(q("m", "w")) + `,"alias":"s"}],"from":[{"table":"m","alias":"m"}],"set_ops":[{"op":"union","query":{"select":[{"expr":` + since(asTS(q("e", "s"))) + `,"alias":"s"}],"from":[{"table":"e","alias":"e"}]}}]}`,
			[][]string{{"36000"}, {"39600"}, {"45000"}, {"115200"}, {"118800"}, {"NULL"}}},
		{"an ORDER BY of a reading with a LIMIT",
			`{"select":[{"expr":` + q("m", "id") + `,"alias":"id"}],"from":[{"table":"m","alias":"m"}],"order_by":[{"expr":` + q("m", "w") + `,"direction":"desc"}],"limit":2}`,
			[][]string{{"3"}, {"1"}}},
		{"EXISTS over a reading",
			`{"select":[{"expr":` + q("m", "id") + `,"alias":"id"}],"from":[{"table":"m","alias":"m"}],"where":{"kind":"exists","subquery":{"select":[{"expr":` + num("1") + `,"alias":"one"}],"from":[{"table":"e","alias":"e"}],` +
				`"where":` + binary("and", binary("=", q("e", "m_id"), q("m", "id")), binary(">", asTS(q("e", "s")), ts("2024-03-01 11:30:00"))) + `}},"order_by":[{"expr":` + q("m", "id") + `}]}`,
			[][]string{{"1"}, {"3"}}},
		{"a sum of numbers read from text, grouped by a reading",
			`{"select":[{"expr":` + since(q("m", "w")) + `,"alias":"w"},{"expr":` + call("SUM", `{"kind":"cast","type":"float","expr":`+q("e", "n")+`}`) + `,"alias":"n"}],` + join("inner") +
				`,"group_by":[` + since(q("m", "w")) + `],"order_by":[{"expr":{"kind":"column","column":"w"}}]}`,
			[][]string{{"36000", "3.5"}, {"115200", "NULL"}}},
	}
	dbs := engines(t, readCatalog, readRows(false))
	for i := range dbs {
		if dbs[i].d.Name() == "sqlite" {
			dbs[i].db = openSQLite(t, readCatalog, readRows(true))
		}
	}
	for _, c := range cases {
		for _, e := range dbs {
			s := renderOn(t, readCatalog, c.plan, e.d)
			got, err := queryAll(e.db, s)
			if err != nil {
				t.Errorf("%s/%s: %v\n%s", c.name, e.d.Name(), err, s)
				continue
			}
			if !slices.EqualFunc(got, c.want, slices.Equal) {
				t.Errorf("%s/%s: got %v, want %v\n%s", c.name, e.d.Name(), got, c.want, s)
			}
		}
	}
	// the first plan names each of its two readings four times: each is
	// written once, in the FROM
	for _, e := range dbs {
		s := renderOn(t, readCatalog, cases[0].plan, e.d)
		if len(s) > 5000 {
			t.Errorf("%s: an average and a count of one difference of two readings render as %d bytes:\n%s", e.d.Name(), len(s), s)
		}
		for _, name := range []string{`"e"."s::timestamp"`, `"m"."w::timestamp"`} {
			if e.d.Name() != "sqlite" && name == `"m"."w::timestamp"` {
				continue // a column holds its type's values alone there: no reading
			}
			if n := strings.Count(s, name); n < 2 {
				t.Errorf("%s: %s named %d times, want every reference to name it:\n%s", e.d.Name(), name, n, s)
			}
		}
	}
}
