package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The threat: MAX over a boolean column ("has any patient opted in?")
// passed check_plan and failed at run time on PostgreSQL ("function
// max(boolean) does not exist"), which has only BOOL_OR and BOOL_AND.
// MAX of booleans is true when any is, MIN when all are, NULL over none,
// on every engine, as an aggregate, with DISTINCT and over a window; SUM
// and AVG of one are refused before running, with the CASE to write.
func TestMinMaxOfBooleansOnEveryEngine(t *testing.T) {
	for _, en := range everyEngine([]string{"CREATE TABLE flags (id INTEGER PRIMARY KEY, grp INTEGER, ok BOOLEAN, n INTEGER)",
		"INSERT INTO flags VALUES (1, 1, TRUE, 3), (2, 1, FALSE, 9), (3, 2, FALSE, 1), (4, 2, FALSE, 2), (5, 3, NULL, 4), (6, 4, TRUE, 8), (7, 4, NULL, 7)"}) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			ok := `{"kind":"column","table":"f","column":"ok"}`
			agg := func(name, arg string, distinct bool) string {
				return fmt.Sprintf(`{"kind":"func","name":%q,"distinct":%v,"args":[%s]}`, name, distinct, arg)
			}
			big := `{"kind":"binary","op":">","left":{"kind":"column","table":"f","column":"n"},"right":{"kind":"literal","value":5}}`
			res := runAir(t, e, `{"select":[{"expr":{"kind":"column","table":"f","column":"grp"}},`+
				`{"expr":`+agg("MAX", ok, false)+`,"alias":"any_ok"},{"expr":`+agg("MIN", ok, false)+`,"alias":"all_ok"},`+
				`{"expr":`+agg("MAX", ok, true)+`,"alias":"any_d"},{"expr":`+agg("MAX", big, false)+`,"alias":"any_big"}],`+
				`"from":[{"table":"flags","alias":"f"}],"group_by":[{"kind":"column","table":"f","column":"grp"}],"order_by":[{"expr":{"kind":"column","column":"grp"}}]}`)
			if got, want := fmt.Sprint(res.Rows), "[[1 true false true true] [2 false false false false] [3 <nil> <nil> <nil> false] [4 true true true true]]"; got != want {
				t.Errorf("MAX and MIN of booleans by group: %s, want %s (SQL %s)", got, want, res.SQL)
			}
			win := runAir(t, e, `{"select":[{"expr":{"kind":"column","table":"f","column":"id"}},`+
				`{"expr":{"kind":"window","name":"MAX","args":[`+ok+`],"partition_by":[{"kind":"column","table":"f","column":"grp"}]},"alias":"any_ok"},`+
				`{"expr":{"kind":"window","name":"MIN","args":[`+ok+`],"partition_by":[{"kind":"column","table":"f","column":"grp"}]},"alias":"all_ok"}],`+
				`"from":[{"table":"flags","alias":"f"}],"order_by":[{"expr":{"kind":"column","column":"id"}}]}`)
			if got, want := fmt.Sprint(win.Rows), "[[1 true false] [2 true false] [3 false false] [4 false false] [5 <nil> <nil>] [6 true true] [7 true true]]"; got != want {
				t.Errorf("MAX and MIN of booleans over a window: %s, want %s (SQL %s)", got, want, win.SQL)
			}
			for _, name := range []string{"SUM", "AVG"} {
				_, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":`+agg(name, ok, false)+`,"alias":"x"}],"from":[{"table":"flags","alias":"f"}]}`))
				if err == nil || !strings.Contains(err.Error(), `write `+name+` over {"kind":"case"`) {
					t.Errorf("%s of a boolean: %v, want it refused with the CASE to write", name, err)
				}
			}
			// the CASE the hint gives runs and counts true as 1, false as 0,
			// and leaves NULL out
			one := `{"kind":"case","whens":[{"when":` + ok + `,"then":{"kind":"literal","value":1}},{"when":{"kind":"unary","op":"not","expr":` + ok + `},"then":{"kind":"literal","value":0}}]}`
			sum := runAir(t, e, `{"select":[{"expr":`+agg("SUM", one, false)+`,"alias":"s"},{"expr":`+agg("AVG", one, false)+`,"alias":"a"}],"from":[{"table":"flags","alias":"f"}]}`)
			if got := fmt.Sprint(sum.Rows); got != "[[2 0.4]]" {
				t.Errorf("SUM and AVG of the hint's CASE: %s, want 2 of 5", got)
			}
		})
	}
}

