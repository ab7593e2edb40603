package render_test

import (
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// A key built of an id and a name (CONCAT(id, '|', name)) was refused
// with a type error, though SQLite's || takes the number: a whole
// number's text is its digits on every engine, so the plan takes it as
// text, and the rows are the same on the three engines. A float or a
// decimal, which each engine prints its own way, still needs the
// rounding its error gives, and a column holding values its type cannot
// read the cast written out.
func TestConcatTakesWholeNumbers(t *testing.T) {
	runEngineCases(t, textCatalog, textRows, []engineCase{
		{name: "an integer column and text",
			plan: wRows(call("CONCAT", column("n"), str("|"), column("s"))),
			want: [][]string{{"1", "2|hello"}, {"2", "5|ab"}, {"3", "0|"}, {"4", "NULL"}, {"5", "-1|ñandú"}}},
		{name: "an integer literal",
			plan: wRows(call("CONCAT", str("#"), num("9007199254740993"))),
			want: [][]string{{"1", "#9007199254740993"}, {"2", "#9007199254740993"}, {"3", "#9007199254740993"}, {"4", "#9007199254740993"}, {"5", "#9007199254740993"}}},
	})
	q, err := planast.Decode([]byte(wRows(call("CONCAT", column("s"), num("2.5")))), planast.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := validate.Plan(q, textCatalog, validate.Options{}); err == nil {
		t.Error("CONCAT of a float validated: its text differs by engine")
	}
	// a SQLite column holding 'abc' beside its integers: as text it is
	// the text stored, which only a cast written out may show
	q, err = planast.Decode([]byte(`{"select":[{"expr":`+call("CONCAT", column("k"), str("|"))+`,"alias":"c"}],"from":[{"table":"x","alias":"x"}]}`), planast.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := validate.Plan(q, mixedCatalog(), validate.Options{}); err == nil {
		t.Error("CONCAT of an integer column holding text its type cannot read validated")
	}
}
