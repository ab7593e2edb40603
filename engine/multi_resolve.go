package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/modeltext"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// Resolution across datasources: every datasource the caller reaches is
// ranked against the question by BM25 over its description and table
// names (exact and deterministic, ties by id), then one model call (step
// "resolve") picks the datasources the question needs or answers that it
// cannot be answered, with a reason.

type reachKey struct{}

// withReach narrows reaches for requests under ctx to the datasources f
// allows (tests, and callers that decide access before the engine does).
// It can only narrow: the caller's scope is asked as well.
func withReach(ctx context.Context, f func(datasource string) bool) context.Context {
	return context.WithValue(ctx, reachKey{}, f)
}

// reaches reports whether the caller may use datasource id at all: the
// caller's scope reaches it (scope.Scope.Reaches) and no withReach narrowing
// refuses it. It is asked for every candidate before any model call, and
// again for every sub-query's datasource before it is planned; an unreached
// datasource is treated exactly as an unknown one.
func (e *Engine) reaches(ctx context.Context, id string) bool {
	if f, ok := ctx.Value(reachKey{}).(func(string) bool); ok && !f(id) {
		return false
	}
	return e.caller(ctx).Reaches(id)
}

// maxCandidates bounds the datasources offered to the resolver; maxPromptTables
// the table names listed per datasource.
const (
	maxCandidates   = 8
	maxPromptTables = 40
)

// candidate is a ranked datasource the caller reaches. Tables is empty
// when the datasource cannot be opened now (it is still offered by its
// description; picking it then fails with its error).
type candidate struct {
	id, description string
	tables          []string
	score           float64
}

// candidates ranks every datasource the caller reaches, opening each to
// read its table names; those that cannot be opened are ranked by their
// description (and logged). No model call happens here.
func (e *Engine) candidates(ctx context.Context, question string) ([]candidate, error) {
	docs := map[string]string{}
	byID := map[string]candidate{}
	for _, id := range e.DatasourceIDs() {
		if !e.reaches(ctx, id) {
			continue
		}
		c := candidate{id: id, description: e.specs[id].Description, tables: []string{}}
		if ds, err := e.datasource(ctx, id); err != nil {
			e.log.Warn("datasource offered to the resolver by its description only", "datasource", id, "err", err)
		} else {
			c.tables = tableNames(e.caller(ctx).FilterSnapshot(ds.snap).Tables)
		}
		byID[id] = c
		docs[id] = c.description + " " + strings.Join(c.tables, " ")
	}
	if len(byID) == 0 {
		return nil, Errorf(CodeDatasourceNotFound, "list_datasources shows the datasources you can use", "no datasource you may use is configured")
	}
	var out []candidate
	for _, r := range multi.Rank(question, docs) {
		if len(out) < maxCandidates {
			c := byID[r.ID]
			c.score = r.Score
			out = append(out, c)
		}
	}
	return out, nil
}

// tableNames lists table names, sorted, at most maxPromptTables.
func tableNames(tables []schema.Table) []string {
	names := make([]string, 0, len(tables))
	for _, t := range tables {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	if len(names) > maxPromptTables {
		names = names[:maxPromptTables]
	}
	return names
}

// resolveMulti asks the resolver which of the ranked candidates the
// question needs and returns their ids, sorted.
func (e *Engine) resolveMulti(ctx context.Context, question, today string, cands []candidate) ([]string, Usage, float64, error) {
	var b strings.Builder
	b.WriteString("[DATASOURCES]\n")
	for _, c := range cands {
		line, _ := json.Marshal(struct {
			ID          string   `json:"id"`
			Description string   `json:"description"`
			Tables      []string `json:"tables"`
		}{c.id, c.description, c.tables})
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteString("\n[QUESTION]\n" + question + "\n")
	msgs := []llm.Message{{Role: "system", Content: multi.ResolveSystem}, {Role: "user", Content: b.String()}}
	req := llm.Request{Step: "resolve", Intent: question, Messages: msgs, SchemaName: "resolve_answer",
		Schema: multi.ResolveSchema, PromptHash: modeltext.Hash(msgs, today)}
	var usage Usage
	t0 := time.Now()
	resp, err := e.opts.Planner.Complete(ctx, req)
	callMS := ms(time.Since(t0))
	usage.ModelCalls++
	traceCall(ctx, req, resp, err, callMS)
	if err != nil {
		return nil, usage, callMS, providerError(err)
	}
	usage.InputTokens, usage.OutputTokens = resp.Usage.InputTokens, resp.Usage.OutputTokens
	var ans ResolveAnswer
	dec := json.NewDecoder(bytes.NewReader(resp.Content))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ans); err != nil {
		return nil, usage, callMS, &Error{Code: CodeProvider, Msg: "the resolver's answer is malformed: " + err.Error(), Retryable: true, Err: err}
	}
	if !ans.Answerable {
		reason := strings.TrimSpace(ans.Reason)
		if reason == "" {
			reason = "no datasource holds what the question asks about"
		}
		return nil, usage, callMS, &Error{Code: CodeNotAnswerable, Msg: "the question cannot be answered from the datasources: " + reason,
			Hint: "list_datasources shows what each datasource holds; rephrase the question or name a datasource"}
	}
	offered := map[string]bool{}
	for _, c := range cands {
		offered[c.id] = true
	}
	seen := map[string]bool{}
	var picked []string
	for _, id := range ans.Datasources {
		if !offered[id] {
			// never offered: unknown, or one the caller does not reach
			return nil, usage, callMS, Errorf(CodeDatasourceNotFound, "list_datasources shows the datasources you can use",
				"the resolver picked %q, which is not a datasource you may use", id)
		}
		if !seen[id] {
			seen[id] = true
			picked = append(picked, id)
		}
	}
	if len(picked) == 0 {
		return nil, usage, callMS, Errorf(CodeNotAnswerable, "rephrase the question or name a datasource", "the resolver picked no datasource")
	}
	sort.Strings(picked)
	return picked, usage, callMS, nil
}
