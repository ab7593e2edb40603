package engine

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a status typed by hand into the data ('paid', 'Paid',
// 'paid ', 'payed') and a filter written from the question
// (status = 'paid') that matches one spelling. The result is not empty,
// so no empty-result check speaks, and the sum looks right while the
// rows of the other spellings are left out (kept, under != and NOT IN).
// A run and a check must name every other spelling, and the IN list the
// warning gives must take them all. A column without such variants earns
// nothing, even where values are spelled nearly alike ('Anna' and 'Anne'
// are two people), digits never make a near spelling (2017 is not 2018),
// and a short word two edits away that does not start alike is another
// value ('void' offered as a spelling of 'paid' counted void invoices as
// revenue); a near spelling counts once the column shows it was typed by
// hand, by any value's several spellings ('canceled' beside 'cancelled'
// where 'Delivered' stands beside 'delivered'). A caller behind a row
// filter learns no value from it.
func TestLiteralMatchingOneOfSeveralSpellingsIsNamed(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT, amount INTEGER, customer TEXT, year TEXT, region TEXT, state TEXT)",
		"INSERT INTO orders VALUES (1, 'paid', 100, 'Anna', '2017', 'north', 'delivered'), (2, 'Paid', 20, 'Anne', '2017 ', 'north', 'Delivered'), (3, 'paid ', 3, 'Anna', '2018', 'north', 'cancelled'),"+
			" (4, 'payed', 4000, 'Bo', '2018', 'south', 'canceled'), (5, 'shipped', 50000, 'Bo', '2019', 'south', 'delivered'), (6, 'paid', 100, 'Cy', '2019', 'south', 'cancelled'), (7, 'paid2', 0, 'Cy', '2019', 'south', 'delivered'),"+
			" (8, 'void', 7, 'Di', '2019', 'south', 'delivered')")
	e := airEngine(t, db, nil)
	ctx := context.Background()
	col := func(c string) string { return `{"kind":"column","table":"o","column":"` + c + `"}` }
	sum := func(where string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"SUM","args":[` + col("amount") + `]},"alias":"total"}],"from":[{"table":"orders","alias":"o"}],"where":` + where + `}`)
	}
	cmp := func(op, c, v string) string {
		return `{"kind":"binary","op":"` + op + `","left":` + col(c) + `,"right":{"kind":"literal","value":"` + v + `"}}`
	}
	const said = "only, but the column also stores"
	for _, c := range []struct {
		name, where string
		total       int64
		names, not  []string
	}{
		{"equality", cmp("=", "status", "paid"), 200, []string{`"Paid"`, `"paid "`, `"payed"`}, []string{`"shipped"`, `"paid2"`, `"void"`}},
		{"in list", `{"kind":"in","expr":` + col("status") + `,"list":[{"kind":"literal","value":"paid"}]}`, 200, []string{`"Paid"`, `"paid "`, `"payed"`}, nil},
		{"not equal", cmp("!=", "status", "paid"), 54030, []string{`"Paid"`, `"payed"`, "kept"}, nil},
		{"not in", `{"kind":"in","negated":true,"expr":` + col("status") + `,"list":[{"kind":"literal","value":"paid"}]}`, 54030, []string{`"Paid"`, "kept"}, nil},
		{"digits are no misspelling", cmp("=", "year", "2017"), 100, []string{`"2017 "`}, []string{`"2018"`}},
		{"near names without variants", cmp("=", "customer", "Anna"), 103, nil, nil},
		{"the only spelling", cmp("=", "status", "shipped"), 50000, nil, nil},
		// typed by hand, as 'Delivered' beside 'delivered' shows: a near
		// spelling of another value is one of it
		{"near spelling in a column typed by hand", cmp("=", "state", "cancelled"), 103, []string{`"canceled"`}, []string{`"delivered"`}},
	} {
		res, err := e.RunPlan(ctx, "air", sum(c.where))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Rows[0][0] != c.total {
			t.Fatalf("%s: %v, want %d (the exact comparison's answer)", c.name, res.Rows, c.total)
		}
		check, err := e.CheckPlan(ctx, "air", sum(c.where), "")
		if err != nil {
			t.Fatalf("%s: check: %v", c.name, err)
		}
		for what, ws := range map[string][]string{"run": res.Warnings, "check": check.Warnings} {
			w := warningWith(ws, said)
			if (w != "") != (len(c.names) > 0) {
				t.Errorf("%s (%s): warnings %q, want one naming the other spellings: %v", c.name, what, ws, len(c.names) > 0)
			}
			for _, n := range c.names {
				if !strings.Contains(w, n) {
					t.Errorf("%s (%s): warning %q does not name %s", c.name, what, w, n)
				}
			}
			for _, n := range c.not {
				if strings.Contains(w, n) {
					t.Errorf("%s (%s): warning %q names %s, which is another value", c.name, what, w, n)
				}
			}
		}
	}

	// the warning's IN list, pasted into the plan, takes every spelling
	res, err := e.RunPlan(ctx, "air", sum(cmp("=", "status", "paid")))
	if err != nil {
		t.Fatal(err)
	}
	fix := regexp.MustCompile(`\{"kind": "in".*\}$`).FindString(warningWith(res.Warnings, said))
	if fix == "" {
		t.Fatalf("warnings %q: want an IN list to paste", res.Warnings)
	}
	fixed, err := e.RunPlan(ctx, "air", sum(fix))
	if err != nil {
		t.Fatalf("the warning's fix %s: %v", fix, err)
	}
	if fixed.Rows[0][0] != int64(4223) {
		t.Errorf("the warning's fix gives %v, want 4223 (every spelling of paid)", fixed.Rows)
	}
	if w := warningWith(fixed.Warnings, said); w != "" {
		t.Errorf("the warning's own fix is warned of again: %q", w)
	}

	// an IN that lists some spellings gets one warning, whose list keeps
	// them and adds the rest: a warning per item, each offering a list of
	// two, led a host to drop the spellings it had
	partial := `{"kind":"in","expr":` + col("status") + `,"list":[{"kind":"literal","value":"paid"},{"kind":"literal","value":"Paid"}]}`
	res, err = e.RunPlan(ctx, "air", sum(partial))
	if err != nil {
		t.Fatal(err)
	}
	var fixes []string
	for _, w := range res.Warnings {
		if strings.Contains(w, said) {
			fixes = append(fixes, w)
		}
	}
	if len(fixes) != 1 {
		t.Fatalf("IN ('paid', 'Paid'): %d spelling warnings %q, want one for the list", len(fixes), fixes)
	}
	fixed, err = e.RunPlan(ctx, "air", sum(regexp.MustCompile(`\{"kind": "in".*\}$`).FindString(fixes[0])))
	if err != nil || fixed.Rows[0][0] != int64(4223) {
		t.Errorf("the list warning's fix: %v %v, want 4223 (every spelling of paid)", fixed, err)
	}

	// a caller reading orders through a row filter learns no stored value
	ne, nctx := northCaller(t, db, "air.main.orders", "air.main.orders")
	north, err := ne.RunPlan(nctx, "air", sum(cmp("=", "status", "paid")))
	if err != nil {
		t.Fatal(err)
	}
	if north.Rows[0][0] != int64(100) {
		t.Fatalf("the row filter did not apply: %v", north.Rows)
	}
	if w := strings.Join(north.Warnings, "\n"); strings.Contains(w, `"payed"`) {
		t.Errorf("a row-filtered caller learned a value of a row it cannot read: %q", w)
	}
}

// The threat: a count per status (or country) over values typed by hand
// shows one status as several groups ('paid', 'Paid', 'paid '), each with
// part of its rows, so "the most common status" can be the wrong one. A
// run and a check must name the split groups, and the expression the
// warning gives, grouped by, must merge them. Values that are not one
// spelled several ways ('Anna', 'Anne') split nothing.
func TestGroupsSplitBySpellingAreNamed(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT, customer TEXT)",
		"INSERT INTO orders VALUES (1, 'paid', 'Anna'), (2, 'Paid', 'Anne'), (3, 'paid ', 'Anna'), (4, 'shipped', 'Bo'), (5, 'shipped', 'Bo'), (6, 'shipped', 'Cy')")
	e := airEngine(t, db, nil)
	ctx := context.Background()
	per := func(x string) []byte {
		return []byte(`{"select":[{"expr":` + x + `,"alias":"k"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"orders","alias":"o"}],` +
			`"group_by":[{"kind":"column","column":"k"}],"order_by":[{"expr":{"kind":"column","column":"n"},"direction":"desc"}]}`)
	}
	const said = "makes a group of each spelling"
	for _, c := range []struct {
		col   string
		named bool
	}{{"status", true}, {"customer", false}} {
		plan := per(`{"kind":"column","table":"o","column":"` + c.col + `"}`)
		res, err := e.RunPlan(ctx, "air", plan)
		if err != nil {
			t.Fatal(err)
		}
		check, err := e.CheckPlan(ctx, "air", plan, "")
		if err != nil {
			t.Fatal(err)
		}
		for what, ws := range map[string][]string{"run": res.Warnings, "check": check.Warnings} {
			w := warningWith(ws, said)
			if got := w != "" && strings.Contains(w, `"Paid"`) && strings.Contains(w, `"paid "`); got != c.named {
				t.Errorf("group by %s (%s): warnings %q, want the split groups named: %v", c.col, what, ws, c.named)
			}
		}
		if !c.named {
			continue
		}
		// the run's top group is shipped (3) over three paid groups of 1
		if res.Rows[0][0] != "shipped" {
			t.Fatalf("rows %v: want shipped first before the fix", res.Rows)
		}
		fix := regexp.MustCompile(`group by (\{.*\})$`).FindStringSubmatch(warningWith(res.Warnings, said))
		if fix == nil {
			t.Fatalf("warnings %q: want an expression to group by", res.Warnings)
		}
		fixed, err := e.RunPlan(ctx, "air", per(fix[1]))
		if err != nil {
			t.Fatalf("the warning's expression %s: %v", fix[1], err)
		}
		if fmt.Sprint(fixed.Rows) != "[[paid 3] [shipped 3]]" && fmt.Sprint(fixed.Rows) != "[[shipped 3] [paid 3]]" {
			t.Errorf("grouped by the warning's expression: %v, want paid 3 and shipped 3", fixed.Rows)
		}
	}
}

// The threat: "how many countries do our customers come from?" over
// values typed by hand ('Germany', 'germany', 'Germany '): COUNT(DISTINCT)
// counts each spelling, 8 where there are 4, and nothing looks wrong. A
// run must name the spellings, and the expression the warning gives,
// counted distinct, must count the values; values not spelled several
// ways ('Anna', 'Anne') are not named.
func TestCountDistinctOfSpellingsIsNamed(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE customers (id INTEGER PRIMARY KEY, country TEXT, name TEXT)",
		"INSERT INTO customers VALUES (1, 'Germany', 'Anna'), (2, 'germany', 'Anne'), (3, 'Germany ', 'Bo'), (4, 'France', 'Cy'), (5, 'FRANCE', 'Di'), (6, 'Spain', 'Ed')")
	e := airEngine(t, db, nil)
	ctx := context.Background()
	count := func(x string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","distinct":true,"args":[` + x + `]},"alias":"n"}],"from":[{"table":"customers","alias":"c"}]}`)
	}
	const said = "counts each spelling of one value"
	res, err := e.RunPlan(ctx, "air", count(`{"kind":"column","table":"c","column":"country"}`))
	if err != nil {
		t.Fatal(err)
	}
	w := warningWith(res.Warnings, said)
	fix := regexp.MustCompile(`count distinct (\{.*\})$`).FindStringSubmatch(w)
	if fmt.Sprint(res.Rows) != "[[6]]" || fix == nil {
		t.Fatalf("rows %v warnings %q: want 6 and the spellings named with an expression", res.Rows, res.Warnings)
	}
	fixed, err := e.RunPlan(ctx, "air", count(fix[1]))
	if err != nil || fmt.Sprint(fixed.Rows) != "[[3]]" {
		t.Errorf("counted by the warning's expression %s: %v %v, want 3", fix[1], fixed, err)
	}
	res, err = e.RunPlan(ctx, "air", count(`{"kind":"column","table":"c","column":"name"}`))
	if err != nil || warningWith(res.Warnings, said) != "" {
		t.Errorf("names: %v %v, want no spelling warning", res, err)
	}
}
