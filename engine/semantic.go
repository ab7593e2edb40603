package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// CodeSemanticInvalid: the datasource's semantic file does not match its
// schema (or cannot be read); the datasource does not open.
const CodeSemanticInvalid Code = "SEMANTIC_INVALID"

// loadSemantic loads spec's semantic layer against snap and returns it
// with the enriched snapshot (engine/semantic.Layer.Apply) the datasource
// then uses for retrieval, validation and describe_schema. Without a
// semantic file it returns (nil, snap, nil).
func loadSemantic(spec DatasourceSpec, snap *schema.Snapshot) (*semantic.Layer, *schema.Snapshot, error) {
	if spec.Semantic == "" {
		return nil, snap, nil
	}
	name := spec.SemanticName
	if name == "" {
		name = spec.Semantic
	}
	l, err := semantic.Load(spec.Semantic, name, snap)
	if err != nil {
		hint := "fix the file (each problem names its line), or remove the datasource's semantic key"
		var se *semantic.Error
		if !errors.As(err, &se) {
			hint = "check the datasource's semantic path in the config"
		}
		return nil, nil, &Error{Code: CodeSemanticInvalid, Msg: fmt.Sprintf("datasource %q: %v", spec.ID, err), Hint: hint, Err: err}
	}
	return l, l.Apply(snap), nil
}

// definitions is ds's semantic layer as planast.Expand takes it (a nil
// interface, not a nil *Layer, when there is none).
func (ds *datasource) definitions() planast.Definitions {
	if ds.sem == nil {
		return nil
	}
	return ds.sem
}

// expand replaces the plan's metric and filter references by their
// definitions (before row filters and validation, so scope and the
// validator see the real tables); a plan without references comes back
// unchanged. Errors are *planast.Error, which the planner repairs.
func (ds *datasource) expand(plan *planast.Query) (*planast.Query, error) {
	out, _, err := planast.Expand(plan, ds.definitions())
	return out, err
}

// definitionsUsed lists the metrics and filters a planner's plan names, in
// order of first use (nil when none or when they do not expand).
func (ds *datasource) definitionsUsed(plan *planast.Query) []planast.Used {
	if plan == nil {
		return nil
	}
	_, used, err := planast.Expand(plan, ds.definitions())
	if err != nil {
		return nil
	}
	return used
}

// schemaContext renders snap for the planner and, when the datasource has
// a semantic layer, appends the definitions concerning snap's tables
// (engine/semantic.Layer.Context). Without one it is exactly
// schemactx.SchemaContext, so prompts stay byte-identical.
func (ds *datasource) schemaContext(snap *schema.Snapshot) string {
	out := schemactx.SchemaContext(snap)
	if ds.sem == nil {
		return out
	}
	if extra := ds.sem.Context(snap); extra != "" {
		out += "\n" + extra
	}
	return out
}

// Semantic returns the datasource's semantic layer as the caller may see
// it (engine/semantic.Layer.Visible through scope), or nil when the
// datasource has none. Errors are those of opening the datasource.
func (e *Engine) Semantic(ctx context.Context, datasource string) (*semantic.Layer, error) {
	ds, err := e.resolve(ctx, datasource)
	if err != nil {
		return nil, err
	}
	if ds.sem == nil {
		return nil, nil
	}
	sc, id := e.caller(ctx), ds.spec.ID
	return ds.sem.Visible(func(schemaName, table, column string) bool {
		if column == "" {
			return sc.AllowTable(id, schemaName, table)
		}
		return sc.AllowColumn(id, schemaName, table, column)
	}), nil
}

// HasSemantic reports whether datasource id is configured with a semantic
// file (without opening it).
func (e *Engine) HasSemantic(id string) bool { return e.specs[id].Semantic != "" }
