package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// explain_plan on a server with no model fails with NO_PLANNER; the host
// reading it must be sent to check_plan (explain's no-model equivalent),
// not to a config file it cannot edit.
func TestExplainWithoutModelPointsToCheckPlan(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, err = e.Explain(context.Background(), AskRequest{Question: "Which artist has released the most albums?"})
	if AsError(err).Code != CodeNoPlanner || !strings.Contains(AsError(err).Hint, "check_plan") || strings.Contains(AsError(err).Hint, "nl2sql.yaml") {
		t.Errorf("explain without a model: %v, want NO_PLANNER whose hint points to check_plan", err)
	}
}

// With several datasources and none named, explain without a model said
// to name one, and then, named, that it cannot plan: NO_PLANNER comes
// first, whatever the datasource.
func TestExplainWithoutModelSaysSoBeforeAskingForADatasource(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "a", Engine: "sqlite", Path: abs}, {ID: "b", Engine: "sqlite", Path: abs}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, err = e.Explain(context.Background(), AskRequest{Question: "Which artist has released the most albums?"})
	if AsError(err).Code != CodeNoPlanner {
		t.Errorf("explain without a model or a datasource: %v, want NO_PLANNER", err)
	}
}
