package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
)

// SourceState returns the state token last recorded for the datasource
// and the snapshot version it confirmed (PutSourceState). A datasource
// with none is CodeNotFound (errors.Is(err, ErrNotFound)).
//
// A state token is what a source says cheaply about itself (for a database
// file: its identity, size, change counter and schema cookie) without
// reading its catalog or counting rows: when the token read now equals the
// recorded one, nothing in the source changed since that version was
// confirmed, so the engine serves the stored snapshot without introspecting
// or counting again.
func (s *Store) SourceState(ctx context.Context, datasource string) (token, version string, err error) {
	err = s.db.QueryRowContext(ctx, s.q(`SELECT token, version FROM source_states WHERE datasource = ?`), datasource).
		Scan(&token, &version)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", errorf(CodeNotFound, nil, "no source state of datasource %q is stored in %s", datasource, s.display)
	}
	if err != nil {
		return "", "", s.fail("read the source state of "+strconv.Quote(datasource), err)
	}
	return token, version, nil
}

// PutSourceState records that the source, while its state token was
// token, had the stored snapshot version (replacing what was recorded). An
// empty token clears the record: the source cannot say, so the next open
// checks in full.
func (s *Store) PutSourceState(ctx context.Context, datasource, token, version string) error {
	if token == "" {
		if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM source_states WHERE datasource = ?`), datasource); err != nil {
			return s.fail("clear the source state of "+strconv.Quote(datasource), err)
		}
		return nil
	}
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO source_states (datasource, token, version, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (datasource) DO UPDATE SET token = excluded.token, version = excluded.version, updated_at = excluded.updated_at`),
		datasource, token, version, stamp(s.now()))
	if err != nil {
		return s.fail("record the source state of "+strconv.Quote(datasource), err)
	}
	return nil
}
