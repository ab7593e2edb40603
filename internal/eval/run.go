package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/lift"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// Engines a run can target.
const (
	EngineSQLite   = "sqlite"
	EngineDuckDB   = "duckdb"
	EnginePostgres = "postgres"
)

// PlannerOracle lifts each question's gold SQL into a plan: it measures
// how much of the benchmark the plan language, validator and renderers
// reach, with no model involved.
const PlannerOracle = "oracle"

// Options configure Run.
type Options struct {
	Suite   string // SuiteSpider (default) or SuiteBird
	File    string // the question file (Spider dev.json, BIRD mini_dev_sqlite.json)
	DBRoot  string // holds DBID/DBID.sqlite for every question's database
	Engine  string // EngineSQLite (default), EngineDuckDB or EnginePostgres
	PGDSN   string // PostgreSQL connection string, for EnginePostgres
	Planner string // PlannerOracle (default), PlannerReplay or PlannerLive
	// Asker answers questions for PlannerReplay and PlannerLive.
	Asker DBAsker
	Limit int // run only the first Limit questions; 0 runs all
	// Timeout bounds each statement (gold and rendered); 0 means 30s.
	Timeout time.Duration
	// MaxRows caps the rows read from each result; 0 means 100000. A
	// result over the cap makes the case an error.
	MaxRows int
	// Progress, when set, is called after each case.
	Progress func(done, total int, c Case)
}

// Run evaluates a benchmark: for each question it lifts the gold SQL
// (SQLite) against the catalog of its database (the SQLite file's
// Snapshot), validates and renders the plan for the engine, runs it there
// (for DuckDB and PostgreSQL on a copy of the SQLite database), and
// compares the rows with the gold SQL's on SQLite by the execution-match
// rules (see compareTables). It fails only when the options or the files
// are unusable; every question's problem is a Case.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if opts.Suite == "" {
		opts.Suite = SuiteSpider
	}
	if opts.Engine == "" {
		opts.Engine = EngineSQLite
	}
	if opts.Planner == "" {
		opts.Planner = PlannerOracle
	}
	if err := checkPlanner(opts); err != nil {
		return nil, err
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.MaxRows <= 0 {
		opts.MaxRows = 100000
	}
	dialect, ok := render.Lookup(opts.Engine)
	if !ok {
		return nil, fmt.Errorf("eval: unknown engine %q (want sqlite, duckdb or postgres)", opts.Engine)
	}
	open, cleanup, err := targetOpener(opts)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	if fi, err := os.Stat(opts.DBRoot); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("eval: --db-root %q is not a directory (it holds DB_ID/DB_ID.sqlite for each database the questions name)", opts.DBRoot)
	}
	qs, err := LoadQuestions(opts.Suite, opts.File)
	if err != nil {
		return nil, err
	}
	if opts.Limit > 0 && opts.Limit < len(qs) {
		qs = qs[:opts.Limit]
	}
	r := &Report{Suite: opts.Suite, Engine: opts.Engine, Planner: opts.Planner, Cases: []Case{}}
	dbs := map[string]*database{}
	defer func() {
		for _, d := range dbs {
			d.close()
		}
	}()
	var prep []time.Duration
	for i, q := range qs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d := dbs[q.DBID]
		if d == nil {
			d = openDatabase(ctx, opts, q.DBID, open)
			dbs[q.DBID] = d
		}
		var c Case
		if opts.Asker != nil && opts.Planner != PlannerOracle {
			c = asksQuestion(ctx, opts, d, q)
		} else {
			var dur time.Duration
			if c, dur = runCase(ctx, opts, dialect, d, q); dur > 0 {
				prep = append(prep, dur)
			}
		}
		r.add(c)
		if opts.Progress != nil {
			opts.Progress(i+1, len(qs), c)
		}
	}
	r.finish(prep)
	if opts.Planner != PlannerOracle {
		r.summariseUsage()
	}
	return r, nil
}

