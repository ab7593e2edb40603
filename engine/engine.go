package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/hostplan"
	"github.com/nl2sql/nl2sql/engine/indexing"
	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/engine/opening"
	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/engine/snapshots"
	"github.com/nl2sql/nl2sql/engine/verified"
	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/internal/dayfile"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/store"
	"github.com/nl2sql/nl2sql/scope"
)

// Planner answers the engine's structured model calls. *llm.Replay and the
// live providers implement it.
type Planner interface {
	Complete(ctx context.Context, req llm.Request) (*llm.Response, error)
}

// Source is a datasource adapter: the contract internal/source states,
// which every adapter meets and the opener (Options.Open) returns.
type Source = source.Source

// Opener opens the datasource spec describes, read-only.
type Opener func(ctx context.Context, spec DatasourceSpec) (Source, error)

// StateStore is what the engine needs of the state store (internal/store):
// schema snapshots with profile freshness and source states (what
// engine/snapshots loads with), and the plan cache.
type StateStore interface {
	snapshots.Store
	GetPlan(ctx context.Context, key store.PlanKey) ([]byte, bool, error)
	PutPlan(ctx context.Context, key store.PlanKey, plan []byte) error
	ClearPlans(ctx context.Context, datasource string) (int, error)
}

// SnapshotStatus says what loading a datasource's snapshot did
// (engine/snapshots).
type SnapshotStatus = snapshots.Status

// Snapshot statuses.
const (
	SnapshotReused    = snapshots.Reused    // schema and row counts unchanged, profile young: nothing profiled
	SnapshotNew       = snapshots.New       // profiled and stored as a new version
	SnapshotRefreshed = snapshots.Refreshed // profiled again; the data had not changed (nothing new stored)
	SnapshotUnstored  = snapshots.Unstored  // profiled; no state store (or it failed)
	SnapshotPresumed  = snapshots.Presumed  // schema version as recorded; rows counted after opening
)

// CodeDatasourceIndexing: the datasource is still being opened
// (introspected, profiled, indexed); the same call succeeds once it is
// ready.
const CodeDatasourceIndexing = opening.CodeIndexing

// WaitFunc is told, while a request waits for a datasource to open, what
// it waits for ("datasource big: indexing: table 812 of 2000") and how far
// that got (done of total; 0 of 0 when unknown). It must not block.
type WaitFunc = opening.WaitFunc

// WithWaitProgress returns a context whose requests wait for a datasource
// still opening until ctx ends, reporting to f about every half second,
// instead of giving up after Options.OpenWait (the MCP tools set it when
// the client sent a progress token).
func WithWaitProgress(ctx context.Context, f WaitFunc) context.Context {
	return opening.WithWaitProgress(ctx, f)
}

// DatasourceSpec configures one datasource.
type DatasourceSpec struct {
	ID          string
	Engine      string // "sqlite" (DuckDB and PostgreSQL follow)
	Path        string // absolute path of a database file
	DSN         string
	Description string
	RowLimit    int           // rows returned at most; 0 means 1000
	Timeout     time.Duration // per query; 0 means 30s
	// Semantic is the absolute path of the datasource's semantic file
	// (engine/semantic), "" for none; SemanticName is how errors name it.
	Semantic, SemanticName string
	// Flavor, for a postgres datasource, names the distributed engine
	// behind it (render.Flavors); the renderer writes its dialect.
	Flavor string
	// Scaling, when set, replaces Options.Scaling for this datasource.
	Scaling *ScaleConfig
	// AllowWritableRole opens a postgres datasource whose role can write,
	// with a warning, instead of refusing it (source.Options); queries still
	// run READ ONLY.
	AllowWritableRole bool
}

// AdapterRows is the row cap to open the datasource's adapter with
// (source.Options.RowLimit): the most rows any query of the engine reads,
// which is a combination's source (multi.SourceRows), not the client's
// row limit; every other query asks for the row limit itself.
func (s DatasourceSpec) AdapterRows() int { return multi.SourceRows(s.RowLimit) }

