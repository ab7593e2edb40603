package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/tools"
)

// planInput is what `plan run` and `plan check` were given, told apart by
// its top-level keys: a plan; run_plan's arguments {"datasource", "plan"};
// run_combined_plan's {"sources", "combine"}; or run_verified_query's
// {"id", "params"}. A host's tool call saved to a file (or copied from a
// trace, or from ask's plan-it-yourself text) then runs from a shell as
// it is, without first being unwrapped by hand.
type planInput struct {
	datasource string // from run_plan's arguments; "" when the flag decides
	plan       []byte // one datasource's plan
	combined   []byte // {"sources", "combine"}: plans across datasources
	verified   *verifiedArgs
}

// verifiedArgs are run_verified_query's arguments (its binary mode
// accepted and unused: the command line prints no blobs), with the
// datasource the query runs on when the caller names one (the query names
// its own).
type verifiedArgs struct {
	tools.RunVerifiedArgs
	Datasource string `json:"datasource,omitempty"`
}

// readVerified decodes run_verified_query's arguments strictly, numbers
// kept as written (a parameter's 9007199254740993 must not become ...992,
// as the tool keeps them).
func readVerified(doc []byte, flagDS string) (planInput, error) {
	const shape = `{"id": string, "params"?: object}`
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	var v verifiedArgs
	if err := dec.Decode(&v); err != nil {
		msg := err.Error()
		if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
			msg = f + " beside \"id\": run_verified_query's arguments are " + shape
		}
		return planInput{}, &engine.Error{Code: engine.CodeInvalidRequest, Err: err,
			Msg: "cannot read the verified query's arguments: " + msg, Hint: "give run_verified_query's arguments " + shape + ", as ask's plan-it-yourself text prints them"}
	}
	if v.ID == "" {
		return planInput{}, &engine.Error{Code: engine.CodeInvalidRequest,
			Msg: "\"id\" names no verified query", Hint: "give run_verified_query's arguments " + shape + ", as ask's plan-it-yourself text prints them"}
	}
	if flagDS != "" && v.Datasource != "" && flagDS != v.Datasource {
		return planInput{}, &engine.Error{Code: engine.CodeInvalidRequest,
			Msg:  fmt.Sprintf("--datasource %q and the file's \"datasource\": %q disagree", flagDS, v.Datasource),
			Hint: "drop --datasource, or the file's datasource"}
	}
	if v.Datasource == "" {
		v.Datasource = flagDS
	}
	return planInput{verified: &v}, nil
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
	if _, id := top["id"]; id && !ok {
		return readVerified(doc, flagDS) // "id" is no key of a plan
	}
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