// database is one benchmark database opened for a run.
type database struct {
	snap    *schema.Snapshot
	gold    *goldDB
	rowless bool // no table has a row (BIRD's schema-only files)
	target  target
	err     error // why it could not be opened; every case on it is an error
	closers []func() error
}

func (d *database) close() {
	for i := len(d.closers) - 1; i >= 0; i-- {
		_ = d.closers[i]()
	}
}

func openDatabase(ctx context.Context, opts Options, dbID string, open opener) *database {
	d := &database{}
	path := DBPath(opts.DBRoot, dbID)
	src, err := sqlite.OpenSQLite(ctx, dbID, path, source.Options{Timeout: opts.Timeout})
	if err != nil {
		d.err = fmt.Errorf("open %s: %w", dbID, err)
		return d
	}
	d.closers = append(d.closers, src.Close)
	if d.snap, err = src.Snapshot(ctx); err != nil {
		d.err = fmt.Errorf("schema of %s: %w", dbID, err)
		return d
	}
	if d.gold, err = openGold(path); err != nil {
		d.err = fmt.Errorf("open %s for the gold SQL: %w", dbID, err)
		return d
	}
	d.closers = append(d.closers, d.gold.Close)
	d.rowless = d.gold.rowless(ctx, d.snap)
	t, closeT, err := open(ctx, dbID, path)
	if err != nil {
		d.err = fmt.Errorf("open %s on %s: %w", dbID, opts.Engine, err)
		return d
	}
	d.target = t
	d.closers = append(d.closers, closeT)
	return d
}

// runCase takes one question through lift, validate, render, run and
// compare. It returns the case and the time lift+validate+render took.
func runCase(ctx context.Context, opts Options, dialect render.Dialect, d *database, q Question) (Case, time.Duration) {
	c := Case{ID: q.ID, DBID: q.DBID, Question: q.Question, GoldSQL: q.Gold, Rowless: d.rowless}
	if d.err != nil {
		c.Status, c.Reason = StatusError, "database: "+d.err.Error()
		return c, 0
	}
	start := time.Now()
	plan, err := lift.Lift(q.Gold, lift.DialectSQLite, d.snap)
	if err != nil {
		dur := time.Since(start)
		var un *lift.Unsupported
		if errors.As(err, &un) {
			c.Status, c.Reason = StatusUnsupported, un.Construct
		} else {
			c.Status, c.Reason = StatusError, err.Error()
		}
		return c, dur
	}
	v, verr := validate.Plan(plan, d.snap, validate.Options{})
	var sqlText string
	var rerr error
	if verr == nil {
		sqlText, rerr = render.SQL(d.forTarget(v.Plan), dialect, render.Options{})
	}
	dur := time.Since(start)
	c.Plan = json.RawMessage(plan.Canonical())
	c.PrepareMicros = float64(dur.Nanoseconds()) / 1e3
	switch {
	case verr != nil:
		c.Status, c.Reason = StatusError, "validate: "+verr.Error()
		return c, dur
	case rerr != nil:
		c.Status, c.Reason = StatusError, rerr.Error()
		return c, dur
	}
	c.SQL = sqlText

	gctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	gold, err := d.gold.run(gctx, q.Gold, opts.MaxRows)
	cancel()
	if err != nil {
		c.Status, c.Reason = StatusError, "gold SQL fails on SQLite: "+err.Error()
		return c, dur
	}
	res, err := d.target.Query(ctx, sqlText, nil, opts.MaxRows)
	if err != nil {
		c.Status, c.Reason = StatusError, "run: "+err.Error()
		return c, dur
	}
	if gold.truncated || res.Truncated {
		c.Status, c.Reason = StatusError, fmt.Sprintf("result over %d rows", opts.MaxRows)
		return c, dur
	}
	if d.rowless {
		c.Status, c.Reason = StatusRuns, "ran on a database with no rows: nothing to compare"
		return c, dur
	}
	got := &table{cols: res.Columns, rows: res.Rows}
	ordered := len(plan.OrderBy) > 0
	if why := compareTables(gold, got, ordered); why != "" {
		switch {
		case (ordered || plan.Limit != nil) && tiesExplain(ctx, opts, dialect, d, v.Plan, gold):
			c.Status, c.Match, c.Reason = StatusPass, MatchTie, "the gold rows are another valid answer: ORDER BY keys tie (or LIMIT without ORDER BY)"
		case tiesInSubqueries(ctx, opts, dialect, d, v.Plan, gold, ordered):
			c.Status, c.Match, c.Reason = StatusPass, MatchTie, "the gold rows are another valid answer: ORDER BY keys tie in a subquery with LIMIT"
		default:
			c.Status, c.Reason = StatusFail, "result: "+why
		}
		return c, dur
	}
	c.Status, c.Match = StatusPass, MatchExact
	return c, dur
}

