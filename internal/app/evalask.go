package app

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/eval"
)

// EvalPlanner configures the model of `nl2sql eval --planner replay|live`.
type EvalPlanner struct {
	// Planner is eval.PlannerReplay or eval.PlannerLive.
	Planner string
	// Config is the nl2sql.yaml whose llm.plan (else llm.default) entry
	// plans, for live; for replay it may name the recordings instead of
	// Recordings.
	Config string
	// Recordings is a directory of replay recordings (replay).
	Recordings string
	// Record, for live, saves every model answer there as a recording, so
	// the run can be replayed with --planner replay --recordings DIR.
	Record string
	// RowLimit caps each answer's rows (the benchmark compares whole
	// results); ≤ 0 means 100000.
	RowLimit int
	// Timeout bounds each question; 0 means the engine's default.
	Timeout time.Duration
}

// EvalAsker answers benchmark questions with the whole system: one engine
// per benchmark database (a SQLite datasource opened read-only, no state
// store, so every question reaches the planner), the planner of p. Close
// it after the run.
type EvalAsker struct {
	planner   engine.Planner
	plannerID string
	rowLimit  int
	timeout   time.Duration
	logger    *slog.Logger
	mu        sync.Mutex
	engines   map[string]*engine.Engine
}

// NewEvalAsker builds the planner of p. Errors: an unusable config,
// provider or recordings directory; live with a replay provider.
func NewEvalAsker(p EvalPlanner, logger *slog.Logger) (*EvalAsker, error) {
	if logger == nil {
		logger = slog.Default()
	}
	var lc config.LLMConfig
	label := "--recordings"
	switch p.Planner {
	case eval.PlannerReplay:
		if p.Recordings != "" {
			dir, err := filepath.Abs(p.Recordings)
			if err != nil {
				return nil, err
			}
			lc = config.LLMConfig{Provider: "replay", Recordings: dir}
			break
		}
		fallthrough
	case eval.PlannerLive:
		if p.Config == "" {
			return nil, fmt.Errorf("--planner %s needs --config FILE (its llm.plan or llm.default entry plans)%s", p.Planner,
				map[bool]string{true: " or --recordings DIR", false: ""}[p.Planner == eval.PlannerReplay])
		}
		cfg, err := LoadConfig(p.Config)
		if err != nil {
			return nil, err
		}
		label, lc = llmEntry(cfg, "plan")
		if (lc.Provider == "replay") != (p.Planner == eval.PlannerReplay) {
			return nil, fmt.Errorf("%s: %s.provider is %q, which does not fit --planner %s", cfg.File, label, lc.Provider, p.Planner)
		}
	default:
		return nil, fmt.Errorf("unknown planner %q (want oracle, replay or live)", p.Planner)
	}
	prov, err := providerFor(label, lc, logger)
	if err != nil {
		return nil, err
	}
	var planner engine.Planner = prov
	if p.Record != "" {
		if p.Planner != eval.PlannerLive {
			return nil, fmt.Errorf("--record saves a live run's answers; it does not go with --planner %s", p.Planner)
		}
		if planner, err = llm.NewRecorder(prov, p.Record, "nl2sql eval --planner live"); err != nil {
			return nil, err
		}
	}
	if p.RowLimit <= 0 {
		p.RowLimit = 100000
	}
	return &EvalAsker{planner: planner, plannerID: plannerID(lc), rowLimit: p.RowLimit, timeout: p.Timeout,
		logger: logger, engines: map[string]*engine.Engine{}}, nil
}

var unsafeID = regexp.MustCompile(`[^a-z0-9_]+`)

// datasourceID turns a benchmark database id into a datasource id
// (^[a-z][a-z0-9_]*$).
func datasourceID(dbID string) string {
	id := unsafeID.ReplaceAllString(strings.ToLower(dbID), "_")
	if id == "" || id[0] < 'a' || id[0] > 'z' {
		id = "db_" + id
	}
	return id
}

// Ask implements eval.DBAsker.
func (a *EvalAsker) Ask(ctx context.Context, dbID, dbPath, question string) (*eval.Answer, error) {
	e, id, err := a.engine(dbID, dbPath)
	if err != nil {
		return nil, err
	}
	r, err := e.Ask(ctx, engine.AskRequest{Question: question, Datasource: id})
	if err != nil {
		return nil, err
	}
	ans := &eval.Answer{Columns: r.Columns, Rows: r.Rows, Truncated: r.Truncated, SQL: r.SQL, Plan: r.Plan,
		Usage: eval.AskUsage{ModelCalls: r.Usage.ModelCalls, InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens,
			ModelMS: r.Timings.Model, LatencyMS: r.Timings.Total}}
	if len(r.SubQueries) > 0 {
		ans.PlanSource = r.SubQueries[0].PlanSource
	}
	ans.Ordered = r.Plan != nil && len(r.Plan.OrderBy) > 0
	return ans, nil
}

// engine returns the engine of one benchmark database, built on first use.
func (a *EvalAsker) engine(dbID, dbPath string) (*engine.Engine, string, error) {
	id := datasourceID(dbID)
	a.mu.Lock()
	defer a.mu.Unlock()
	if e, ok := a.engines[id]; ok {
		return e, id, nil
	}
	e, err := engine.New(engine.Options{
		Datasources: []engine.DatasourceSpec{{ID: id, Engine: "sqlite", Path: dbPath, RowLimit: a.rowLimit}}, Open: OpenSource,
		Planner: a.planner, PlannerID: a.plannerID, Logger: a.logger, RequestTimeout: a.timeout,
	})
	if err != nil {
		return nil, "", err
	}
	a.engines[id] = e
	return e, id, nil
}

// Close closes every engine.
func (a *EvalAsker) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	var first error
	for _, e := range a.engines {
		if err := e.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
