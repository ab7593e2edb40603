package render_test

import (
	"strings"
	"testing"
)

// A rendering that names its operand twice (SQRT tests its domain, a
// quarter label reads the year and the month) copied a long operand into
// each place, so a plan nesting a few calls over a text column came back
// as tens of kilobytes of SQL that no one could read beside the rows and
// every engine evaluated over and over. Each such operand must be named
// once, and the answers stay those of every engine, in grouped queries
// too, where the engines match an expression of the grouping keys by its
// text.

func nest(name string, depth int, x string) string {
	for range depth {
		x = call(name, x)
	}
	return x
}

func TestNestedCallsNameTheirOperandOnce(t *testing.T) {
	text := `{"kind":"cast","type":"float","expr":` + column("t") + `}`
	deep := nest("SQRT", 5, text)
	sum := `{"select":[{"expr":` + call("SUM", deep) + `,"alias":"s"}],"from":[{"table":"ep","alias":"ep"}]}`
	quarter := call("PERIOD_LABEL", str("quarter"), call("FROM_EPOCH_SECONDS", column("t")))
	grouped := func(sel, key string) string {
		return `{"select":[{"expr":` + sel + `,"alias":"q"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` +
			`"from":[{"table":"ep","alias":"ep"}],"group_by":[` + key + `],"order_by":[{"expr":{"kind":"column","column":"q"}}]}`
	}
	// a key that is a select item binds too: grouping by a month is the
	// commonest plan there is
	deepKey := nest("SQRT", 5, text)
	for _, d := range dialects() {
		for _, p := range []string{strings.ReplaceAll(wRows(deep), `"table":"w","alias":"w"`, `"table":"ep","alias":"ep"`), sum, grouped(deepKey, deepKey)} {
			s := renderOn(t, epochCatalog, p, d)
			// the text cast alone is a few hundred bytes; copied twice
			// per level it was 2^5 times that
			if len(s) > 4000 {
				t.Errorf("%s: five nested SQRT over a text cast render as %d bytes of SQL:\n%s", d.Name(), len(s), s)
			}
		}
	}
	runEngineCases(t, epochCatalog, epochRows, []engineCase{
		{name: "five nested square roots of text read as numbers",
			plan: strings.ReplaceAll(wRows(deep), `"table":"w","alias":"w"`, `"table":"ep","alias":"ep"`),
			want: [][]string{{"1", "1.9395846977634235"}, {"2", "NULL"}, {"3", "NULL"}, {"4", "NULL"}, {"5", "1.2409377607517196"}}},
		{name: "grouped by a quarter of Unix times held as text",
			plan: grouped(quarter, quarter),
			want: [][]string{{"1969-Q4", "1"}, {"1970-Q1", "1"}, {"2021-Q1", "1"}, {"NULL", "2"}}},
		{name: "grouped by the timestamp, its quarter shown",
			plan: grouped(quarter, call("FROM_EPOCH_SECONDS", column("t"))),
			want: [][]string{{"1969-Q4", "1"}, {"1970-Q1", "1"}, {"2021-Q1", "1"}, {"NULL", "2"}}},
		{name: "nested calls over a running count: the window stays the outer query's",
			plan: strings.ReplaceAll(wRows(nest("SQRT", 2, `{"kind":"window","name":"COUNT","args":[],"order_by":[{"expr":`+column("id")+`}]}`)), `"table":"w","alias":"w"`, `"table":"ep","alias":"ep"`),
			want: [][]string{{"1", "1"}, {"2", "1.189207115002721"}, {"3", "1.3160740129524924"}, {"4", "1.4142135623730951"}, {"5", "1.4953487812212205"}}},
		{name: "grouped by nested calls that are a select item",
			plan: grouped(deepKey, deepKey),
			want: [][]string{{"1.2409377607517196", "1"}, {"1.9395846977634235", "1"}, {"NULL", "3"}}},
		{name: "grouped by a call binding its operand, in a key short enough to write whole",
			plan: grouped(call("SQRT", text), call("SQRT", text)),
			want: [][]string{{"31.622776601683793", "1"}, {"40118.06575596585", "1"}, {"NULL", "3"}}},
		{name: "a HAVING on a key that is a select item",
			plan: strings.Replace(grouped(deepKey, deepKey), `,"order_by"`, `,"having":{"kind":"binary","op":">","left":`+deepKey+`,"right":`+num("1.5")+`},"order_by"`, 1),
			want: [][]string{{"1.9395846977634235", "1"}}},
		{name: "an aggregate over nested calls",
			plan: sum,
			want: [][]string{{"3.180522458515143"}}},
	})
}
