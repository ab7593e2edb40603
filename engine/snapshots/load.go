package snapshots

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/dictionary"
	"github.com/nl2sql/nl2sql/internal/store"
	"github.com/nl2sql/nl2sql/render"
)

// Source is what loading needs of a datasource adapter (internal/source):
// introspection, profiling, and the read-only query path that counts rows.
type Source interface {
	ID() string
	Snapshot(ctx context.Context) (*schema.Snapshot, error)
	Profile(ctx context.Context, snap *schema.Snapshot) error
	Query(ctx context.Context, sql string, args []any, maxRows int) (*source.Result, error)
}

// Store is what loading needs of the state store (internal/store): schema
// snapshots with their profile freshness, and each source's recorded state.
type Store interface {
	PutSnapshot(ctx context.Context, snap *schema.Snapshot) (string, bool, error)
	LatestSnapshot(ctx context.Context, datasource string) (*schema.Snapshot, *store.SnapshotMeta, error)
	MarkProfiled(ctx context.Context, datasource, version string, at time.Time) error
	SourceState(ctx context.Context, datasource string) (token, version string, err error)
	PutSourceState(ctx context.Context, datasource, token, version string) error
}

// Tokener is a Source that can say cheaply which state it is in
// (sqlite.SQLite and duckdb.DuckDB: a hash of the file's size, time and
// header). Equal tokens mean nothing was written in between.
type Tokener interface {
	StateToken(ctx context.Context) (string, error)
}

// SchemaVersioner is a Source that can say cheaply which schema it has
// but not whether its rows changed (postgres.Postgres: a digest of its
// catalog). Loader.Presume lets an unchanged schema version stand for
// an unchanged source until its rows are counted.
type SchemaVersioner interface {
	SchemaVersion(ctx context.Context) (string, error)
}

// presumedPrefix marks a recorded state token that is a schema version
// (SchemaVersioner), which says nothing of the rows.
const presumedPrefix = "schema:"

// StateToken is src's state token, "" when it is no Tokener.
func StateToken(ctx context.Context, src Source) (string, error) {
	st, ok := src.(Tokener)
	if !ok {
		return "", nil
	}
	return st.StateToken(ctx)
}

// Status says what loading a datasource's snapshot did.
type Status string

// Snapshot statuses.
const (
	Reused    Status = "reused"    // schema and row counts unchanged, profile young: nothing profiled
	New       Status = "new"       // profiled and stored as a new version
	Refreshed Status = "refreshed" // profiled again; the data had not changed (nothing new stored)
	Unstored  Status = "unstored"  // profiled; no state store (or it failed)
	// Presumed: the schema version is the one recorded with the stored
	// snapshot (Loader.Presume), whose profile is young; the rows were not
	// counted, and the caller checks them in full after opening (a Load
	// without Presume).
	Presumed Status = "presumed"
)

// Loader loads profiled snapshots. Store nil profiles every time and
// stores nothing; MaxAge is how old a stored profile may get before it is
// refreshed even when row counts are unchanged.
type Loader struct {
	Store  Store
	MaxAge time.Duration
	Log    *slog.Logger
	// Presume lets a source without a state token (a server database)
	// whose schema version is the one recorded with its stored snapshot
	// reuse that snapshot unchecked (status Presumed): counting every
	// table of a big database before the first answer took minutes, for
	// a profile that is only a guide. The caller checks it in full later.
	Presume bool
}

// Load introspects src and returns its profiled snapshot and version,
// saying what it did. With a state store, an unchanged schema whose row
// counts are unchanged and whose profile is younger than MaxAge reuses the
// stored profile (no profiling); otherwise the source is profiled and the
// snapshot stored (nothing is written when it is identical). fingerprint
// is snap.Fingerprint() when the version is that (the version hashes the
// snapshot before secrets were withheld: a stored snapshot older than the
// rule), else "".
func (l Loader) Load(ctx context.Context, src Source) (snap *schema.Snapshot, version, fingerprint string, status Status, err error) {
	if l.Log == nil {
		l.Log = slog.Default()
	}
	snap, version, status, err = l.loadProfiled(ctx, src)
	if snap == nil {
		return nil, version, "", status, err
	}
	fingerprint = version
	if WithholdSecrets(snap) { // a reused stored snapshot too: it may predate the rule
		fingerprint = ""
	}
	return snap, version, fingerprint, status, err
}

