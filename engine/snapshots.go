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
	SourceState(ctx context.Context, datasource string) (token, version string, err error)
	PutSourceState(ctx context.Context, datasource, token, version string) error
}

// stateTokener is a Source that can say cheaply which state it is in
// (source.SQLite and source.DuckDB: a hash of the file's size, time and
// header). Equal tokens mean nothing was written in between.
type stateTokener interface {
	StateToken(ctx context.Context) (string, error)
}

// loadSnapshot introspects src and returns its profiled snapshot and
// version. With a state store, an unchanged schema whose row counts are
// unchanged and whose profile is younger than Options.ProfileMaxAge reuses
// the stored profile (no profiling); otherwise the source is profiled and
// the snapshot stored (nothing is written when it is identical).
func (e *Engine) loadSnapshot(ctx context.Context, src Source) (*schema.Snapshot, string, error) {
	snap, version, _, _, err := e.loadSnapshotStatus(ctx, src)
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

// loadSnapshotStatus is loadSnapshot, saying what it did. fingerprint is
// snap.Fingerprint() when the version is that (the version hashes the
// snapshot before secrets were withheld: a stored snapshot older than the
// rule), else "".
func (e *Engine) loadSnapshotStatus(ctx context.Context, src Source) (snap *schema.Snapshot, version, fingerprint string, status SnapshotStatus, err error) {
	snap, version, status, err = e.loadProfiled(ctx, src)
	if snap == nil {
		return nil, version, "", status, err
	}
	fingerprint = version
	if withholdSecrets(snap) { // a reused stored snapshot too: it may predate the rule
		fingerprint = ""
	}
	return snap, version, fingerprint, status, err
}

// withholdSecrets clears the values a profile holds of every column whose
// name says it holds secrets (index.SecretColumn): sample values and the
// min/max range. The row count, distinct count and NULL share stay. Every
// snapshot the engine serves passes here, so describe_schema, the schema
// context of planners and hosts, search_schema and the stored snapshot
// never carry them; the value index, which reads values from the database
// itself, skips those columns by the same rule. It reports whether it
// changed anything.
func withholdSecrets(snap *schema.Snapshot) bool {
	changed := false
	for ti := range snap.Tables {
		for ci := range snap.Tables[ti].Columns {
			c := &snap.Tables[ti].Columns[ci]
			if c.Profile == nil || !index.SecretColumn(c.Name) {
				continue
			}
			p := *c.Profile
			if p.Min == nil && p.Max == nil && p.SampleValues == nil && !p.AllValues {
				continue
			}
			p.Min, p.Max, p.SampleValues, p.AllValues = nil, nil, nil, false
			c.Profile = &p
			changed = true
		}
	}
	return changed
}

func (e *Engine) loadProfiled(ctx context.Context, src Source) (*schema.Snapshot, string, SnapshotStatus, error) {
	if e.opts.Store == nil {
		fresh, err := src.Snapshot(ctx)
		if err != nil {
			return nil, "", "", err
		}
		if err := src.Profile(ctx, fresh); err != nil {
			e.log.Warn("profiling failed; continuing without samples", "datasource", src.ID(), "err", err)
		}
		return fresh, fresh.Fingerprint(), SnapshotUnstored, nil
	}
	// The token is read before anything else, so a write during the
	// introspection or the profile below leaves a token that no longer
	// matches, and the next open checks in full.
	token := e.stateToken(ctx, src)
	if snap, version, ok := e.unchangedSince(ctx, src.ID(), token); ok {
		return snap, version, SnapshotReused, nil
	}
	snap, version, status, err := e.checkProfiled(ctx, src)
	if err == nil && status != SnapshotUnstored {
		if err := e.opts.Store.PutSourceState(ctx, src.ID(), token, version); err != nil {
			e.log.Warn("cannot record the source state; the next start checks in full", "datasource", src.ID(), "err", err)
		}
	}
	return snap, version, status, err
}

// stateToken is src's state token, or "" when it has none (a server
// database) or cannot read it.
func (e *Engine) stateToken(ctx context.Context, src Source) string {
	st, ok := src.(stateTokener)
	if !ok {
		return ""
	}
	token, err := st.StateToken(ctx)
	if err != nil {
		e.log.Warn("cannot read the source's state; checking it in full", "datasource", src.ID(), "err", err)
		return ""
	}
	return token
}

// unchangedSince returns the stored snapshot when the source's state token
// equals the one recorded with it and its profile is young enough: the
// source was not written since, so neither its schema nor its row counts
// can differ, and introspecting and counting again would only confirm it.
func (e *Engine) unchangedSince(ctx context.Context, id, token string) (*schema.Snapshot, string, bool) {
	if token == "" {
		return nil, "", false
	}
	recorded, version, err := e.opts.Store.SourceState(ctx, id)
	if err != nil || recorded != token {
		return nil, "", false
	}
	stored, meta, err := e.opts.Store.LatestSnapshot(ctx, id)
	if err != nil || meta.Version != version || store.NeedsProfile(meta, nil, e.opts.ProfileMaxAge, time.Now()) {
		return nil, "", false
	}
	return stored, meta.Version, true
}

// checkProfiled introspects src and compares it with the stored snapshot:
// an unchanged schema whose row counts are unchanged and whose profile is
// young reuses the stored profile; otherwise src is profiled and the
// snapshot stored.
func (e *Engine) checkProfiled(ctx context.Context, src Source) (*schema.Snapshot, string, SnapshotStatus, error) {
	fresh, err := src.Snapshot(ctx)
	if err != nil {
		return nil, "", "", err
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
