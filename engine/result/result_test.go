package result

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// The threat: every run_plan and ask result is read by a model that pays
// for each token; a single-datasource answer carried its plan and SQL
// twice (the result's and its one sub-query's). They are sent once. A
// question across datasources keeps each sub-query's own plan and SQL,
// which differ from the combination's.
func TestPlanAndSQLAreSentOnce(t *testing.T) {
	plan := &planast.Query{From: []planast.From{{Table: "Genre", Alias: "g"}}}
	single := Result{SQL: "SELECT 1 FROM g_sql_marker", Plan: plan,
		SubQueries: []SubQuery{{ID: "sq_1", Datasource: "chinook", Plan: plan, SQL: "SELECT 1 FROM g_sql_marker", PlanSource: "supplied"}}}
	b, err := json.Marshal(single)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "g_sql_marker"); n != 1 {
		t.Errorf("the SQL appears %d times: %s", n, b)
	}
	if n := strings.Count(string(b), `"Genre"`); n != 1 {
		t.Errorf("the plan appears %d times: %s", n, b)
	}
	if !strings.Contains(string(b), `"plan_source":"supplied"`) || len(single.SubQueries[0].SQL) == 0 {
		t.Errorf("the sub-query lost its other fields, or the result itself was changed: %s", b)
	}

	other := &planast.Query{From: []planast.From{{Table: "Invoice", Alias: "i"}}}
	multi := Result{SQL: "SELECT * FROM combined", Plan: plan, SubQueries: []SubQuery{
		{ID: "sq_a", Plan: other, SQL: "SELECT a_marker"}, {ID: "sq_b", Plan: other, SQL: "SELECT b_marker"}}}
	b, err = json.Marshal(multi)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"a_marker", "b_marker", `"Invoice"`, "combined"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("a question across datasources lost %s: %s", want, b)
		}
	}
}