// WithholdSecrets clears the values a profile holds of every column whose
// name says it holds secrets (lex.SecretColumn): sample values and the
// min/max range, and the example of the values not of its type or that a
// cast reads as NULL. The row count, distinct count, NULL share and the
// counts of such values stay. Every
// snapshot the engine serves passes here, so describe_schema, the schema
// context of planners and hosts, search_schema and the stored snapshot
// never carry them; the value index, which reads values from the database
// itself, skips those columns by the same rule. A view definition that
// names such a column loses its strings (withoutSecrets). It reports
// whether it changed anything.
func WithholdSecrets(snap *schema.Snapshot) bool {
	changed := false
	for ti := range snap.Tables {
		if t := &snap.Tables[ti]; t.Definition != "" {
			if d := withoutSecrets(t.Definition); d != t.Definition {
				t.Definition, changed = d, true
			}
		}
		for ci := range snap.Tables[ti].Columns {
			c := &snap.Tables[ti].Columns[ci]
			if c.Profile == nil || !lex.SecretColumn(c.Name) {
				continue
			}
			p := *c.Profile
			if p.Min == nil && p.Max == nil && p.SampleValues == nil && !p.AllValues && p.InvalidExample == nil && !castExamples(p.CastNulls) && p.OffsetDays == nil && p.Spellings == nil {
				continue
			}
			p.Min, p.Max, p.SampleValues, p.AllValues, p.InvalidExample = nil, nil, nil, false, nil
			// the counts stay, the example values go (a pin column of
			// numbers would show its one pin that is not a number)
			p.CastNulls = slices.Clone(p.CastNulls)
			for i := range p.CastNulls {
				p.CastNulls[i].InvalidExample = nil
			}
			if p.OffsetDays != nil {
				p.OffsetDays = &schema.OffsetDays{Count: p.OffsetDays.Count}
			}
			if p.Spellings != nil {
				p.Spellings = &schema.TimestampSpellings{T: p.Spellings.T, Space: p.Spellings.Space}
			}
			c.Profile = &p
			changed = true
		}
	}
	return changed
}

func (l Loader) loadProfiled(ctx context.Context, src Source) (*schema.Snapshot, string, Status, error) {
	if l.Store == nil {
		fresh, err := l.snapshot(ctx, src)
		if err != nil {
			return nil, "", "", err
		}
		if err := src.Profile(ctx, fresh); unreadable(err) {
			return nil, "", "", err
		} else if err != nil {
			l.Log.Warn("profiling failed; continuing without samples", "datasource", src.ID(), "err", err)
		}
		return fresh, fresh.Fingerprint(), Unstored, nil
	}
	// The token is read before anything else, so a write during the
	// introspection or the profile below leaves a token that no longer
	// matches, and the next open checks in full.
	token := l.stateToken(ctx, src)
	presumed := false
	if token == "" {
		// a server database: its schema version stands for it, recorded
		// after a full check and trusted only where Presume allows
		token, presumed = l.schemaToken(ctx, src), true
	}
	if snap, version, ok := l.unchangedSince(ctx, src.ID(), token); ok && (!presumed || l.Presume) {
		if presumed {
			return snap, version, Presumed, nil
		}
		return snap, version, Reused, nil
	}
	snap, version, status, err := l.checkProfiled(ctx, src)
	if err == nil && status != Unstored {
		if err := l.Store.PutSourceState(ctx, src.ID(), token, version); err != nil && ctx.Err() == nil {
			// (an open cancelled meanwhile, as when a one-shot command
			// ends, is no fault to report: the next start checks in full)
			l.Log.Warn("cannot record the source state; the next start checks in full", "datasource", src.ID(), "err", err)
		}
	}
	return snap, version, status, err
}

