package multi

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/internal/modeltext"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/result"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// Resolution across datasources: every datasource the caller reaches is
// ranked against the question by BM25 over its description and table
// names (exact and deterministic, ties by id), then one model call (step
// "resolve") picks the datasources the question needs or answers that it
// cannot be answered, with a reason.

// Error codes of cross-datasource questions (package engine re-exports
// them).
const (
	// CodeNotAnswerable: the resolver found no datasource for the question.
	CodeNotAnswerable fault.Code = "NOT_ANSWERABLE"
	// CodeDecompositionInvalid: the decomposition failed its checks after
	// every repair attempt (or, supplied, at once).
	CodeDecompositionInvalid fault.Code = "DECOMPOSITION_INVALID"
)

// Model answers the model calls of a question across datasources (steps
// "resolve", "decompose", "decompose_repair").
type Model interface {
	Complete(ctx context.Context, req llm.Request) (*llm.Response, error)
}

// TraceFunc records one model call in the request's trace.
type TraceFunc func(ctx context.Context, req llm.Request, resp *llm.Response, err error, took time.Duration)

// Usage is the model work of a step: calls, tokens and the time waited for
// each call (the sum of the calls' rounded milliseconds).
type Usage struct {
	Calls, InputTokens, OutputTokens int
	ModelMS                          float64
}

// Add adds o to u.
func (u *Usage) Add(o Usage) {
	u.Calls += o.Calls
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.ModelMS += o.ModelMS
}

// Result is u as a result counts it (the time waited is the timings').
func (u Usage) Result() result.Usage {
	return result.Usage{ModelCalls: u.Calls, InputTokens: u.InputTokens, OutputTokens: u.OutputTokens}
}

// descriptionWeight and tableWeight are how much a word of a datasource's
// description and of its table names count in Shortlist, against 1 for a
// word of a column name or a value.
const descriptionWeight, tableWeight = 2, 4

// MaxCandidates bounds the datasources offered to the resolver;
// MaxPromptTables the table names listed per datasource.
const (
	MaxCandidates   = 8
	MaxPromptTables = 40
)

// Candidate is a datasource the caller reaches. Tables is empty when the
// datasource cannot be opened now (it is still offered by its description;
// picking it then fails with its error). Columns (the names of its
// columns) and Values (the values of the question it holds, found by its
// value index) rank it too but are not shown to the resolver: a question
// phrased by a column ("which members have no email?") or a value ("the
// total weight of apples") named no table, and the datasource that
// holds them ranked last or not at all.
type Candidate struct {
	ID, Description string
	Tables          []string
	Columns, Values []string `json:"-"`
	Score           float64
}

// Shortlist ranks the candidates against the question (RankFields over
// the description, table and column names, and the question's values each
// holds) and keeps the best MaxCandidates, each with its score. A word of
// a table's name or of the description counts more than one of a column's
// name or a value: "how many singers?" is about the datasource with a
// singer table, not the one with a column named Total_spent.
func Shortlist(question string, cands []Candidate) []Candidate {
	docs := map[string][]Field{}
	byID := map[string]Candidate{}
	for _, c := range cands {
		byID[c.ID] = c
		docs[c.ID] = []Field{{c.Description, descriptionWeight}, {strings.Join(c.Tables, " "), tableWeight},
			{strings.Join(c.Columns, " "), 1}, {strings.Join(c.Values, " "), 1}}
	}
	var out []Candidate
	for _, r := range RankFields(question, docs) {
		if len(out) < MaxCandidates {
			c := byID[r.ID]
			c.Score = r.Score
			out = append(out, c)
		}
	}
	return out
}

// TableColumnNames lists the distinct column names of tables, sorted.
func TableColumnNames(tables []schema.Table) []string {
	var names []string
	for _, t := range tables {
		for _, c := range t.Columns {
			names = append(names, c.Name)
		}
	}
	sort.Strings(names)
	return slices.Compact(names)
}

// TableNames lists table names, sorted, at most MaxPromptTables.
func TableNames(tables []schema.Table) []string {
	names := make([]string, 0, len(tables))
	for _, t := range tables {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	if len(names) > MaxPromptTables {
		names = names[:MaxPromptTables]
	}
	return names
}

// Pick asks the resolver (one model call, step "resolve") which of the
// ranked candidates the question needs and returns their ids, sorted. An
// id the resolver names that was not offered is DATASOURCE_NOT_FOUND, as
// for an unknown one; no id, or an unanswerable question, is
// CodeNotAnswerable with the resolver's reason. Errors are *fault.Error.
func Pick(ctx context.Context, m Model, question, today string, cands []Candidate, trace TraceFunc) ([]string, Usage, error) {
	var b strings.Builder
	b.WriteString("[DATASOURCES]\n")
	for _, c := range cands {
		line, _ := json.Marshal(struct {
			ID          string   `json:"id"`
			Description string   `json:"description"`
			Tables      []string `json:"tables"`
		}{c.ID, c.Description, c.Tables})
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteString("\n[QUESTION]\n" + question + "\n")
	msgs := []llm.Message{{Role: "system", Content: ResolveSystem}, {Role: "user", Content: b.String()}}
	req := llm.Request{Step: "resolve", Intent: question, Messages: msgs, SchemaName: "resolve_answer",
		Schema: ResolveSchema, PromptHash: modeltext.Hash(msgs, today)}
	var usage Usage
	t0 := time.Now()
	resp, err := m.Complete(ctx, req)
	took := time.Since(t0)
	usage.ModelMS = result.MS(took)
	usage.Calls++
	trace(ctx, req, resp, err, took)
	if err != nil {
		return nil, usage, fault.Provider(err)
	}
	usage.InputTokens, usage.OutputTokens = resp.Usage.InputTokens, resp.Usage.OutputTokens
	var ans ResolveAnswer
	dec := json.NewDecoder(bytes.NewReader(resp.Content))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ans); err != nil {
		return nil, usage, &fault.Error{Code: fault.CodeProvider, Msg: "the resolver's answer is malformed: " + err.Error(), Retryable: true, Err: err}
	}
	if !ans.Answerable {
		reason := strings.TrimSpace(ans.Reason)
		if reason == "" {
			reason = "no datasource holds what the question asks about"
		}
		return nil, usage, &fault.Error{Code: CodeNotAnswerable, Msg: "the question cannot be answered from the datasources: " + reason,
			Hint: "list_datasources shows what each datasource holds; rephrase the question or name a datasource"}
	}
	offered := map[string]bool{}
	for _, c := range cands {
		offered[c.ID] = true
	}
	seen := map[string]bool{}
	var picked []string
	for _, id := range ans.Datasources {
		if !offered[id] {
			// never offered: unknown, or one the caller does not reach
			return nil, usage, fault.Errorf(fault.CodeDatasourceNotFound, "list_datasources shows the datasources you can use",
				"the resolver picked %q, which is not a datasource you may use", id)
		}
		if !seen[id] {
			seen[id] = true
			picked = append(picked, id)
		}
	}
	if len(picked) == 0 {
		return nil, usage, fault.Errorf(CodeNotAnswerable, "rephrase the question or name a datasource", "the resolver picked no datasource")
	}
	sort.Strings(picked)
	return picked, usage, nil
}
