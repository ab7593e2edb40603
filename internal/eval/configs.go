package eval

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/sqlscan"
)

// ConfigQuestion is one question of a configuration comparison: the
// question as asked, the datasource to ask it of ("" for the only one) and
// its gold SQL, run on the gold SQLite database with SQLite's defaults.
type ConfigQuestion struct {
	Question   string `json:"question"`
	Datasource string `json:"datasource,omitempty"`
	GoldSQL    string `json:"gold_sql"`
}

// ResultAsker answers a question end to end with an engine result;
// *engine.Engine is one.
type ResultAsker interface {
	Ask(ctx context.Context, req engine.AskRequest) (*engine.Result, error)
}

// Configuration is one named way of answering: an engine built from one
// configuration (single call, a scaling section, another model).
type Configuration struct {
	Name   string
	Engine ResultAsker
}

// ConfigOptions configure RunConfigs.
type ConfigOptions struct {
	Questions []ConfigQuestion
	// GoldDB is the SQLite database the gold SQL runs on.
	GoldDB  string
	Configs []Configuration
	// Timeout bounds each gold query; 0 means 30s.
	Timeout time.Duration
}

// ConfigCase is one question under one configuration.
type ConfigCase struct {
	Question     string  `json:"question"`
	Status       string  `json:"status"` // StatusPass, StatusFail or StatusError
	Reason       string  `json:"reason,omitempty"`
	ModelCalls   int     `json:"model_calls"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	MS           float64 `json:"ms"`
	// Selection is the scaling selection ("" when scaling was off).
	Selection string `json:"selection,omitempty"`
	Degraded  bool   `json:"degraded,omitempty"`
}

// ConfigResult is one configuration's figures: execution accuracy, model
// calls and tokens (input + output) in total and per question, and
// latency per question in milliseconds.
type ConfigResult struct {
	Name         string       `json:"name"`
	Total        int          `json:"total"`
	Pass         int          `json:"pass"`
	Accuracy     float64      `json:"execution_accuracy"`
	ModelCalls   int          `json:"model_calls"`
	InputTokens  int          `json:"input_tokens"`
	OutputTokens int          `json:"output_tokens"`
	CallsPerQ    float64      `json:"calls_per_question"`
	TokensPerQ   float64      `json:"tokens_per_question"`
	MedianMS     float64      `json:"latency_median_ms"`
	P95MS        float64      `json:"latency_p95_ms"`
	Degraded     int          `json:"degraded"`
	Cases        []ConfigCase `json:"cases"`
}

// ConfigReport is the result of RunConfigs, one entry per configuration in
// the order given.
type ConfigReport struct {
	Configs []ConfigResult `json:"configs"`
}

// RunConfigs asks every question under every configuration and compares
// each answer's rows with the gold SQL's by the execution-match rules
// (compareTables; in order when the gold SQL sorts at its top level). A
// failed question is a case, not an error; RunConfigs fails only when the
// options or the gold database are unusable.
func RunConfigs(ctx context.Context, o ConfigOptions) (*ConfigReport, error) {
	if len(o.Configs) == 0 || len(o.Questions) == 0 {
		return nil, errors.New("eval: give at least one configuration and one question")
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	gold, err := openGold(o.GoldDB)
	if err != nil {
		return nil, fmt.Errorf("eval: gold database: %w", err)
	}
	defer gold.Close()
	golds := make([]*table, len(o.Questions))
	goldErrs := make([]error, len(o.Questions))
	for i, q := range o.Questions {
		gctx, cancel := context.WithTimeout(ctx, o.Timeout)
		golds[i], goldErrs[i] = gold.run(gctx, q.GoldSQL, 100000)
		cancel()
	}
	rep := &ConfigReport{}
	for _, c := range o.Configs {
		r := ConfigResult{Name: c.Name, Cases: []ConfigCase{}}
		var lat []float64
		for i, q := range o.Questions {
			cc := askCase(ctx, c.Engine, q, golds[i], goldErrs[i])
			r.Total++
			if cc.Status == StatusPass {
				r.Pass++
			}
			if cc.Degraded {
				r.Degraded++
			}
			r.ModelCalls += cc.ModelCalls
			r.InputTokens += cc.InputTokens
			r.OutputTokens += cc.OutputTokens
			lat = append(lat, cc.MS)
			r.Cases = append(r.Cases, cc)
		}
		r.finish(lat)
		rep.Configs = append(rep.Configs, r)
	}
	return rep, nil
}

// askCase asks one question and judges the answer.
func askCase(ctx context.Context, a ResultAsker, q ConfigQuestion, gold *table, goldErr error) ConfigCase {
	cc := ConfigCase{Question: q.Question}
	t0 := time.Now()
	res, err := a.Ask(ctx, engine.AskRequest{Question: q.Question, Datasource: q.Datasource})
	cc.MS = float64(time.Since(t0).Microseconds()) / 1000
	if res != nil {
		cc.ModelCalls, cc.InputTokens, cc.OutputTokens = res.Usage.ModelCalls, res.Usage.InputTokens, res.Usage.OutputTokens
		if res.Scaling != nil {
			cc.Selection, cc.Degraded = res.Scaling.Selection, res.Scaling.Degraded
		}
	}
	switch {
	case goldErr != nil:
		cc.Status, cc.Reason = StatusError, "gold SQL fails on SQLite: "+goldErr.Error()
	case err != nil:
		cc.Status, cc.Reason = StatusError, engine.AsError(err).Msg
	default:
		if why := compareTables(gold, &table{cols: res.Columns, rows: res.Rows}, topLevelOrderBy(q.GoldSQL)); why != "" {
			cc.Status, cc.Reason = StatusFail, "result: "+why
		} else {
			cc.Status = StatusPass
		}
	}
	return cc
}

func (r *ConfigResult) finish(lat []float64) {
	if r.Total == 0 {
		return
	}
	tokens := r.InputTokens + r.OutputTokens
	r.Accuracy = float64(r.Pass) / float64(r.Total)
	r.CallsPerQ = float64(r.ModelCalls) / float64(r.Total)
	r.TokensPerQ = float64(tokens) / float64(r.Total)
	sort.Float64s(lat)
	r.MedianMS, r.P95MS = percentile(lat, 0.5), percentile(lat, 0.95)
}

// topLevelOrderBy reports whether sql sorts its final result: ORDER BY
// outside every parenthesis (tokens of the one SQL scanner, so strings,
// identifiers and comments never count). SQL that does not scan sorts
// nothing.
func topLevelOrderBy(sql string) bool {
	toks, err := sqlscan.ScanSQLite(sql)
	if err != nil {
		return false
	}
	depth := 0
	var prev sqlscan.Token
	for _, t := range toks {
		switch {
		case t.Kind == sqlscan.Comment:
			continue
		case t.Kind == sqlscan.Op && t.Text == "(":
			depth++
		case t.Kind == sqlscan.Op && t.Text == ")":
			depth--
		case depth == 0 && t.Is("BY") && prev.Is("ORDER"):
			return true
		}
		prev = t
	}
	return false
}

// Summary is one line per configuration: accuracy, calls, tokens and
// latency, then each failing case.
func (r *ConfigReport) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-20s %9s %12s %14s %12s %10s %9s\n", "configuration", "accuracy", "calls/q", "tokens/q", "median ms", "p95 ms", "degraded")
	for _, c := range r.Configs {
		fmt.Fprintf(&b, "%-20s %4d/%-4d %12.2f %14.0f %12.1f %10.1f %9d\n", c.Name, c.Pass, c.Total, c.CallsPerQ, c.TokensPerQ, c.MedianMS, c.P95MS, c.Degraded)
	}
	for _, c := range r.Configs {
		for _, cc := range c.Cases {
			if cc.Status != StatusPass {
				fmt.Fprintf(&b, "%s: %s %q: %s\n", c.Name, cc.Status, cc.Question, cc.Reason)
			}
		}
	}
	return b.String()
}