// Options configure an Engine.
type Options struct {
	Datasources []DatasourceSpec
	// ConfigFile names the configuration file in hints that tell the user
	// to edit it; empty means nl2sql.yaml.
	ConfigFile string
	// Planner plans questions; nil means host planning: no model call is
	// made, and Ask returns the plan-it-yourself result (engine/hostplan).
	Planner Planner
	// HandOver makes Ask return the plan-it-yourself result, not
	// NO_RECORDING, when the replay provider has no recording for a
	// question (set by the CLI and the server; off where a recording is
	// required: recordings check, replay tests, eval --planner replay).
	HandOver bool
	// Answerer writes the short answer from the first rows (step "answer");
	// nil means a deterministic summary of the first rows.
	Answerer Planner
	// Today returns the run date as YYYY-MM-DD; nil means the UTC date.
	Today func() string
	// MaxRepairs bounds how often an invalid plan goes back to the planner.
	MaxRepairs int
	// RequestTimeout bounds one whole request, down to the database query;
	// 0 means 2 minutes.
	RequestTimeout time.Duration
	Logger         *slog.Logger
	// Open opens a datasource with the adapter for its engine. The
	// composition root (internal/app) chooses the adapters, so the engine
	// imports no driver; nil makes every open fail with DATASOURCE_DOWN.
	Open Opener
	// Policy is the access policy (roles, users); nil means single-user.
	Policy *scope.Policy
	// Curated holds the verified queries; nil disables the verified path.
	Curated *curated.Set
	// Store keeps snapshots and the plan cache; nil disables both.
	Store StateStore
	// ProfileMaxAge is how old a stored profile may get before it is
	// refreshed even when row counts are unchanged; 0 means 24 hours.
	ProfileMaxAge time.Duration
	// Retrieval is the retrieval budget (tables, columns, values, and the
	// whole-schema threshold); the zero value takes index's defaults.
	Retrieval index.Budget
	// Embedder embeds schema text for retrieval; nil means the built-in,
	// offline index.NGram.
	Embedder index.Embedder
	// TraceDir is where request traces are written (storage.path/traces);
	// "" disables tracing.
	TraceDir string
	// TraceRetention bounds the trace files by age and size.
	TraceRetention TraceRetention
	// traceOpen replaces the trace writer's file opening (tests inject
	// failures and stalls).
	traceOpen func(path string) (io.WriteCloser, error)
	// PlannerID names the planner's provider and model ("replay",
	// "openai/gpt-4.1"); it is part of the plan cache key.
	PlannerID string
	// Hooks run operators' rules at the fixed points (engine/hooks); nil
	// runs none.
	Hooks *hooks.Runner
	// Events receives the catalogued events (engine/events); nil drops them.
	Events *events.Bus
	// Approvals keeps runs stopped for approval; nil makes a
	// require_approval decision refuse the run.
	Approvals ApprovalStore
	// ApproverRoles may decide approvals.
	ApproverRoles []string
	// Scaling configures test-time scaling (scale.go); the zero value keeps
	// the single planner call.
	Scaling ScaleConfig
	// Selector compares candidates and critiques them when scaling (steps
	// "select", "critique"); nil means the Planner.
	Selector Planner
	// ResultTokens is the token budget of one MCP tool result (config
	// results.token_budget); 0 means the tools' default.
	ResultTokens int
	// IndexDir is where retrieval indexes are stored, one directory per
	// datasource (storage.path/indexes); a restart with an unchanged
	// snapshot opens the stored index instead of building it. "" builds
	// indexes in memory on every open.
	IndexDir string
	// OpenWait bounds how long a request waits for a datasource that is
	// still being opened before it gets the retryable
	// DATASOURCE_INDEXING error (engine/opening); 0 waits until the request's
	// own deadline (the CLI's one-shot commands). The server sets 1s.
	OpenWait time.Duration
	// TracerProvider receives the OpenTelemetry spans of each request
	// (engine/spans); nil means the global provider (a no-op unless a process
	// installs an SDK).
	TracerProvider trace.TracerProvider
}