// tiesExplain reports whether the gold rows are a valid answer of the plan
// once rows whose ORDER BY keys tie may come in any order (and a LIMIT
// through a tie may keep any of them; with no ORDER BY, every row ties):
// it runs the plan with its sort keys as extra output columns and without
// LIMIT and OFFSET, and checks the gold rows against the runs of equal keys
// (tieTolerant).
func tiesExplain(ctx context.Context, opts Options, dialect render.Dialect, d *database, plan *planast.Query, gold *table) bool {
	k, ok := keyedRun(ctx, opts, dialect, d, plan)
	return ok && tieTolerant(gold, k.full, k.nOut, k.keys, k.offset, k.limit)
}

// keyed is a query's result with its ORDER BY keys as extra columns and
// without its LIMIT and OFFSET (keyedRun).
type keyed struct {
	full   *table
	nOut   int   // the query's own output columns come first
	keys   []int // the column of each ORDER BY key
	offset int
	limit  *int64
}

// keyedRun runs a copy of q (which must stand alone: a correlated subquery
// does not validate) with its sort keys as extra output columns and without
// LIMIT and OFFSET.
func keyedRun(ctx context.Context, opts Options, dialect render.Dialect, d *database, q *planast.Query) (keyed, bool) {
	kp, err := planast.Decode(q.Canonical(), planast.Limits{MaxBytes: 1 << 30, MaxNodes: 1 << 30, MaxDepth: 1 << 20})
	if err != nil {
		return keyed{}, false
	}
	k := keyed{nOut: len(kp.Select), limit: kp.Limit}
	for i, o := range kp.OrderBy {
		if col, ok := o.Expr.(*planast.Column); ok && col.Table == "" {
			j := -1
			for n, it := range kp.Select[:k.nOut] {
				if it.Alias == col.Column {
					j = n
				}
			}
			if j < 0 {
				return keyed{}, false
			}
			k.keys = append(k.keys, j)
			continue
		}
		if len(kp.SetOps) > 0 {
			return keyed{}, false
		}
		kp.Select = append(kp.Select, planast.SelectItem{Expr: o.Expr, Alias: fmt.Sprintf("__order_key_%d", i+1)})
		k.keys = append(k.keys, len(kp.Select)-1)
	}
	if kp.Offset != nil {
		k.offset = int(*kp.Offset)
	}
	kp.Limit, kp.Offset = nil, nil
	res, ok := runPlan(ctx, opts, dialect, d, kp)
	if !ok {
		return keyed{}, false
	}
	k.full = res
	return k, true
}

// runPlan validates, renders and runs a plan on the target; false when any
// step fails or the result is over the row cap.
func runPlan(ctx context.Context, opts Options, dialect render.Dialect, d *database, p *planast.Query) (*table, bool) {
	v, err := validate.Plan(p, d.snap, validate.Options{})
	if err != nil {
		return nil, false
	}
	sqlText, err := render.SQL(d.forTarget(v.Plan), dialect, render.Options{})
	if err != nil {
		return nil, false
	}
	res, err := d.target.Query(ctx, sqlText, nil, opts.MaxRows)
	if err != nil || res.Truncated {
		return nil, false
	}
	return &table{cols: res.Columns, rows: res.Rows}, true
}
