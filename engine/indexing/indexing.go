package indexing

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"path/filepath"

	"github.com/nl2sql/nl2sql/engine/opening"
	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/index/values"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/store"
)

// Source is what indexing reads of a datasource: its id, and read-only
// queries for the stored text values.
type Source interface {
	ID() string
	Query(ctx context.Context, sql string, args []any, maxRows int) (*source.Result, error)
}

// Builder opens or builds the retrieval indexes of datasources.
type Builder struct {
	// Dir is where indexes are stored, one directory per datasource; ""
	// builds them in memory on every open.
	Dir string
	// Embedder embeds schema text; nil means the built-in, offline
	// index.NGram.
	Embedder index.Embedder
	Log      *slog.Logger
}

// Open opens the stored retrieval index of a snapshot (under Dir, keyed by
// the snapshot's fingerprint, the embedder and the index options) or
// builds it, reading stored text values through the source's read-only
// query path, and says whether it built one. An index that cannot be
// stored is built in memory; a failure leaves the datasource without an
// index (the whole schema is sent). Both are logged.
func (b Builder) Open(ctx context.Context, src Source, snap *schema.Snapshot, fingerprint string, pre *index.Prefetch) (*index.Index, bool) {
	emb, opts := b.options(ctx, src, fingerprint)
	opts.Prefetched = pre
	if b.Dir != "" {
		ix, op, err := index.OpenOrBuild(ctx, b.dir(src.ID()), snap, emb, opts)
		if op.Rebuilt != "" {
			b.Log.Warn("stored retrieval index unusable; rebuilt it", "datasource", src.ID(), "reason", op.Rebuilt)
		}
		if err == nil {
			return ix, op.Built
		}
		if ctx.Err() != nil { // the engine is closing: no fault to report
			return nil, false
		}
		var se *source.Error
		if errors.As(err, &se) {
			// the datasource failed, not the index store: a build in
			// memory would read the same values and fail the same way
			b.Log.Warn("cannot read the datasource's values for the retrieval index; the whole schema will be sent", "datasource", src.ID(), "code", se.Code, "err", err)
			return nil, false
		}
		b.Log.Warn("cannot store the retrieval index; building it in memory", "datasource", src.ID(), "code", store.CodeOf(err), "err", err)
	}
	ix, err := index.Build(ctx, snap, emb, opts)
	if err != nil {
		if ctx.Err() == nil {
			b.Log.Warn("cannot build the retrieval index; the whole schema will be sent", "datasource", src.ID(), "err", err)
		}
		return nil, false
	}
	return ix, true
}

// options are the embedder and options a datasource's retrieval index is
// built or opened with; the build's progress is the open's
// (opening.Progress).
func (b Builder) options(ctx context.Context, src Source, fingerprint string) (index.Embedder, index.Options) {
	q := func(ctx context.Context, sql string, maxRows int) ([][]any, bool, error) {
		res, err := src.Query(ctx, sql, nil, maxRows)
		if err != nil {
			return nil, false, err
		}
		return res.Rows, res.Truncated, nil
	}
	emb := b.Embedder
	if emb == nil {
		emb = index.NGram{}
	}
	return emb, index.Options{Values: values.FromQuery(q), Fingerprint: fingerprint, Progress: func(stage string, done, total int) {
		opening.Progress(ctx, stage, done, total)
	}}
}

// dir is where a datasource's retrieval indexes are stored.
func (b Builder) dir(id string) string {
	return filepath.Join(b.Dir, url.PathEscape(id))
}

// Prefetch starts reading the stored retrieval index of the snapshot
// version a loader expects (snapshots.Loader.Recorded), so that it is read
// while the snapshot is; nil when there is nothing to read ahead.
func (b Builder) Prefetch(ctx context.Context, src Source, version string) *index.Prefetch {
	if b.Dir == "" || version == "" {
		return nil
	}
	emb, opts := b.options(ctx, src, version)
	return index.StartPrefetch(b.dir(src.ID()), emb, opts)
}
