package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/scope"
)

// Threat: a plan sent again is served from what its bytes gave the first
// time. Sent first by a caller who reads every row and then, byte for
// byte, by a caller whose role reads only some rows (or none of a
// column), a memo that forgot who validated it would run the first
// caller's unfiltered plan for the second: every row, to a role that
// must see the north only. Each caller must get what the plan gives them,
// in either order, however often it is sent.
func TestPlanSentAgainIsFilteredForEachCaller(t *testing.T) {
	stmts := []string{"CREATE TABLE airports (code TEXT PRIMARY KEY, city TEXT, region TEXT, fee INTEGER)"}
	for i := range 30 {
		region := "north"
		if i%3 == 0 {
			region = "south"
		}
		stmts = append(stmts, fmt.Sprintf("INSERT INTO airports VALUES ('A%02d', 'City %02d', '%s', %d)", i, i, region, i))
	}
	db := sourcetest.TempDB(t, stmts...)
	pol := policyFromYAML(t, `datasources:
  - {id: air, engine: sqlite, path: `+db+`}
roles:
  north:
    allow: [air.main.airports]
    row_filters:
      - {table: air.main.airports, where: "region = 'north'"}
  nofee:
    allow: [air.main.airports]
    deny: [air.main.airports.fee]
users:
  - {name: nora, roles: [north]}
  - {name: fay, roles: [nofee]}
local_user: nora
`)
	e := airEngine(t, db, pol)
	nora, _ := pol.ForUser("nora")
	fay, _ := pol.ForUser("fay")
	all := WithCaller(context.Background(), scope.SingleUser())
	count := []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"airports","alias":"a"}]}`)
	fees := []byte(`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"a","column":"fee"}]},"alias":"fees"}],"from":[{"table":"airports","alias":"a"}]}`)

	n := func(ctx context.Context, plan []byte) any {
		t.Helper()
		res, err := e.RunPlan(ctx, "air", plan)
		if err != nil {
			t.Fatal(err)
		}
		return res.Rows[0][0]
	}
	for round := range 2 { // the second round is served from the memo where it may be
		if got := n(all, count); got != int64(30) {
			t.Errorf("round %d: the unrestricted count is %v, want 30", round, got)
		}
		if got := n(WithCaller(context.Background(), nora), count); got != int64(20) {
			t.Errorf("round %d: nora (north only) counted %v airports, want 20: the plan ran unfiltered", round, got)
		}
		if got := n(all, fees); got != int64(435) {
			t.Errorf("round %d: the unrestricted sum is %v, want 435", round, got)
		}
		if _, err := e.RunPlan(WithCaller(context.Background(), fay), "air", fees); err == nil {
			t.Errorf("round %d: fay, denied the fee column, summed it", round)
		}
	}
}

// Threat: the warnings a plan earns from the profile (here: a country
// written three ways splits its group) are what tell a host its answer is
// wrong. Kept from the first run and given again, they must be the same
// on every run of the same plan; given from a memo that was never filled,
// or filled for another plan, the second run would look clean.
func TestPlanSentAgainEarnsTheSameWarnings(t *testing.T) {
	stmts := []string{"CREATE TABLE customers (id INTEGER PRIMARY KEY, country TEXT)"}
	for i, c := range []string{"Germany", "germany", "Germany ", "France", "France", "Spain"} {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO customers VALUES (%d, '%s')", i+1, c))
	}
	db := sourcetest.TempDB(t, stmts...)
	e := airEngine(t, db, nil)
	ctx := context.Background()
	byCountry := []byte(`{"select":[{"expr":{"kind":"column","table":"c","column":"country"}},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` +
		`"from":[{"table":"customers","alias":"c"}],"group_by":[{"kind":"column","table":"c","column":"country"}]}`)
	plain := []byte(`{"select":[{"expr":{"kind":"column","table":"c","column":"id"}}],"from":[{"table":"customers","alias":"c"}],"limit":1}`)
	var first []string
	for round := range 3 {
		res, err := e.RunPlan(ctx, "air", byCountry)
		if err != nil {
			t.Fatal(err)
		}
		if warningWith(res.Warnings, "makes a group of each spelling") == "" {
			t.Fatalf("round %d: warnings %q, want the split groups named", round, res.Warnings)
		}
		if round == 0 {
			first = res.Warnings
		} else if !slices.Equal(res.Warnings, first) {
			t.Errorf("round %d: warnings %q, want those of the first run %q", round, res.Warnings, first)
		}
		// another plan between the runs does not lend or take its warnings
		res, err = e.RunPlan(ctx, "air", plain)
		if err != nil {
			t.Fatal(err)
		}
		if w := warningWith(res.Warnings, "makes a group of each spelling"); w != "" {
			t.Errorf("round %d: a plan grouping nothing was warned %q", round, w)
		}
	}
}

// Threat: a plan sent again runs the SQL rendered for it the first time,
// without rendering it again. When an after_planning hook changes the
// plan on one of the runs (a tenant filter added), that run must execute
// the hook's plan: SQL kept from the run the hook let pass would return
// every country's customers to a caller the hook restricts to the USA,
// and the runs after must go back to the plan as sent.
func TestPlanSentAgainRunsTheHooksChange(t *testing.T) {
	var restrict atomic.Bool
	hook := signedHook(t, "k", func(in hooks.Input) hooks.Decision {
		if !restrict.Load() {
			return hooks.Decision{Action: hooks.Allow}
		}
		return hooks.Decision{Action: hooks.Modify,
			Plan: withWhere(t, in.Plan, `{"kind":"binary","op":"=","left":{"kind":"column","table":"c","column":"Country"},"right":{"kind":"literal","value":"USA"}}`)}
	})
	e := hookEngine(t, func(o *Options) {
		o.Hooks = runner(t, hooks.Entry{Name: "usa", Points: []hooks.Point{hooks.AfterPlanning}, Hook: &hooks.HTTP{URL: hook.URL, Secret: []byte("k")}})
	})
	plan := []byte(`{"select":[{"expr":{"kind":"column","table":"c","column":"Country"}},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` +
		`"from":[{"table":"Customer","alias":"c"}],"group_by":[{"kind":"column","table":"c","column":"Country"}]}`)
	for run := range 4 {
		restrict.Store(run%2 == 1)
		res, err := e.RunPlan(context.Background(), "chinook", plan)
		if err != nil {
			t.Fatal(err)
		}
		if filtered := run%2 == 1; filtered != strings.Contains(res.SQL, "'USA'") || filtered != (res.RowCount == 1) {
			t.Errorf("run %d (hook changed the plan: %v): %d rows from %s", run+1, filtered, res.RowCount, res.SQL)
		}
	}
}
