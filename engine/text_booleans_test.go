package engine

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// textFlagsDB is a SQLite file whose TEXT flags write each truth several
// ways, as rows loaded from several systems do: customers.is_vip holds
// '1' (15 rows), 'true' (14), 'yes' (6) for the 35 VIPs and '0' (20),
// 'false' (15), 'no' (10); payments.refunded 'yes' (5), 'true' (4), '1'
// (5) for 14 refunds and 'no' (30), '0' (6). Two columns write each truth
// one way (flags.simple: 'yes', 'no') or hold a value no boolean spells
// (flags.state: 'on', 'yes', 'off', 'paused'); flags.closed writes false
// alone, three ways.
func textFlagsDB(t *testing.T) string {
	stmts := []string{
		"CREATE TABLE customers (id INTEGER PRIMARY KEY, is_vip TEXT)",
		"CREATE TABLE payments (id INTEGER PRIMARY KEY, refunded TEXT)",
		"CREATE TABLE flags (id INTEGER PRIMARY KEY, simple TEXT, state TEXT, closed TEXT)",
	}
	insert := func(table string, spelt ...any) {
		id := 0
		for i := 0; i < len(spelt); i += 2 {
			for range spelt[i+1].(int) {
				id++
				stmts = append(stmts, fmt.Sprintf("INSERT INTO %s VALUES (%d, '%s')", table, id, spelt[i]))
			}
		}
	}
	insert("customers", "1", 15, "true", 14, "yes", 6, "0", 20, "false", 15, "no", 10)
	insert("payments", "yes", 5, "true", 4, "1", 5, "no", 30, "0", 6)
	stmts = append(stmts, "INSERT INTO flags VALUES (1, 'yes', 'on', 'no'), (2, 'no', 'yes', '0'), (3, 'yes', 'off', 'false'), (4, 'no', 'paused', 'no')")
	return sourcetest.TempDB(t, stmts...)
}

