package tools

import (
	"strings"
	"testing"
)

// A host with no model configured that reads explain_plan's description
// must learn before calling it that it needs a model, and where to go
// instead: check_plan.
func TestExplainPlanSaysItNeedsAModel(t *testing.T) {
	d := ExplainPlanTool().Description
	if !strings.Contains(d, "model") || !strings.Contains(d, "NO_PLANNER") || !strings.Contains(d, "check_plan") {
		t.Errorf("explain_plan's description %q: want it to say a model is needed and point to check_plan", d)
	}
}