// The threat: grouping by a uuid column in a CTE wrote the column's text
// (a uuid reads as its text wherever a plan names it), and the join of
// that CTE back to the table on the uuid failed on PostgreSQL ("operator
// does not exist: uuid = text") after check_plan passed it. A key read as
// its text met with one read as stored is compared as read on both sides,
// in a join's key pairs, its condition, an IN subquery and a set
// operation, on every engine; two keys both read as stored still compare
// as stored, and a lookup by a literal uuid as the uuid.
func TestUUIDKeysMetWithTheirTextOnEveryEngine(t *testing.T) {
	const (
		ada = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
		bo  = "11111111-2222-3333-4444-555555555555"
	)
	for _, en := range everyEngine([]string{"CREATE TABLE patients (id UUID PRIMARY KEY, name TEXT)",
		"CREATE TABLE visits (id INTEGER PRIMARY KEY, patient_id UUID REFERENCES patients(id))",
		"INSERT INTO patients VALUES ('" + ada + "', 'Ada'), ('" + bo + "', 'Bo')",
		"INSERT INTO visits VALUES (1, '" + ada + "'), (2, '" + ada + "'), (3, '" + bo + "')"}) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			col := func(t, c string) string { return `{"kind":"column","table":"` + t + `","column":"` + c + `"}` }
			cte := `"with":[{"name":"pc","query":{"select":[{"expr":` + col("v", "patient_id") + `,"alias":"patient_id"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` +
				`"from":[{"table":"visits","alias":"v"}],"group_by":[` + col("v", "patient_id") + `]}}]`
			for _, c := range []struct{ name, plan, rows string }{
				{"the CTE joined back on its key", `{` + cte + `,"select":[{"expr":` + col("v", "id") + `},{"expr":` + col("pc", "n") + `}],"from":[{"table":"visits","alias":"v"},{"table":"pc","alias":"pc"}],` +
					`"joins":[{"left":"v","right":"pc","on":[{"left_column":"patient_id","right_column":"patient_id"}]}],"order_by":[{"expr":` + col("v", "id") + `}]}`, "[[1 2] [2 2] [3 1]]"},
				{"the CTE first, the table's key second", `{` + cte + `,"select":[{"expr":` + col("p", "name") + `},{"expr":` + col("pc", "n") + `}],"from":[{"table":"pc","alias":"pc"},{"table":"patients","alias":"p"}],` +
					`"joins":[{"type":"left","left":"pc","right":"p","on":[{"left_column":"patient_id","right_column":"id"}]}],"order_by":[{"expr":` + col("p", "name") + `}]}`, "[[Ada 2] [Bo 1]]"},
				{"a join condition", `{` + cte + `,"select":[{"expr":` + col("p", "name") + `},{"expr":` + col("pc", "n") + `}],"from":[{"table":"patients","alias":"p"},{"table":"pc","alias":"pc"}],` +
					`"joins":[{"left":"p","right":"pc","on":[],"condition":{"kind":"binary","op":"=","left":` + col("p", "id") + `,"right":` + col("pc", "patient_id") + `}}],"order_by":[{"expr":` + col("p", "name") + `}]}`, "[[Ada 2] [Bo 1]]"},
				{"an IN subquery of the CTE", `{` + cte + `,"select":[{"expr":` + col("p", "name") + `}],"from":[{"table":"patients","alias":"p"}],` +
					`"where":{"kind":"in","expr":` + col("p", "id") + `,"subquery":{"select":[{"expr":` + col("pc", "patient_id") + `}],"from":[{"table":"pc","alias":"pc"}],"where":{"kind":"binary","op":">","left":` + col("pc", "n") + `,"right":{"kind":"literal","value":1}}}},"order_by":[{"expr":` + col("p", "name") + `}]}`, "[[Ada]]"},
				{"a set operation with the CTE", `{` + cte + `,"select":[{"expr":` + col("p", "id") + `,"alias":"id"}],"from":[{"table":"patients","alias":"p"}],` +
					`"set_ops":[{"op":"except","query":{"select":[{"expr":` + col("pc", "patient_id") + `}],"from":[{"table":"pc","alias":"pc"}],"where":{"kind":"binary","op":">","left":` + col("pc", "n") + `,"right":{"kind":"literal","value":1}}}}],"order_by":[{"expr":{"kind":"column","column":"id"}}]}`, "[[" + bo + "]]"},
			} {
				res, err := e.RunPlan(context.Background(), "air", []byte(c.plan))
				if err != nil {
					t.Errorf("%s: %v", c.name, err)
					continue
				}
				if got := fmt.Sprint(res.Rows); got != c.rows {
					t.Errorf("%s: rows %s, want %s (SQL %s)", c.name, got, c.rows, res.SQL)
				}
			}
			// table to table, both read as stored: compared as uuids, by the key
			res := runAir(t, e, `{"select":[{"expr":`+col("p", "name")+`},{"expr":`+col("v", "id")+`}],"from":[{"table":"visits","alias":"v"},{"table":"patients","alias":"p"}],`+
				`"joins":[{"left":"v","right":"p","on":[{"left_column":"patient_id","right_column":"id"}]}],"where":{"kind":"binary","op":"=","left":`+col("v", "patient_id")+`,"right":{"kind":"literal","value":"`+bo+`"}}}`)
			if fmt.Sprint(res.Rows) != "[[Bo 3]]" || !strings.Contains(res.SQL, `ON "v"."patient_id" = "p"."id"`) || !strings.Contains(res.SQL, `("v"."patient_id" = '`+bo+`')`) {
				t.Errorf("a join of two uuid keys and a lookup by a uuid: rows %v, SQL %s, want both compared as stored", res.Rows, res.SQL)
			}
		})
	}
}