// snapshot introspects src, with the notes of its documentation tables
// (internal/source/dictionary) as comments: before the schema hash is
// compared, so a changed note makes a new snapshot as a changed COMMENT
// does.
func (l Loader) snapshot(ctx context.Context, src Source) (*schema.Snapshot, error) {
	snap, err := src.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	dictionary.Attach(ctx, snap, src, l.Log)
	return snap, nil
}

// stateToken is src's state token, or "" when it has none (a server
// database) or cannot read it.
func (l Loader) stateToken(ctx context.Context, src Source) string {
	token, err := StateToken(ctx, src)
	if err != nil {
		l.Log.Warn("cannot read the source's state; checking it in full", "datasource", src.ID(), "err", err)
		return ""
	}
	return token
}

// schemaToken is src's schema version as a recorded state token
// (presumedPrefix), "" when it has none or cannot read it.
func (l Loader) schemaToken(ctx context.Context, src Source) string {
	sv, ok := src.(SchemaVersioner)
	if !ok {
		return ""
	}
	v, err := sv.SchemaVersion(ctx)
	if err != nil || v == "" {
		return ""
	}
	return presumedPrefix + v
}

// Recorded is the version Load will return when it finds src unchanged:
// the one recorded with src's current state token. It reads no snapshot,
// so what depends only on the version (the stored retrieval index) can be
// read while Load decodes it. "" when src has no state token, nothing is
// recorded, or the token differs; Load decides in any case.
func (l Loader) Recorded(ctx context.Context, src Source) string {
	if l.Store == nil {
		return ""
	}
	token := l.stateToken(ctx, src)
	if token == "" && l.Presume {
		token = l.schemaToken(ctx, src)
	}
	if token == "" {
		return ""
	}
	recorded, version, err := l.Store.SourceState(ctx, src.ID())
	if err != nil || recorded != token {
		return ""
	}
	return version
}

// unchangedSince returns the stored snapshot when the source's state token
// equals the one recorded with it and its profile is young enough: the
// source was not written since, so neither its schema nor its row counts
// can differ, and introspecting and counting again would only confirm it.
func (l Loader) unchangedSince(ctx context.Context, id, token string) (*schema.Snapshot, string, bool) {
	if token == "" {
		return nil, "", false
	}
	recorded, version, err := l.Store.SourceState(ctx, id)
	if err != nil || recorded != token {
		return nil, "", false
	}
	stored, meta, err := l.Store.LatestSnapshot(ctx, id)
	if err != nil || meta.Version != version || stale(stored, meta, nil, l.MaxAge) {
		return nil, "", false
	}
	return stored, meta.Version, true
}

// checkProfiled introspects src and compares it with the stored snapshot:
// an unchanged schema whose row counts are unchanged and whose profile is
// young reuses the stored profile; otherwise src is profiled and the
// snapshot stored.
func (l Loader) checkProfiled(ctx context.Context, src Source) (*schema.Snapshot, string, Status, error) {
	fresh, err := l.snapshot(ctx, src)
	if err != nil {
		return nil, "", "", err
	}
	stored, meta, err := l.Store.LatestSnapshot(ctx, src.ID())
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		if ctx.Err() != nil { // the engine is closing: no store fault to report
			return nil, "", "", ctx.Err()
		}
		l.Log.Warn("state store unreadable; profiling afresh", "datasource", src.ID(), "err", err)
		meta = nil
	}
	var counts map[string]int64
	if meta != nil {
		counts, err = l.rowCounts(ctx, src, fresh)
		if err != nil {
			counts = nil
		}
		if counts != nil && meta.SchemaHash == store.SchemaFingerprint(fresh) &&
			!stale(stored, meta, counts, l.MaxAge) {
			return stored, meta.Version, Reused, nil
		}
	}
	reused, err := l.profileChanged(ctx, src, fresh, stored, meta, counts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", "", ctx.Err()
		}
		if unreadable(err) {
			return nil, "", "", err
		}
		l.Log.Warn("profiling failed; continuing without samples", "datasource", src.ID(), "err", err)
		return fresh, fresh.Fingerprint(), Unstored, nil
	}
	WithholdSecrets(fresh) // before it is stored
	fresh.ProfileFormat = schema.ProfileFormat
	version, created, err := l.Store.PutSnapshot(ctx, fresh)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", "", ctx.Err()
		}
		l.Log.Warn("cannot store the schema snapshot; continuing", "datasource", src.ID(), "err", err)
		return fresh, fresh.Fingerprint(), Unstored, nil
	}
	status := New
	if !created {
		status = Refreshed
	}
	// A snapshot that kept stored profiles is as old as the oldest of them,
	// so the age rule still re-profiles every table in time.
	profiledAt := time.Now()
	if reused {
		profiledAt = meta.ProfiledAt
	}
	if reused || !created && meta != nil && version == meta.Version {
		if err := l.Store.MarkProfiled(ctx, src.ID(), version, profiledAt); err != nil {
			l.Log.Warn("cannot record the profile time", "datasource", src.ID(), "err", err)
		}
	}
	return fresh, version, status, nil
}

