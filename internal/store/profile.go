package store

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// SchemaFingerprint hashes snap without its profile: the Fingerprint of a
// copy with every Table.RowCount and Column.Profile and its ProfileFormat
// removed (snap is not changed). Two snapshots of one schema whose data differ have the same
// SchemaFingerprint and different Fingerprints. A nil snap is "".
func SchemaFingerprint(snap *schema.Snapshot) string {
	if snap == nil {
		return ""
	}
	c := *snap
	c.ProfileFormat = 0 // of the profile, as the row counts
	c.Tables = make([]schema.Table, len(snap.Tables))
	for i, t := range snap.Tables {
		c.Tables[i] = withoutProfile(t)
	}
	return c.Fingerprint()
}

// withoutProfile is t without its row count and column profiles (t's
// columns are not changed).
func withoutProfile(t schema.Table) schema.Table {
	t.RowCount = nil
	cols := make([]schema.Column, len(t.Columns))
	for j, col := range t.Columns {
		col.Profile = nil
		cols[j] = col
	}
	t.Columns = cols
	return t
}

// SameTableSchema reports whether a and b are the same table apart from
// their profiles (row count, column profiles): what SchemaFingerprint
// compares, for one table.
func SameTableSchema(a, b schema.Table) bool {
	x, errX := json.Marshal(withoutProfile(a))
	y, errY := json.Marshal(withoutProfile(b))
	return errX == nil && errY == nil && bytes.Equal(x, y)
}

// TableKey is the key of one table in a row-count map: schema + "." +
// name, e.g. "main.Album".
func TableKey(schemaName, table string) string { return schemaName + "." + table }

// RowCounts returns the profiled row count of each table of snap that has
// one, keyed by TableKey. Tables without a count (views, unprofiled tables)
// are absent. The map is empty, not nil, for a snapshot without counts.
func RowCounts(snap *schema.Snapshot) map[string]int64 {
	m := map[string]int64{}
	if snap == nil {
		return m
	}
	for _, t := range snap.Tables {
		if t.RowCount != nil {
			m[TableKey(t.Schema, t.Name)] = *t.RowCount
		}
	}
	return m
}

// RowCountsHash is the hex sha256 of the JSON of counts (encoding/json sorts
// the keys, so equal maps hash alike). A nil map hashes as an empty one.
func RowCountsHash(counts map[string]int64) string {
	if counts == nil {
		counts = map[string]int64{}
	}
	b, _ := json.Marshal(counts) // a map[string]int64 always marshals
	return hashHex(b)
}

// NeedsProfile reports whether the datasource should be profiled again
// rather than served from the stored snapshot described by meta:
//
//   - meta is nil (nothing stored) or meta.ProfiledAt is zero (stored
//     without a profile);
//   - maxAge > 0 and the profile is older than maxAge at now (a ProfiledAt
//     after now counts as fresh); maxAge ≤ 0 disables the age check;
//   - rowCounts is not nil and differs from the stored counts (its
//     RowCountsHash is not meta.RowCountsHash): rows were added or removed
//     although the schema may be the same. rowCounts is keyed by TableKey
//     and should hold the tables RowCounts would (counting views, or
//     leaving a table out, reads as a change). A nil rowCounts skips this
//     check.
//
// It does not compare schemas: the engine compares SchemaFingerprint of a
// fresh introspection with meta.SchemaHash for that.
func NeedsProfile(meta *SnapshotMeta, rowCounts map[string]int64, maxAge time.Duration, now time.Time) bool {
	switch {
	case meta == nil || meta.ProfiledAt.IsZero():
		return true
	case maxAge > 0 && now.Sub(meta.ProfiledAt) > maxAge:
		return true
	case rowCounts != nil && RowCountsHash(rowCounts) != meta.RowCountsHash:
		return true
	}
	return false
}