// The threat: a TEXT flag that writes true as '1', 'true' and 'yes'
// (is_vip), filtered on the spelling a question or a lifted SQL gave
// (is_vip = '1', `WHERE is_vip = 1` lifted by plan from-sql), counted 15
// VIPs of 35, and refunded = 'yes' 5 refunds of 14, with no warning,
// though the profile lists every value. The spellings of one truth are
// variants of one value, as 'paid' and 'Paid ' are: a run and a check
// name the other spellings of the same truth (never those of the other)
// and give the IN list that, pasted in, counts them all; = 'no', <>,
// IN and a GROUP BY that makes a group per spelling too. A flag that
// writes each truth one way, or a column some of whose values spell no
// boolean, earns nothing.
func TestTextFlagSpellingsAreVariants(t *testing.T) {
	e := airEngine(t, textFlagsDB(t), nil)
	ctx := context.Background()
	col := func(table, c string) string {
		return `{"kind":"column","table":"` + table + `","column":"` + c + `"}`
	}
	count := func(table, where string) string {
		return `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"` + table + `","alias":"` + table + `"}],"where":` + where + `}`
	}
	eq := func(op, table, c, v string) string {
		return `{"kind":"binary","op":"` + op + `","left":` + col(table, c) + `,"right":{"kind":"literal","value":"` + v + `"}}`
	}
	in := func(table, c string, vs ...string) string {
		lits := make([]string, len(vs))
		for i, v := range vs {
			lits[i] = `{"kind":"literal","value":"` + v + `"}`
		}
		return `{"kind":"in","expr":` + col(table, c) + `,"list":[` + strings.Join(lits, ",") + `]}`
	}
	const said = "only in how they write"
	fixOf := regexp.MustCompile(`use (\{"kind": "in".*\})$`)
	for _, c := range []struct {
		name, table, where string
		n, fixed           int64    // the run's count, and the count of the warning's fix (0: no warning)
		names, not         []string // spellings the warning names, and must not
	}{
		{"= '1'", "customers", eq("=", "customers", "is_vip", "1"), 15, 35, []string{`"true"`, `"yes"`, "write true"}, []string{`"0"`, `"no"`, `"false"`}},
		{"= 'no'", "customers", eq("=", "customers", "is_vip", "no"), 10, 45, []string{`"0"`, `"false"`, "write false"}, []string{`"1"`, `"yes"`, `"true"`}},
		{"refunded = 'yes'", "payments", eq("=", "payments", "refunded", "yes"), 5, 14, []string{`"true"`, `"1"`}, []string{`"no"`, `"0"`}},
		{"<> '1'", "customers", eq("!=", "customers", "is_vip", "1"), 65, 45, []string{`"true"`, `"yes"`, "kept"}, []string{`"no"`}},
		{"IN ('1', 'true')", "customers", in("customers", "is_vip", "1", "true"), 29, 35, []string{`"yes"`}, []string{`"no"`}},
		{"one spelling per truth", "flags", eq("=", "flags", "simple", "yes"), 2, 0, nil, nil},
		{"a value no boolean spells", "flags", eq("=", "flags", "state", "on"), 1, 0, nil, nil},
	} {
		plan := count(c.table, c.where)
		res := runAir(t, e, plan)
		if res.Rows[0][0] != c.n {
			t.Fatalf("%s: %v, want %d (the exact comparison's answer)", c.name, res.Rows, c.n)
		}
		check, err := e.CheckPlan(ctx, "air", []byte(plan), "")
		if err != nil {
			t.Fatalf("%s: check: %v", c.name, err)
		}
		for what, ws := range map[string][]string{"run": res.Warnings, "check": check.Warnings} {
			w := warningWith(ws, said)
			if (w != "") != (c.fixed > 0) {
				t.Errorf("%s (%s): warnings %q, want one naming the other spellings: %v", c.name, what, ws, c.fixed > 0)
			}
			for _, n := range c.names {
				if !strings.Contains(w, n) {
					t.Errorf("%s (%s): warning %q does not name %s", c.name, what, w, n)
				}
			}
			for _, n := range c.not {
				if strings.Contains(w, n) {
					t.Errorf("%s (%s): warning %q names %s, which writes the other truth", c.name, what, w, n)
				}
			}
		}
		if c.fixed == 0 {
			continue
		}
		fix := fixOf.FindStringSubmatch(warningWith(res.Warnings, said))
		if fix == nil {
			t.Fatalf("%s: warnings %q: want an IN list to paste", c.name, res.Warnings)
		}
		fixed := runAir(t, e, count(c.table, fix[1]))
		if fixed.Rows[0][0] != c.fixed {
			t.Errorf("%s: the warning's fix %s counts %v, want %d (every spelling)", c.name, fix[1], fixed.Rows, c.fixed)
		}
		if w := warningWith(fixed.Warnings, said); w != "" {
			t.Errorf("%s: the warning's own fix is warned of again: %q", c.name, w)
		}
	}

	// a count per is_vip shows six groups where there are two; the
	// expression the warning gives, grouped by, makes them true and false
	per := func(x string) string {
		return `{"select":[{"expr":` + x + `,"alias":"k"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"customers","alias":"customers"}],` +
			`"group_by":[{"kind":"column","column":"k"}],"order_by":[{"expr":{"kind":"column","column":"k"}}]}`
	}
	res := runAir(t, e, per(col("customers", "is_vip")))
	const split = "makes a group of each spelling"
	w := warningWith(res.Warnings, split)
	fix := regexp.MustCompile(`group by (\{.*\})$`).FindStringSubmatch(w)
	if len(res.Rows) != 6 || fix == nil || !strings.Contains(w, `"1", "true", "yes"`) || !strings.Contains(w, `"0", "false", "no", which write false`) {
		t.Fatalf("group by is_vip: %v groups, warnings %q: want six and the spellings of each truth named with an expression", res.Rows, res.Warnings)
	}
	if got := fmt.Sprint(runAir(t, e, per(fix[1])).Rows); got != "[[false 45] [true 35]]" {
		t.Errorf("grouped by the warning's expression %s: %s, want false 45 and true 35", fix[1], got)
	}
	perFlag := func(x string) string {
		return `{"select":[{"expr":` + x + `,"alias":"k"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"flags","alias":"flags"}],"group_by":[{"kind":"column","column":"k"}]}`
	}
	for _, c := range []string{"simple", "state"} {
		if w := warningWith(runAir(t, e, perFlag(col("flags", c))).Warnings, split); w != "" {
			t.Errorf("group by %s: %q, want no split groups", c, w)
		}
	}
	// a flag that writes false alone: its fix reads every row false
	fix = regexp.MustCompile(`group by (\{.*\})$`).FindStringSubmatch(warningWith(runAir(t, e, perFlag(col("flags", "closed"))).Warnings, split))
	if fix == nil {
		t.Fatalf("group by closed: want the three spellings of false named with an expression")
	}
	if got := fmt.Sprint(runAir(t, e, perFlag(fix[1])).Rows); got != "[[false 4]]" {
		t.Errorf("closed grouped by the warning's expression %s: %s, want false 4", fix[1], got)
	}
}

