// Package store is the engine's state store: by default one SQLite database,
// <storage.path>/state.db, opened read-write through modernc.org/sqlite, or a
// PostgreSQL database shared by replicas (see Two backends); separate from
// the datasources, which internal/source opens read-only. It holds
//
//   - schema snapshots, immutable and keyed by content (version =
//     schema.Snapshot.Fingerprint), with a head per datasource;
//   - the plan cache (PlanKey → the planner's plan bytes, with hit counts);
//   - the traces index (id, created_at, the trace's line), filled only in a
//     store replicas share (Shared: PostgreSQL), where a replica finds a
//     trace another served; each server's own copy lives in
//     <storage.path>/traces/;
//   - runs stopped for approval (pending, approved, rejected, used);
//   - per datasource, the source's state token when a snapshot version was
//     last confirmed (SourceState), so an unchanged file is not checked
//     again.
//
// # Two backends
//
// Open keeps the store in SQLite (the default); OpenPostgres keeps the same
// tables in PostgreSQL through pgx (storage.postgres), for replicas that
// share one plan cache and one set of snapshots. Both run the same queries
// (written with ? and rebound to $n), have the same schema history (same
// versions and names, each backend's own column types) and the same
// behaviour; the package's behaviour tests run against both
// (forEachBackend). On PostgreSQL a datasource's snapshot writes and the
// migrations take transaction-scoped advisory locks, so replicas indexing
// one datasource at once store one row and migrate once:
//
//	st, err := store.OpenPostgres(ctx, "postgres://nl2sql:pw@127.0.0.1:5432/nl2sql?search_path=nl2sql")
//	if err != nil {
//		return err // *store.Error: STORE_UNAVAILABLE (unreachable), STORE_INVALID (bad DSN), STORE_TOO_NEW
//	}
//	defer st.Close()
//	err = st.Ping(ctx) // readiness: nil while the shared store answers
//
// # Durability and concurrency
//
// Every connection runs in WAL mode with synchronous=NORMAL, foreign keys
// on and a busy timeout (DefaultBusyTimeout, WithBusyTimeout); every
// transaction is BEGIN IMMEDIATE, so a writer takes the lock up front and
// waits for it rather than failing on upgrade. Writes of more than one row
// are one transaction. Processes may share a directory: two putting the
// same snapshot at once store one row (INSERT … ON CONFLICT DO NOTHING
// under the lock), and a process killed mid-transaction leaves the store as
// of its last commit. The tests run both across real processes.
//
// # Schema migrations
//
// The store's own schema is an ordered Go slice of migrations, recorded in
// schema_migrations (version, name, applied_at). Open applies those not yet
// applied, each in its own transaction; a store written by a newer build
// (a version above SchemaVersion) is refused with CodeTooNew and left as it
// is.
//
// # Errors
//
// Every error is an *Error with a Code: STORE_UNAVAILABLE, STORE_READ_ONLY,
// STORE_FULL, STORE_BUSY, STORE_CORRUPT, STORE_TOO_NEW, STORE_NOT_FOUND,
// STORE_INVALID or STORE_CANCELLED. Msg names the store file by the path the
// caller wrote (WithDisplayPath), and Err is the cause (errors.Is(err,
// fs.ErrPermission), errors.Is(err, context.Canceled) work through it).
// errors.Is(err, ErrNotFound) tests for a missing snapshot or trace.
//
// # Snapshots and profile freshness
//
// A snapshot's version covers its profile, so re-profiling changed data
// makes a new version even when the schema is the same; SchemaFingerprint
// hashes the schema alone. The engine's refresh, worked through:
//
//	st, err := store.Open(ctx, cfg.Storage.Path, store.WithDisplayPath(cfg.Storage.PathAsWritten))
//	if err != nil {
//		return err // *store.Error: STORE_READ_ONLY, STORE_TOO_NEW, …
//	}
//	defer st.Close()
//
//	fresh, _ := src.Snapshot(ctx)           // schema only: cheap
//	counts := countRows(ctx, src, fresh)    // map[store.TableKey(schema, table)]rows
//	stored, meta, err := st.LatestSnapshot(ctx, src.ID())
//	switch {
//	case errors.Is(err, store.ErrNotFound):
//		// first run: profile below
//	case err != nil:
//		return err
//	case meta.SchemaHash == store.SchemaFingerprint(fresh) &&
//		!store.NeedsProfile(meta, counts, 24*time.Hour, time.Now()):
//		return use(stored, meta.Version) // same schema, same row counts, profile young
//	}
//	if err := src.Profile(ctx, fresh); err != nil {
//		return err
//	}
//	version, created, err := st.PutSnapshot(ctx, fresh)
//	if err == nil && !created && meta != nil && version == meta.Version {
//		// the data had not changed: PutSnapshot wrote nothing, so record
//		// that the profile was confirmed now
//		err = st.MarkProfiled(ctx, src.ID(), version, time.Now())
//	}
//	st.PutSourceState(ctx, src.ID(), token, version)
//
// Before all of this the engine reads the source's state token (a hash of
// a database file's size, time and header, read before introspecting) and
// compares it with SourceState: when it equals the recorded token and the
// head is still the version recorded with it, nothing was written since,
// so the stored snapshot is used without introspecting or counting.
//
// # The plan cache
//
// A plan is cached per (normalised intent, datasource, schema version, run
// date, extra) and looked up exactly; a new schema version or a new day
// misses. A key without SchemaVersion is never cached:
//
//	key := store.PlanKey{Intent: norm(q), Datasource: "chinook", SchemaVersion: version, Today: "2026-03-01", Extra: "openai/gpt-5"}
//	if plan, ok, err := st.GetPlan(ctx, key); err == nil && ok {
//		// validate plan again, then run it
//	}
//	…
//	err = st.PutPlan(ctx, key, planJSON) // only after it validated and ran
//	n, err := st.ClearPlans(ctx, "")     // nl2sql cache clear
package store
