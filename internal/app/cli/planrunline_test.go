package cli

import (
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// The threat: with two datasources configured, the plan-it-yourself text
// said to run the plan with `nl2sql plan run FILE`, which then refused it
// for naming no datasource. The line names the datasource planned over,
// or asks for the candidate's.
func TestPlanRunLineNamesTheDatasource(t *testing.T) {
	for _, c := range []struct {
		hp   engine.HostPlan
		want string
	}{
		{engine.HostPlan{HostContext: engine.HostContext{Datasource: "clinic"}}, "`nl2sql plan run --datasource clinic FILE`"},
		{engine.HostPlan{Candidates: []engine.HostCandidate{{}, {}}}, "`nl2sql plan run --datasource ID FILE`, ID the datasource of the candidate you planned over"},
	} {
		if got := planRunLine(&c.hp); got != c.want {
			t.Errorf("%+v: %q, want %q", c.hp, got, c.want)
		}
	}
}