// Engine answers questions over the configured datasources. It is safe for
// concurrent use.
type Engine struct {
	opts  Options
	log   *slog.Logger
	specs map[string]DatasourceSpec
	// sources holds the opened datasources and the opens in progress
	// (engine/opening).
	sources *opening.Set[*datasource]
	// matcher matches questions to verified queries (engine/verified).
	matcher verified.Matchers
	// hostMode: no planner is configured; the host plans (engine/hostplan).
	hostMode bool
	// tracer starts the root span of a request that arrives without one.
	tracer trace.Tracer
	// traces writes request traces in the background (trace.go).
	traces *dayfile.Writer
	// retrievals counts schema-context retrievals (a plan-cache hit does
	// none; tests read it).
	retrievals atomic.Int64
	// checked holds the ids opened once by this engine: only a first
	// open may presume a server database unchanged (SnapshotPresumed);
	// the renewal that checks it, and any later open, checks in full.
	checked sync.Map
	// compiled keeps what plans' bytes gave (compiled.go).
	compiled *lru.Cache[[32]byte, *compiledPlan]
}

// datasource is an opened source with its schema snapshot and version.
type datasource struct {
	spec    DatasourceSpec
	src     Source
	snap    *schema.Snapshot
	version string       // content fingerprint of snap
	idx     *index.Index // retrieval index of snap; nil sends the whole schema
	status  SnapshotStatus
	// indexBuilt: idx was built by this open, not read from IndexDir.
	indexBuilt bool
	// sem is the semantic layer (nil: none); snap is then enriched by it.
	sem *semantic.Layer
	// schemaVer is the source's schema version read before its snapshot
	// ("": it has none); schemaChecked is when a call last compared it
	// with the source's (unix nanoseconds). See current.
	schemaVer     string
	schemaChecked atomic.Int64
	// openedAt and stateTok (the source's state token then, "" when it
	// has none) tell when the profile is due again (see current).
	openedAt time.Time
	stateTok string
	// checking: the full check of a presumed snapshot has started
	// (verifyPresumed).
	checking atomic.Bool
}

// ResultTokenBudget is the configured token budget of one tool result
// (0: the tools' default). The MCP tools read it; the engine itself never
// cuts a result.
func (e *Engine) ResultTokenBudget() int { return e.opts.ResultTokens }

// TracerProvider is where the engine's spans go; the MCP server starts each
// tool call's root span with it, so the run's spans join that trace.
func (e *Engine) TracerProvider() trace.TracerProvider { return e.opts.TracerProvider }

// New builds an Engine. Datasources are opened on first use.
func New(opts Options) (*Engine, error) {
	hostMode := opts.Planner == nil
	if hostMode {
		opts.Planner = hostplan.NoPlanner{}
	}
	if opts.Today == nil {
		opts.Today = func() string { return time.Now().UTC().Format("2006-01-02") }
	}
	if opts.MaxRepairs == 0 {
		opts.MaxRepairs = 2
	}
	if opts.ProfileMaxAge <= 0 {
		opts.ProfileMaxAge = 24 * time.Hour
	}
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = 2 * time.Minute
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Open == nil {
		opts.Open = func(context.Context, DatasourceSpec) (Source, error) {
			return nil, errors.New("engine: no datasource opener (Options.Open) is configured")
		}
	}
	if opts.TracerProvider == nil {
		opts.TracerProvider = otel.GetTracerProvider()
	}
	observeModels(&opts)
	traceModels(&opts)
	e := &Engine{opts: opts, log: opts.Logger, specs: map[string]DatasourceSpec{}, hostMode: hostMode, compiled: newCompiled(),
		tracer: opts.TracerProvider.Tracer(tracerName)}
	e.sources = opening.New(func(ctx context.Context, id string) (*datasource, error) { return e.openDatasource(ctx, e.specs[id]) },
		func(ds *datasource) { ds.close() })
	for _, s := range opts.Datasources {
		if s.RowLimit <= 0 {
			s.RowLimit = 1000
		}
		if s.Timeout <= 0 {
			s.Timeout = 30 * time.Second
		}
		if _, dup := e.specs[s.ID]; dup {
			return nil, fmt.Errorf("engine: datasource %q configured twice", s.ID)
		}
		e.specs[s.ID] = s
	}
	e.traces = e.openTraces()
	return e, nil
}

