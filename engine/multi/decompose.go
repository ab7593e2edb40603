package multi

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/internal/modeltext"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/result"
	"github.com/nl2sql/nl2sql/planast"
)

// Decomposer asks the model for a decomposition of a question over the
// picked datasources (step "decompose") and checks it, sending the issues
// back ("decompose_repair") at most MaxRepairs times.
type Decomposer struct {
	Model      Model
	MaxRepairs int
	Trace      TraceFunc
	// Refused records a refused attempt (numbered from 1) with its issues.
	Refused func(attempt int, issues []planast.Issue)
	Log     *slog.Logger
}

// Decompose returns the checked decomposition of q over the blocks'
// datasources, and the model work spent. Errors are *fault.Error; a
// decomposition still refused after the repairs is CodeDecompositionInvalid
// with the last issues.
func (d Decomposer) Decompose(ctx context.Context, q, today string, blocks []Block) (*Decomposition, Usage, error) {
	var usage Usage
	offered := make([]string, len(blocks))
	for i, b := range blocks {
		offered[i] = b.ID
	}
	var issues []planast.Issue
	for attempt := 0; attempt <= d.MaxRepairs; attempt++ {
		msgs := Prompt(today, q, blocks, issues)
		step := "decompose"
		if attempt > 0 {
			step = "decompose_repair"
		}
		req := llm.Request{Step: step, Datasource: strings.Join(offered, "+"), Intent: q, Sample: attempt,
			Messages: msgs, SchemaName: "decomposition", Schema: Schema, PromptHash: modeltext.Hash(msgs, today)}
		t0 := time.Now()
		resp, err := d.Model.Complete(ctx, req)
		took := time.Since(t0)
		usage.ModelMS += result.MS(took)
		usage.Calls++
		d.Trace(ctx, req, resp, err, took)
		var bad *llm.InvalidOutputError
		var nr *llm.NoRecordingError
		switch {
		case errors.As(err, &bad):
			issues = []planast.Issue{{Code: planast.CodeMalformed, Message: bad.Reason}}
		case attempt > 0 && errors.As(err, &nr):
			return nil, usage, Invalid(issues, "the recorded decomposition is invalid and no repair is recorded")
		case err != nil:
			return nil, usage, fault.Provider(err)
		default:
			usage.InputTokens += resp.Usage.InputTokens
			usage.OutputTokens += resp.Usage.OutputTokens
			ans, derr := Decode(resp.Content)
			if derr != nil {
				issues = derr.(*planast.Error).Issues
				break
			}
			dec, iss := Check(ans, offered)
			if iss == nil {
				return dec, usage, nil
			}
			issues = iss
		}
		if d.Refused != nil {
			d.Refused(attempt+1, issues)
		}
		if d.Log != nil {
			d.Log.Info("decomposition refused", "attempt", attempt+1, "issues", len(issues), "first", issues[0].Code)
		}
	}
	return nil, usage, Invalid(issues, "the decomposer gave no valid decomposition")
}

// Invalid is the error of a refused decomposition: CodeDecompositionInvalid
// with the issues, led by lead.
func Invalid(issues []planast.Issue, lead string) *fault.Error {
	return &fault.Error{Code: CodeDecompositionInvalid, Issues: issues, Msg: lead + ": " + (&planast.Error{Issues: issues}).Error(),
		Hint: "fix the listed issues (each names its path in the decomposition)"}
}

// Supplied decodes a decomposition document supplied from outside (a
// client, a recording) and lists the datasources its sub-queries name, in
// first-use order. Errors are *fault.Error.
func Supplied(doc []byte) (*Answer, []string, error) {
	ans, err := Decode(doc)
	if err != nil {
		return nil, nil, Invalid(err.(*planast.Error).Issues, "the decomposition is not valid JSON of the expected shape")
	}
	var offered []string
	seen := map[string]bool{}
	for _, sq := range ans.SubQueries {
		if !seen[sq.Datasource] {
			seen[sq.Datasource] = true
			offered = append(offered, sq.Datasource)
		}
	}
	return ans, offered, nil
}
