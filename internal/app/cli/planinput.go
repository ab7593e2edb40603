package cli

import (
	"encoding/json"
	"fmt"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/tools"
)

// planInput is what `plan run` and `plan check` were given, told apart by
// its top-level keys: a plan; run_plan's arguments {"datasource", "plan"};
// or run_combined_plan's {"sources", "combine"}. A host's tool call saved
// to a file (or copied from a trace) then runs from a shell as it is,
// without first being unwrapped by hand.
type planInput struct {
	datasource string // from run_plan's arguments; "" when the flag decides
	plan       []byte // one datasource's plan
	combined   []byte // {"sources", "combine"}: plans across datasources
}

// toolArgKeys are the keys of run_plan's arguments; none is a key of the
// plan language, so a document with "plan" and no others is arguments.
var toolArgKeys = map[string]bool{"datasource": true, "plan": true, "binary": true}

// readPlanInput sorts doc by shape. flagDS is --datasource: it must agree
// with the datasource run_plan's arguments name, and a combined plan takes
// none (each source names its own).
func readPlanInput(doc []byte, flagDS string) (planInput, error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(doc, &top) != nil {
		// not an object: the plan decoder says what is wrong with it
		return planInput{datasource: flagDS, plan: doc}, nil
	}
	if _, ok := top["sources"]; ok {
		if flagDS != "" {
			return planInput{}, &engine.Error{Code: engine.CodeInvalidRequest,
				Msg:  "--datasource does not apply to a combined plan",
				Hint: "each source of a combined plan names its datasource; drop --datasource"}
		}
		b, err := json.Marshal(struct {
			Sources json.RawMessage `json:"sources"`
			Combine json.RawMessage `json:"combine,omitempty"`
		}{top["sources"], top["combine"]})
		if err != nil {
			return planInput{}, err
		}
		for k := range top {
			if k != "sources" && k != "combine" && k != "binary" {
				return planInput{}, &engine.Error{Code: engine.CodeInvalidRequest,
					Msg:  fmt.Sprintf("a combined plan has no key %q", k),
					Hint: `a combined plan is {"sources": [{"name", "datasource", "plan"}, …], "combine": plan} (run_combined_plan's arguments)`}
			}
		}
		return planInput{combined: b}, nil
	}
	plan, ok := top["plan"]
	if !ok {
		return planInput{datasource: flagDS, plan: doc}, nil
	}
	for k := range top {
		if !toolArgKeys[k] {
			return planInput{}, &engine.Error{Code: engine.CodeInvalidRequest,
				Msg:  fmt.Sprintf("%q beside \"plan\": run_plan's arguments are {\"datasource\", \"plan\"}", k),
				Hint: "give either a plan, or run_plan's arguments with the plan under \"plan\""}
		}
	}
	var ds string
	if raw, ok := top["datasource"]; ok && json.Unmarshal(raw, &ds) != nil {
		return planInput{}, &engine.Error{Code: engine.CodeInvalidRequest,
			Msg: "\"datasource\" must be a string", Hint: "name a datasource id (nl2sql schema show lists them)"}
	}
	if flagDS != "" && ds != "" && flagDS != ds {
		return planInput{}, &engine.Error{Code: engine.CodeInvalidRequest,
			Msg:  fmt.Sprintf("--datasource %q and the file's \"datasource\": %q disagree", flagDS, ds),
			Hint: "drop --datasource, or the file's datasource"}
	}
	if ds == "" {
		ds = flagDS
	}
	return planInput{datasource: ds, plan: tools.PlanObject(plan)}, nil
}