// DatasourceIDs lists the configured datasource ids in order.
func (e *Engine) DatasourceIDs() []string {
	ids := make([]string, 0, len(e.specs))
	for id := range e.specs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// datasource opens (once) and returns the datasource id with its
// snapshot, waiting for an open in progress at most Options.OpenWait
// (engine/opening).
func (e *Engine) datasource(ctx context.Context, id string) (*datasource, error) {
	if _, ok := e.specs[id]; !ok {
		return nil, e.noDatasource(ctx, id)
	}
	ds, err := e.sources.Await(ctx, id, e.opts.OpenWait)
	if err != nil {
		return nil, err
	}
	return e.current(ctx, ds)
}

// openDatasource opens spec's source, loads its snapshot and opens or
// builds its retrieval index. It runs in the open's own goroutine
// (engine/opening), holding no engine-wide lock.
func (e *Engine) openDatasource(ctx context.Context, spec DatasourceSpec) (*datasource, error) {
	id := spec.ID
	src, err := e.opts.Open(ctx, spec)
	if err != nil {
		return nil, sourceError(err, id)
	}
	// read before the snapshot: a change made while it is read is seen
	// by the next check
	schemaVer, _ := schemaVersion(ctx, src)
	stateTok := stateToken(ctx, src)
	opening.Progress(ctx, "profiling", 0, 0)
	_, again := e.checked.LoadOrStore(id, true)
	loader := snapshots.Loader{Store: e.opts.Store, MaxAge: e.opts.ProfileMaxAge, Log: e.log, Presume: !again}
	indexer := indexing.Builder{Dir: e.opts.IndexDir, Embedder: e.opts.Embedder, Log: e.log}
	pre := indexer.Prefetch(ctx, src, loader.Recorded(ctx, src))
	defer pre.Discard()
	snap, version, fingerprint, status, err := loader.Load(ctx, src)
	if err != nil {
		src.Close()
		return nil, sourceError(err, id)
	}
	if len(snap.Tables) == 0 {
		src.Close()
		return nil, &Error{Code: CodeDatasourceDown, Msg: fmt.Sprintf("datasource %q has no tables", id),
			Hint: "check that the datasource's path or dsn in the config names the database you mean", Retryable: true}
	}
	sem, snap, err := semantic.Open(spec.Semantic, spec.SemanticName, id, snap) // the semantic layer, if any
	if err != nil {
		src.Close()
		return nil, err
	}
	if sem != nil {
		fingerprint = "" // the layer changed the snapshot
	}
	// views are judged by what they read, before any caller sees them
	e.opts.Policy.SetViews(id, snap)
	ds := &datasource{spec: spec, src: src, snap: snap, version: version, status: status, sem: sem, schemaVer: schemaVer,
		openedAt: time.Now(), stateTok: stateTok}
	ds.schemaChecked.Store(ds.openedAt.UnixNano())
	indexed := e.opts.Policy.SharedNotes(snap)
	if indexed != snap {
		fingerprint = "" // notes some role may not read left out
	}
	ds.idx, ds.indexBuilt = indexer.Open(ctx, src, indexed, fingerprint, pre) // engine/indexing
	e.gate().WarnUnmatchedRules(ds.spec.ID, ds.snap)
	return ds, nil
}

// close releases the datasource's index and source.
func (ds *datasource) close() error {
	if ds.idx != nil {
		ds.idx.Close()
	}
	return ds.src.Close()
}

// Close cancels the opens still running and waits for them (a server
// stopped seconds after it started must not leave an open writing to a
// state store its caller closes next), then closes every opened datasource.
func (e *Engine) Close() error {
	if e.traces != nil {
		e.traces.Close()
	}
	var errs []error
	for id, ds := range e.sources.Close() {
		if err := ds.close(); err != nil {
			errs = append(errs, fmt.Errorf("close %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// sourceError maps an adapter error onto the boundary error type.
func sourceError(err error, id string) *Error { return fault.Source(err, id) }
