package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Approval states.
const (
	ApprovalPending  = "pending"
	ApprovalApproved = "approved"
	ApprovalRejected = "rejected"
	ApprovalUsed     = "used" // an approved run was executed (approvals are single-use)
)

// Approval is one run waiting for (or past) an approver's decision. Body
// is the engine's JSON of the stopped request (caller, datasource,
// question, plan); the store does not read it.
type Approval struct {
	ID        string
	State     string
	Body      []byte
	CreatedAt time.Time
	DecidedBy string
	DecidedAt time.Time // zero while pending
}

// PutApproval stores a new pending approval.
func (s *Store) PutApproval(ctx context.Context, id string, body []byte) error {
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO approvals (id, state, body, created_at) VALUES (?, ?, ?, ?)`),
		id, ApprovalPending, body, stamp(s.now()))
	if err != nil {
		return s.fail("write an approval", err)
	}
	return nil
}

// GetApproval returns the approval id, or ErrNotFound.
func (s *Store) GetApproval(ctx context.Context, id string) (*Approval, error) {
	a := &Approval{ID: id}
	var created int64
	var by sql.NullString
	var at sql.NullInt64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT state, body, created_at, decided_by, decided_at FROM approvals WHERE id = ?`), id).
		Scan(&a.State, &a.Body, &created, &by, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errorf(CodeNotFound, nil, "no approval %q", id)
	}
	if err != nil {
		return nil, s.fail("read an approval", err)
	}
	a.CreatedAt, a.DecidedBy, a.DecidedAt = time.Unix(0, created).UTC(), by.String, unstamp(at)
	return a, nil
}

// MoveApproval changes approval id from state from to state to, recording
// who did it; ok is false when the approval is not in state from (someone
// else decided first, or it does not exist).
func (s *Store) MoveApproval(ctx context.Context, id, from, to, by string) (ok bool, err error) {
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE approvals SET state = ?, decided_by = COALESCE(decided_by, ?), decided_at = COALESCE(decided_at, ?)
		WHERE id = ? AND state = ?`), to, by, stamp(s.now()), id, from)
	if err != nil {
		return false, s.fail("update an approval", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, s.fail("update an approval", err)
	}
	return n == 1, nil
}

// ListApprovals returns the approvals in state (all when ""), oldest first,
// at most limit (0 means 100).
func (s *Store) ListApprovals(ctx context.Context, state string, limit int) ([]Approval, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT id, state, body, created_at, decided_by, decided_at FROM approvals
		WHERE ? = '' OR state = ? ORDER BY created_at, id LIMIT ?`), state, state, limit)
	if err != nil {
		return nil, s.fail("list approvals", err)
	}
	defer rows.Close()
	var out []Approval
	for rows.Next() {
		var a Approval
		var created int64
		var by sql.NullString
		var at sql.NullInt64
		if err := rows.Scan(&a.ID, &a.State, &a.Body, &created, &by, &at); err != nil {
			return nil, s.fail("list approvals", err)
		}
		a.CreatedAt, a.DecidedBy, a.DecidedAt = time.Unix(0, created).UTC(), by.String, unstamp(at)
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list approvals", err)
	}
	return out, nil
}