// profileChanged profiles the tables of fresh that the stored snapshot
// cannot answer for, and gives the others their stored profile: a table
// whose schema and row count are unchanged, while the stored profile is
// younger than MaxAge, keeps it (the rule that reuses a whole
// unchanged datasource, applied per table). A schema change that touches a
// few tables of a big catalog profiles those tables only. Views, new
// tables and tables whose count is unknown are profiled. reused says
// whether any stored profile was kept.
func (l Loader) profileChanged(ctx context.Context, src Source, fresh, stored *schema.Snapshot, meta *store.SnapshotMeta, counts map[string]int64) (reused bool, err error) {
	old := map[string]*schema.Table{}
	if stored != nil && counts != nil && !stale(stored, meta, nil, l.MaxAge) {
		for i := range stored.Tables {
			if t := &stored.Tables[i]; t.Kind == schema.KindTable && t.RowCount != nil {
				old[store.TableKey(t.Schema, t.Name)] = t
			}
		}
	}
	var todo []int
	for i := range fresh.Tables {
		t := &fresh.Tables[i]
		key := store.TableKey(t.Schema, t.Name)
		prev, ok := old[key]
		if n, counted := counts[key]; !ok || !counted || n != *prev.RowCount || !store.SameTableSchema(*t, *prev) {
			todo = append(todo, i)
			continue
		}
		t.RowCount = prev.RowCount
		for j := range t.Columns {
			t.Columns[j].Profile = prev.Columns[j].Profile
		}
	}
	if len(todo) == len(fresh.Tables) {
		return false, src.Profile(ctx, fresh)
	}
	sub := fresh.WithTables(make([]schema.Table, len(todo)))
	for k, i := range todo {
		sub.Tables[k] = fresh.Tables[i]
	}
	err = src.Profile(ctx, sub)
	for k, i := range todo {
		fresh.Tables[i] = sub.Tables[k] // the row count; the columns share their array
	}
	return true, err
}

// unreadable reports whether a profiling error says the database itself
// cannot be read (a corrupt page, a file that is not a database): queries
// would fail or miss rows the same way, so the open fails with it and the
// datasource is listed unavailable with its hint, not ready without
// samples. A lock or a server that went away passes (Transient).
func unreadable(err error) bool {
	var se *source.Error
	return errors.As(err, &se) && se.Code == source.CodeUnavailable && !se.Transient
}

// rowCounts counts the rows of every table (not views) through the
// source's read-only query path.
func (l Loader) rowCounts(ctx context.Context, src Source, snap *schema.Snapshot) (map[string]int64, error) {
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

// stale reports whether the stored snapshot must be profiled again rather
// than served (store.NeedsProfile), or because its profile is of an older
// format than profiling now makes: served as it is, it would lack what
// profiling now records (a stored profile without ColumnProfile.CastNulls
// would keep casts of text from being warned about until MaxAge).
func stale(stored *schema.Snapshot, meta *store.SnapshotMeta, counts map[string]int64, maxAge time.Duration) bool {
	return stored == nil || stored.ProfileFormat < schema.ProfileFormat || store.NeedsProfile(meta, counts, maxAge, time.Now())
}

// castExamples reports whether any of counts holds an example value.
func castExamples(counts []schema.CastNulls) bool {
	for _, c := range counts {
		if c.InvalidExample != nil {
			return true
		}
	}
	return false
}
