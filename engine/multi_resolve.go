package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/nl2sql/nl2sql/engine/internal/modeltext"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/schema"
	"github.com/nl2sql/nl2sql/index"
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

var camelRe = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// terms splits text into ranking terms: camelCase and snake_case split,
// lower-cased, stop words dropped and plurals reduced as the schema index
// does (index.StopWord, index.Singular: "genres" → "genre", "categories"
// → "category").
func terms(s string) []string {
	s = camelRe.ReplaceAllString(s, "$1 $2")
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if index.StopWord(w) {
			continue
		}
		out = append(out, index.Singular(w))
	}
	return out
}

// rank scores each document (datasource description and table names)
// against the question with BM25 (k1 1.2, b 0.75) and sorts by score,
// ties by id.
func rank(question string, docs map[string]string) []struct {
	id    string
	score float64
} {
	k1, b := 1.2, 0.75
	q := terms(question)
	tf := map[string]map[string]int{}
	df := map[string]int{}
	total := 0
	for id, d := range docs {
		tf[id] = map[string]int{}
		for _, t := range terms(d) {
			if tf[id][t] == 0 {
				df[t]++
			}
			tf[id][t]++
			total++
		}
	}
	n := float64(len(docs))
	avg := float64(total) / math.Max(n, 1)
	out := make([]struct {
		id    string
		score float64
	}, 0, len(docs))
	for id, f := range tf {
		length := 0
		for _, c := range f {
			length += c
		}
		score := 0.0
		for _, t := range q {
			if f[t] == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			x := float64(f[t])
			score += idf * x * (k1 + 1) / (x + k1*(1-b+b*float64(length)/math.Max(avg, 1)))
		}
		out = append(out, struct {
			id    string
			score float64
		}{id, math.Round(score*1e9) / 1e9})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].score > out[j].score || out[i].score == out[j].score && out[i].id < out[j].id
	})
	return out
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
	for _, r := range rank(question, docs) {
		if len(out) < maxCandidates {
			c := byID[r.id]
			c.score = r.score
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

// ResolveAnswer is the resolver's answer (step "resolve").
type ResolveAnswer struct {
	Reasoning   string   `json:"reasoning"`
	Answerable  bool     `json:"answerable"`
	Datasources []string `json:"datasources"`
	// Reason says why the question cannot be answered ("" when it can).
	Reason string `json:"reason"`
}

const resolveSystemPrompt = `You decide which datasources a question needs. [DATASOURCES] lists the datasources you may use, most relevant first by word overlap, each with its id, description and table names. Answer with JSON only, in the given schema: answerable true with the ids of every datasource the question needs (one, or several when it combines their data), or answerable false with datasources [] and a one-sentence reason when none of them holds what the question asks about.`

var resolveSchema = func() json.RawMessage {
	b, _ := json.Marshal(jsObj(map[string]any{"reasoning": jsStr, "answerable": map[string]any{"type": "boolean"},
		"datasources": jsArr(jsStr), "reason": jsStr}))
	return b
}()

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
	msgs := []llm.Message{{Role: "system", Content: resolveSystemPrompt}, {Role: "user", Content: b.String()}}
	req := llm.Request{Step: "resolve", Intent: question, Messages: msgs, SchemaName: "resolve_answer",
		Schema: resolveSchema, PromptHash: modeltext.Hash(msgs, today)}
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
