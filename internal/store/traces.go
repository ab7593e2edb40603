package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// DefaultRecentTraces is how many traces RecentTraces returns for a limit
// ≤ 0; MaxRecentTraces caps a larger limit.
const (
	DefaultRecentTraces = 50
	MaxRecentTraces     = 10000
)

// TraceEntry is one row of the traces index.
type TraceEntry struct {
	ID        string
	CreatedAt time.Time // UTC
	Summary   []byte    // the caller's bytes (typically JSON)
}

// PutTrace indexes one trace: id, when it was created and a summary (the
// caller's bytes; the full trace lives in <storage.path>/traces/). Putting
// an id again replaces its created_at and summary. An empty id is
// CodeInvalid.
func (s *Store) PutTrace(ctx context.Context, id string, createdAt time.Time, summary []byte) error {
	if id == "" {
		return errorf(CodeInvalid, nil, "cannot index a trace without an id")
	}
	if summary == nil {
		summary = []byte{}
	}
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO traces (id, created_at, summary) VALUES (?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, summary = excluded.summary`),
		id, stamp(createdAt), summary)
	if err != nil {
		return s.fail("index a trace", err)
	}
	return nil
}

// Trace returns the summary indexed under id; an unknown id is CodeNotFound
// (errors.Is(err, ErrNotFound)).
func (s *Store) Trace(ctx context.Context, id string) ([]byte, error) {
	var summary []byte
	err := s.db.QueryRowContext(ctx, s.q(`SELECT summary FROM traces WHERE id = ?`), id).Scan(&summary)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, errorf(CodeNotFound, nil, "no trace %q is indexed in %s", id, s.display)
	case err != nil:
		return nil, s.fail("read a trace", err)
	}
	if summary == nil {
		summary = []byte{}
	}
	return summary, nil
}

// RecentTraces returns up to limit traces, newest first (ties by id,
// descending). limit ≤ 0 means DefaultRecentTraces; above MaxRecentTraces it
// is capped.
func (s *Store) RecentTraces(ctx context.Context, limit int) ([]TraceEntry, error) {
	if limit <= 0 {
		limit = DefaultRecentTraces
	}
	limit = min(limit, MaxRecentTraces)
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT id, created_at, summary FROM traces
		ORDER BY created_at DESC, id DESC LIMIT ?`), limit)
	if err != nil {
		return nil, s.fail("list traces", err)
	}
	defer rows.Close()
	var out []TraceEntry
	for rows.Next() {
		var e TraceEntry
		var created sql.NullInt64
		if err := rows.Scan(&e.ID, &created, &e.Summary); err != nil {
			return nil, s.fail("list traces", err)
		}
		e.CreatedAt = unstamp(created)
		if e.Summary == nil {
			e.Summary = []byte{}
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list traces", err)
	}
	return out, nil
}

// PutTraces indexes several traces in one transaction (one commit for a
// batch instead of one per trace), with PutTrace's rules for each.
func (s *Store) PutTraces(ctx context.Context, traces []TraceEntry) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.fail("index traces", err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, s.q(`INSERT INTO traces (id, created_at, summary) VALUES (?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, summary = excluded.summary`))
	if err != nil {
		return s.fail("index traces", err)
	}
	defer stmt.Close()
	for _, t := range traces {
		if t.ID == "" {
			return errorf(CodeInvalid, nil, "cannot index a trace without an id")
		}
		if t.Summary == nil {
			t.Summary = []byte{}
		}
		if _, err := stmt.ExecContext(ctx, t.ID, stamp(t.CreatedAt), t.Summary); err != nil {
			return s.fail("index traces", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return s.fail("index traces", err)
	}
	return nil
}

// PruneTraces deletes the index rows of traces created before cutoff and
// returns how many went.
func (s *Store) PruneTraces(ctx context.Context, cutoff time.Time) (int, error) {
	res, err := s.db.ExecContext(ctx, s.q(`DELETE FROM traces WHERE created_at < ?`), stamp(cutoff))
	if err != nil {
		return 0, s.fail("prune traces", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