// The threat: describe_schema lists a SQLite flag's values as
// false | "n" | true | "y" | NULL and a column's NULL share, while the
// context ask hands a host to plan with said only "fragile boolean" and
// nothing of NULLs: the host counted WHERE fragile = 1 in its own SQL, or
// averaged a weight 13% NULL as if every parcel had one. The context
// lists a flag's values when some are spelt as text (also for a column
// outside the question's focus, whose other values it leaves out), and
// says a NULL share of 5% or more where no values list shows NULL; a
// flag of 1 and 0 alone, or a column 2% NULL, costs no tokens.
func TestHostContextSaysSpeltFlagsAndNullShares(t *testing.T) {
	stmts := []string{"CREATE TABLE parcels (id INTEGER PRIMARY KEY, fragile BOOLEAN, sealed BOOLEAN, weight REAL, depth REAL, " +
		"carrier TEXT, zone INTEGER, width REAL, height REAL, length REAL, price REAL, tax REAL, fee REAL)"}
	for i := range 100 {
		// fragile: 1 and 0 on 60 rows, 'y' and 'n' on 20, NULL on 20;
		// sealed 1 and 0, NULL on 20; weight NULL on 13, depth on 2
		fragile := []string{"1", "0", "'y'", "'n'", "NULL"}[min(i/10, 4)]
		if i < 20 || i >= 40 && i < 80 {
			fragile = fmt.Sprint(i % 2)
		}
		sealed, weight, depth := fmt.Sprint(i%2), fmt.Sprint(i), fmt.Sprint(i)
		if i < 20 {
			sealed = "NULL"
		}
		if i%8 == 7 || i == 98 {
			weight = "NULL"
		}
		if i < 2 {
			depth = "NULL"
		}
		stmts = append(stmts, fmt.Sprintf("INSERT INTO parcels VALUES (%d, %s, %s, %s, %s, 'dhl', %d, 1, 2, 3, 4, 5, 6)", i+1, fragile, sealed, weight, depth, i%3))
	}
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "ship", Engine: "sqlite", Path: sourcetest.TempDB(t, stmts...)}},
		Today: func() string { return "2026-12-06" }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.Ask(context.Background(), AskRequest{Question: "How many fragile parcels are there?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	// a whole schema's context keeps the profile details of the columns
	// in the question's focus alone: fragile outside it is outlined
	snap, err := e.VisibleSnapshot(context.Background(), "ship")
	if err != nil {
		t.Fatal(err)
	}
	cols := make([]string, len(snap.Tables[0].Columns))
	for i, c := range snap.Tables[0].Columns {
		cols[i] = c.Name
	}
	outlined := (&index.Selection{Whole: true, Tables: []index.TableSelection{{Schema: "main", Name: "parcels", Columns: cols}},
		Focus: []index.TableSelection{{Schema: "main", Name: "parcels", Columns: []string{"price", "zone"}}}}).Filter(snap)
	for what, ctx := range map[string]string{"ask": res.HostPlan.SchemaContext, "outside the focus": schemactx.SchemaContext(outlined)} {
		for _, c := range []struct{ column, want, not string }{
			{"fragile", `fragile boolean values [false,true,"n","y",null]`, "% NULL"},
			{"weight", `(13% NULL)`, ""},
			{"sealed", `sealed boolean (20% NULL)`, "values"},
			{"depth", "depth float", "NULL"},
		} {
			_, line, _ := strings.Cut(ctx, " "+c.column+" ")
			line, _, _ = strings.Cut(line, ";")
			if !strings.Contains(" "+c.column+" "+line, c.want) || c.not != "" && strings.Contains(line, c.not) {
				t.Errorf("%s: %s reads %q, want %q (and no %q):\n%s", what, c.column, line, c.want, c.not, ctx)
			}
		}
	}
}

// The threat: a host asked how many parcels are marked 'y' rather than 1
// and found no way: TYPEOF is no plan function, LENGTH of a boolean is a
// type error, and the cast to text gave the reading '1' for 'y' too, so
// it reported the text spellings as absent. The warning of a column that
// holds them gives the cast to group by, and grouped by it the rows come
// apart by stored spelling, each beside the boolean the plan reads.
func TestBooleanSpellingsCountApartCastToText(t *testing.T) {
	stmts := []string{"CREATE TABLE parcels (id INTEGER PRIMARY KEY, fragile BOOLEAN)"}
	for i, v := range []string{"1", "1", "1", "0", "0", "'y'", "'y'", "'n'", "NULL"} {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO parcels VALUES (%d, %s)", i+1, v))
	}
	e := airEngine(t, sourcetest.TempDB(t, stmts...), nil)
	res := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"parcels","alias":"p"}],"where":{"kind":"column","table":"p","column":"fragile"}}`)
	fix := regexp.MustCompile(`group by the column cast to text, which is each value as stored: (\{.*\})$`).FindStringSubmatch(warningWith(res.Warnings, "spelt as text"))
	if fmt.Sprint(res.Rows) != "[[5]]" || fix == nil {
		t.Fatalf("rows %v, warnings %q: want 5 and the cast that counts each spelling", res.Rows, res.Warnings)
	}
	per := runAir(t, e, `{"select":[{"expr":`+fix[1]+`,"alias":"stored"},{"expr":{"kind":"column","table":"p","column":"fragile"},"alias":"reads"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],`+
		`"from":[{"table":"parcels","alias":"p"}],"group_by":[{"kind":"column","column":"stored"},{"kind":"column","column":"reads"}],"order_by":[{"expr":{"kind":"column","column":"stored"}}]}`)
	if got := fmt.Sprint(per.Rows); got != "[[0 false 2] [1 true 3] [n false 1] [y true 2] [<nil> <nil> 1]]" {
		t.Errorf("counted by stored spelling: %s, want 0, 1, n and y apart", got)
	}
}

// The cast of a boolean column to text is SQLite's alone: the stored
// text of a column SQLite lets hold 'y' beside 1. DuckDB and PostgreSQL
// would print 'true' and 'false', SQLite 1 and 0, so elsewhere the cast
// is refused with the case expression that means one thing everywhere,
// and no plan reads two ways.
func TestBooleanCastToTextIsRefusedWhereNoSpellingIsStored(t *testing.T) {
	for _, en := range everyEngine([]string{"CREATE TABLE parcels (id INTEGER PRIMARY KEY, fragile BOOLEAN)", "INSERT INTO parcels VALUES (1, TRUE), (2, FALSE)"}) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			_, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"cast","type":"text","expr":{"kind":"column","table":"p","column":"fragile"}},"alias":"s"}],"from":[{"table":"parcels","alias":"p"}]}`))
			if err == nil || !strings.Contains(err.Error(), "CASE WHEN") {
				t.Errorf("cast of a boolean to text: %v, want it refused with a case expression", err)
			}
		})
	}
}
