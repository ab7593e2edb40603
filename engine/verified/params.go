package verified

import (
	"context"
	"encoding/json"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine/internal/modeltext"
	"github.com/nl2sql/nl2sql/engine/llm"
)

// Completer is the model that fills parameters: the pipeline's planner.
type Completer interface {
	Complete(ctx context.Context, req llm.Request) (*llm.Response, error)
}

// ParamFiller asks the model (step "verified_params") for a matched
// verified query's parameter values. The model sees the question, the
// query's description and its parameters, never the SQL. Trace (optional)
// records the call.
type ParamFiller struct {
	Planner    Completer
	Datasource string
	Today      string
	Trace      func(ctx context.Context, req llm.Request, resp *llm.Response, err error)
}

// FillParams implements curated.ParamFiller.
func (f ParamFiller) FillParams(ctx context.Context, req curated.ParamRequest) ([]byte, error) {
	schema, err := json.Marshal(req.Schema)
	if err != nil {
		return nil, err
	}
	body, _ := json.MarshalIndent(struct {
		Today       string          `json:"today"`
		Question    string          `json:"question"`
		QueryID     string          `json:"query_id"`
		Description string          `json:"description"`
		Params      []curated.Param `json:"params"`
	}{f.Today, req.Question, req.QueryID, req.Description, req.Params}, "", "  ")
	msgs := []llm.Message{{Role: "system", Content: req.Instructions}, {Role: "user", Content: string(body)}}
	lreq := llm.Request{Step: "verified_params", Datasource: f.Datasource, Intent: req.Question, Messages: msgs,
		SchemaName: "verified_params", Schema: schema, PromptHash: modeltext.Hash(msgs, f.Today)}
	resp, err := f.Planner.Complete(ctx, lreq)
	if f.Trace != nil {
		f.Trace(ctx, lreq, resp, err)
	}
	if err != nil {
		return nil, err
	}
	return resp.Content, nil
}
