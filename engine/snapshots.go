package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/store"
	"github.com/nl2sql/nl2sql/render"
)

// StateStore is what the engine needs of the state store (internal/store):
// schema snapshots with profile freshness, and the plan cache.
type StateStore interface {
	PutSnapshot(ctx context.Context, snap *schema.Snapshot) (string, bool, error)
	LatestSnapshot(ctx context.Context, datasource string) (*schema.Snapshot, *store.SnapshotMeta, error)
	MarkProfiled(ctx context.Context, datasource, version string, at time.Time) error
	GetPlan(ctx context.Context, key store.PlanKey) ([]byte, bool, error)
	PutPlan(ctx context.Context, key store.PlanKey, plan []byte) error
	ClearPlans(ctx context.Context, datasource string) (int, error)
}

// loadSnapshot introspects src and returns its profiled snapshot and
// version. With a state store, an unchanged schema whose row counts are
// unchanged and whose profile is younger than Options.ProfileMaxAge reuses
// the stored profile (no profiling); otherwise the source is profiled and
// the snapshot stored (nothing is written when it is identical).
func (e *Engine) loadSnapshot(ctx context.Context, src Source) (*schema.Snapshot, string, error) {
	snap, version, _, err := e.loadSnapshotStatus(ctx, src)
	return snap, version, err
}

// SnapshotStatus says what loading a datasource's snapshot did.
type SnapshotStatus string

// Snapshot statuses.
const (
	SnapshotReused    SnapshotStatus = "reused"    // schema and row counts unchanged, profile young: nothing profiled
	SnapshotNew       SnapshotStatus = "new"       // profiled and stored as a new version
	SnapshotRefreshed SnapshotStatus = "refreshed" // profiled again; the data had not changed (nothing new stored)
	SnapshotUnstored  SnapshotStatus = "unstored"  // profiled; no state store (or it failed)
)

func (e *Engine) loadSnapshotStatus(ctx context.Context, src Source) (*schema.Snapshot, string, SnapshotStatus, error) {
	snap, version, status, err := e.loadProfiled(ctx, src)
	if snap != nil {
		withholdSecrets(snap) // a reused stored snapshot too: it may predate the rule
	}
	return snap, version, status, err
}

// withholdSecrets clears the values a profile holds of every column whose
// name says it holds secrets (index.SecretColumn): sample values and the
// min/max range. The row count, distinct count and NULL share stay. Every
// snapshot the engine serves passes here, so describe_schema, the schema
// context of planners and hosts, search_schema and the stored snapshot
// never carry them; the value index, which reads values from the database
// itself, skips those columns by the same rule.
func withholdSecrets(snap *schema.Snapshot) {
	for ti := range snap.Tables {
		for ci := range snap.Tables[ti].Columns {
			c := &snap.Tables[ti].Columns[ci]
			if c.Profile == nil || !index.SecretColumn(c.Name) {
				continue
			}
			p := *c.Profile
			p.Min, p.Max, p.SampleValues, p.AllValues = nil, nil, nil, false
			c.Profile = &p
		}
	}
}

func (e *Engine) loadProfiled(ctx context.Context, src Source) (*schema.Snapshot, string, SnapshotStatus, error) {
	fresh, err := src.Snapshot(ctx)
	if err != nil {
		return nil, "", "", err
	}
	if e.opts.Store == nil {
		if err := src.Profile(ctx, fresh); err != nil {
			e.log.Warn("profiling failed; continuing without samples", "datasource", src.ID(), "err", err)
		}
		return fresh, fresh.Fingerprint(), SnapshotUnstored, nil
	}
	stored, meta, err := e.opts.Store.LatestSnapshot(ctx, src.ID())
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		e.log.Warn("state store unreadable; profiling afresh", "datasource", src.ID(), "err", err)
		meta = nil
	}
	if meta != nil && meta.SchemaHash == store.SchemaFingerprint(fresh) {
		counts, cerr := e.rowCounts(ctx, src, fresh)
		if cerr == nil && !store.NeedsProfile(meta, counts, e.opts.ProfileMaxAge, time.Now()) {
			return stored, meta.Version, SnapshotReused, nil
		}
	}
	if err := src.Profile(ctx, fresh); err != nil {
		e.log.Warn("profiling failed; continuing without samples", "datasource", src.ID(), "err", err)
		return fresh, fresh.Fingerprint(), SnapshotUnstored, nil
	}
	withholdSecrets(fresh) // before it is stored
	version, created, err := e.opts.Store.PutSnapshot(ctx, fresh)
	if err != nil {
		e.log.Warn("cannot store the schema snapshot; continuing", "datasource", src.ID(), "err", err)
		return fresh, fresh.Fingerprint(), SnapshotUnstored, nil
	}
	status := SnapshotNew
	if !created {
		status = SnapshotRefreshed
	}
	if !created && meta != nil && version == meta.Version {
		if err := e.opts.Store.MarkProfiled(ctx, src.ID(), version, time.Now()); err != nil {
			e.log.Warn("cannot record the profile time", "datasource", src.ID(), "err", err)
		}
	}
	return fresh, version, status, nil
}

// rowCounts counts the rows of every table (not views) through the
// source's read-only query path.
func (e *Engine) rowCounts(ctx context.Context, src Source, snap *schema.Snapshot) (map[string]int64, error) {
	out := map[string]int64{}
	for _, t := range snap.Tables {
		if t.Kind == schema.KindView {
			continue
		}
		name := render.QuoteIdent(t.Name)
		if t.Schema != "" {
			name = render.QuoteIdent(t.Schema) + "." + name
		}
		res, err := src.Query(ctx, "SELECT COUNT(*) FROM "+name, nil, 1)
		if err != nil {
			return nil, err
		}
		if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
			return nil, fmt.Errorf("count of %s returned no row", t.Name)
		}
		n, ok := res.Rows[0][0].(int64)
		if !ok {
			return nil, fmt.Errorf("count of %s is %T", t.Name, res.Rows[0][0])
		}
		out[store.TableKey(t.Schema, t.Name)] = n
	}
	return out, nil
}
