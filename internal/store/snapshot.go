package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"

	"errors"
	gojson "github.com/goccy/go-json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// SnapshotMeta describes one stored snapshot.
type SnapshotMeta struct {
	Datasource string
	// Version is the snapshot's Fingerprint: 64 lower-case hex digits.
	Version string
	// SchemaHash is SchemaFingerprint of the snapshot: equal for two
	// snapshots that differ only in their profile.
	SchemaHash string
	// RowCountsHash is RowCountsHash(RowCounts(snapshot)), what NeedsProfile
	// compares fresh row counts against.
	RowCountsHash string
	// CreatedAt is when this version was first stored (UTC).
	CreatedAt time.Time
	// ProfiledAt is when this content was last confirmed by a profile
	// (UTC): set when a profiled snapshot is stored or becomes the head
	// again, and by MarkProfiled. Zero when the snapshot carries no
	// profile.
	ProfiledAt time.Time
}

// PutSnapshot stores snap as the latest snapshot of snap.Datasource and
// returns its version (snap.Fingerprint()).
//
// Snapshots are immutable and keyed by content. When the datasource's latest
// snapshot already has this version, nothing is written and created is
// false; that check takes no lock. Otherwise, in one BEGIN IMMEDIATE
// transaction, the snapshot row is inserted unless it exists (created
// reports whether it was), and the datasource's head moves to it; a
// profiled snapshot that existed already (a schema that changed and changed
// back) gets ProfiledAt = now. Two processes putting the same snapshot at
// once store one row, and exactly one of them sees created = true.
//
// Errors: CodeInvalid for a nil snapshot or an empty Datasource, else what
// the database reports (CodeReadOnly, CodeFull, CodeBusy, …).
func (s *Store) PutSnapshot(ctx context.Context, snap *schema.Snapshot) (version string, created bool, err error) {
	if snap == nil || snap.Datasource == "" {
		return "", false, errorf(CodeInvalid, nil, "cannot store a snapshot without a datasource")
	}
	body := canonicalJSON(snap)
	version = hashHex(body)
	ds := snap.Datasource
	var head string
	switch err := s.db.QueryRowContext(ctx, s.q(`SELECT version FROM snapshot_heads WHERE datasource = ?`), ds).Scan(&head); {
	case err == nil && head == version:
		return version, false, nil
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return "", false, s.fail("read the latest snapshot of "+strconv.Quote(ds), err)
	}
	schemaHash, rowHash := SchemaFingerprint(snap), RowCountsHash(RowCounts(snap))
	now := stamp(s.now())
	var profiledAt sql.NullInt64
	if profiled(snap) {
		profiledAt = sql.NullInt64{Int64: now, Valid: true}
	}
	err = s.tx(ctx, "store a snapshot of "+strconv.Quote(ds), func(tx *sql.Tx) error {
		created = false
		if err := s.fl.lock(ctx, tx, "snapshot:"+ds); err != nil {
			return err
		}
		err := tx.QueryRowContext(ctx, s.q(`SELECT version FROM snapshot_heads WHERE datasource = ?`), ds).Scan(&head)
		switch {
		case err == nil && head == version:
			return nil // another writer got here first
		case err != nil && !errors.Is(err, sql.ErrNoRows):
			return err
		}
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO snapshots
			(datasource, version, schema_hash, row_counts_hash, created_at, profiled_at, body)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (datasource, version) DO NOTHING`),
			ds, version, schemaHash, rowHash, now, profiledAt, body)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		created = n == 1
		if !created && profiledAt.Valid {
			if _, err := tx.ExecContext(ctx, s.q(`UPDATE snapshots SET profiled_at = ? WHERE datasource = ? AND version = ?`),
				now, ds, version); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, s.q(`INSERT INTO snapshot_heads (datasource, version, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (datasource) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at`),
			ds, version, now)
		return err
	})
	if err != nil {
		return "", false, err
	}
	return version, created, nil
}

// LatestSnapshot returns the datasource's latest snapshot (the one last put
// with a new version, not the newest by time) and its meta. A datasource
// with none is CodeNotFound (errors.Is(err, ErrNotFound)); a stored body
// that no longer hashes to its version is CodeCorrupt.
func (s *Store) LatestSnapshot(ctx context.Context, datasource string) (*schema.Snapshot, *SnapshotMeta, error) {
	return s.scanSnapshot(ctx, `SELECT `+snapshotColumns+` FROM snapshot_heads h
		JOIN snapshots s ON s.datasource = h.datasource AND s.version = h.version
		WHERE h.datasource = ?`, []any{datasource}, "read the latest snapshot of "+strconv.Quote(datasource),
		"no snapshot of datasource %q is stored in %s", datasource)
}

// Snapshot returns one stored version of the datasource's snapshot and its
// meta. Errors as LatestSnapshot.
func (s *Store) Snapshot(ctx context.Context, datasource, version string) (*schema.Snapshot, *SnapshotMeta, error) {
	return s.scanSnapshot(ctx, `SELECT `+snapshotColumns+` FROM snapshots s
		WHERE s.datasource = ? AND s.version = ?`, []any{datasource, version}, "read snapshot "+version+" of "+strconv.Quote(datasource),
		"no snapshot %s of datasource %q is stored in %s", version, datasource)
}

// MarkProfiled records that a profile taken at `at` confirmed the stored
// snapshot: the engine calls it when a re-profile (NeedsProfile said the
// profile was old) produced the same version, which PutSnapshot does not
// write. A version not stored is CodeNotFound.
func (s *Store) MarkProfiled(ctx context.Context, datasource, version string, at time.Time) error {
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE snapshots SET profiled_at = ? WHERE datasource = ? AND version = ?`),
		stamp(at), datasource, version)
	if err != nil {
		return s.fail("mark a snapshot profiled", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return s.fail("mark a snapshot profiled", err)
	} else if n == 0 {
		return errorf(CodeNotFound, nil, "no snapshot %s of datasource %q is stored in %s", version, datasource, s.display)
	}
	return nil
}

const snapshotColumns = `s.datasource, s.version, s.schema_hash, s.row_counts_hash, s.created_at, s.profiled_at, s.body`

// scanSnapshot runs query (with qargs) and reads its one row of
// snapshotColumns. notFound (with args, then the store's path) is the
// message for no row. The body is read in place (sql.RawBytes) and
// decoded before the row closes: a large catalog's body is megabytes, and
// each copy of it is time a restart waits.
func (s *Store) scanSnapshot(ctx context.Context, query string, qargs []any, op, notFound string, args ...any) (*schema.Snapshot, *SnapshotMeta, error) {
	rows, err := s.db.QueryContext(ctx, s.q(query), qargs...)
	if err != nil {
		return nil, nil, s.fail(op, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, nil, s.fail(op, err)
		}
		return nil, nil, errorf(CodeNotFound, nil, notFound, append(args, s.display)...)
	}
	var m SnapshotMeta
	var created, profiledAt sql.NullInt64
	var body sql.RawBytes
	if err := rows.Scan(&m.Datasource, &m.Version, &m.SchemaHash, &m.RowCountsHash, &created, &profiledAt, &body); err != nil {
		return nil, nil, s.fail(op, err)
	}
	if got := hashHex(body); got != m.Version {
		return nil, nil, errorf(CodeCorrupt, nil, "%s: snapshot %s of %q hashes to %s", s.display, m.Version, m.Datasource, got)
	}
	snap, err := decodeSnapshot(body)
	if err != nil {
		return nil, nil, errorf(CodeCorrupt, err, "%s: snapshot %s of %q does not decode", s.display, m.Version, m.Datasource)
	}
	m.CreatedAt, m.ProfiledAt = unstamp(created), unstamp(profiledAt)
	return snap, &m, nil
}

// canonicalJSON is the JSON schema.Snapshot.Fingerprint hashes: encoding/json
// of a copy whose tables are sorted. (A test holds hashHex of it equal to
// Fingerprint.) A snapshot that cannot marshal (a NaN in a profile) hashes
// its error text, as Fingerprint does; such a body does not decode back.
func canonicalJSON(snap *schema.Snapshot) []byte {
	c := *snap
	c.Tables = slices.Clone(snap.Tables)
	c.SortTables()
	b, err := json.Marshal(&c)
	if err != nil {
		b = []byte("unmarshalable snapshot: " + err.Error())
	}
	return b
}

func hashHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// decodeSnapshot reads canonicalJSON back. Profile values (Min, Max,
// SampleValues) come back in the result encoding: an integer literal as
// int64, any other number as float64, so marshalling the result gives the
// stored bytes again. goccy/go-json decodes it, about twice as fast as
// encoding/json on a large catalog's body (a restart reads it before the
// first call is answered); TestSnapshotDeterminism holds the round trip.
func decodeSnapshot(body []byte) (*schema.Snapshot, error) {
	dec := gojson.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var snap schema.Snapshot
	if err := dec.Decode(&snap); err != nil {
		return nil, err
	}
	for i := range snap.Tables {
		for j := range snap.Tables[i].Columns {
			p := snap.Tables[i].Columns[j].Profile
			if p == nil {
				continue
			}
			p.Min, p.Max = number(p.Min), number(p.Max)
			for k, v := range p.SampleValues {
				p.SampleValues[k] = number(v)
			}
		}
	}
	return &snap, nil
}

// number turns a json.Number into int64 (an integer literal) or float64,
// except a decimal written at its scale with trailing zeros (349.00), which
// stays the json.Number the result encoding made it; other values pass
// through. "-0" stays float64 so it marshals as "-0".
func number(v any) any {
	n, ok := v.(json.Number)
	if !ok {
		return v
	}
	s := n.String()
	if !strings.ContainsAny(s, ".eE") && s != "-0" {
		if i, err := n.Int64(); err == nil {
			return i
		}
		return n // beyond int64: keep the literal
	}
	if _, frac, _ := strings.Cut(s, "."); strings.HasSuffix(frac, "0") && !strings.ContainsAny(s, "eE") {
		return n // a decimal at its scale (349.00), as the result encoding wrote it
	}
	if f, err := n.Float64(); err == nil {
		return f
	}
	return n
}

// profiled reports whether any table of snap carries a row count or any
// column a profile.
func profiled(snap *schema.Snapshot) bool {
	for _, t := range snap.Tables {
		if t.RowCount != nil {
			return true
		}
		for _, c := range t.Columns {
			if c.Profile != nil {
				return true
			}
		}
	}
	return false
}
