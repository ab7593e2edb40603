package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/engine/semantic"
)

// CodeSemanticInvalid: the datasource's semantic file does not match its
// schema (or cannot be read); the datasource does not open
// (engine/semantic.Open).
const CodeSemanticInvalid = semantic.CodeInvalid

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
	return ds.sem.Visible(e.caller(ctx).Reader(ds.spec.ID)), nil
}

// HasSemantic reports whether datasource id is configured with a semantic
// file (without opening it).
func (e *Engine) HasSemantic(id string) bool { return e.specs[id].Semantic != "" }
