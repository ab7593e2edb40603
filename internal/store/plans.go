package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// PlanKey identifies one cached plan. Matching is exact on every field.
type PlanKey struct {
	// Intent is the sub-query's intent, already normalised by the caller
	// (the store does not fold case or trim).
	Intent     string `json:"intent"`
	Datasource string `json:"datasource"`
	// SchemaVersion is the snapshot version the plan was made against. An
	// empty SchemaVersion means "do not cache": GetPlan misses and PutPlan
	// does nothing.
	SchemaVersion string `json:"schema_version"`
	// Today is the run date (YYYY-MM-DD) the planner was told.
	Today string `json:"today"`
	// Extra is anything else that changes the plan (the planner's provider
	// and model, …), in a form the caller keeps stable.
	Extra string `json:"extra"`
}

// Hash is the key's stored form: the hex sha256 of its canonical JSON
// (encoding/json of PlanKey, fields in declaration order).
func (k PlanKey) Hash() string {
	b, _ := json.Marshal(k) // strings only: always marshals
	return hashHex(b)
}

// GetPlan returns the plan cached under key and counts the hit (hits + 1,
// last_hit_at = now) in the same statement. ok is false on a miss and for a
// key without SchemaVersion. The bytes are the caller's, as PutPlan got
// them.
func (s *Store) GetPlan(ctx context.Context, key PlanKey) (plan []byte, ok bool, err error) {
	if key.SchemaVersion == "" {
		return nil, false, nil
	}
	err = s.db.QueryRowContext(ctx, s.q(`UPDATE plan_cache SET hits = hits + 1, last_hit_at = ?
		WHERE key = ? RETURNING plan`), stamp(s.now()), key.Hash()).Scan(&plan)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, false, nil
	case err != nil:
		return nil, false, s.fail("read the plan cache", err)
	}
	return plan, true, nil
}

// PutPlan caches plan under key with created_at = now and no hits. A key
// already cached with different bytes is replaced (its hits reset); with
// the same bytes it is left alone. A key without SchemaVersion is a no-op.
// An empty plan is CodeInvalid.
func (s *Store) PutPlan(ctx context.Context, key PlanKey, plan []byte) error {
	if key.SchemaVersion == "" {
		return nil
	}
	if len(plan) == 0 {
		return errorf(CodeInvalid, nil, "cannot cache an empty plan")
	}
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO plan_cache (key, datasource, schema_version, plan, created_at)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET plan = excluded.plan, created_at = excluded.created_at, hits = 0, last_hit_at = NULL
		WHERE plan_cache.plan <> excluded.plan`),
		key.Hash(), key.Datasource, key.SchemaVersion, plan, stamp(s.now()))
	if err != nil {
		return s.fail("write the plan cache", err)
	}
	return nil
}

// ClearPlans deletes the plans cached for datasource, or every plan when
// datasource is "", and returns how many it deleted.
func (s *Store) ClearPlans(ctx context.Context, datasource string) (n int, err error) {
	var res sql.Result
	if datasource == "" {
		res, err = s.db.ExecContext(ctx, s.q(`DELETE FROM plan_cache`))
	} else {
		res, err = s.db.ExecContext(ctx, s.q(`DELETE FROM plan_cache WHERE datasource = ?`), datasource)
	}
	if err != nil {
		return 0, s.fail("clear the plan cache", err)
	}
	deleted, err := res.RowsAffected()
	if err != nil {
		return 0, s.fail("clear the plan cache", err)
	}
	return int(deleted), nil
}

// PlanStats is the cache's bookkeeping for one key.
type PlanStats struct {
	Datasource    string
	SchemaVersion string
	Hits          int64
	CreatedAt     time.Time // UTC
	LastHitAt     time.Time // UTC; zero before the first hit
}

// PlanStats returns the bookkeeping of the plan cached under key without
// counting a hit. ok is false when nothing is cached there.
func (s *Store) PlanStats(ctx context.Context, key PlanKey) (stats PlanStats, ok bool, err error) {
	var created, lastHit sql.NullInt64
	err = s.db.QueryRowContext(ctx, s.q(`SELECT datasource, schema_version, hits, created_at, last_hit_at
		FROM plan_cache WHERE key = ?`), key.Hash()).
		Scan(&stats.Datasource, &stats.SchemaVersion, &stats.Hits, &created, &lastHit)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return PlanStats{}, false, nil
	case err != nil:
		return PlanStats{}, false, s.fail("read the plan cache", err)
	}
	stats.CreatedAt, stats.LastHitAt = unstamp(created), unstamp(lastHit)
	return stats, true, nil
}
