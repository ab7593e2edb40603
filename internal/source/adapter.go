package source

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Defaults for Options.
const (
	DefaultRowLimit = 1000
	DefaultTimeout  = 30 * time.Second
)

// MaxValueBytes caps any one string or blob a query may build or read
// (SQLITE_LIMIT_LENGTH), so printf('%.*c', 1e9, 'x') cannot take a gigabyte.
const MaxValueBytes = 16 << 20

// Source is the contract every adapter meets (internal/source/sqlite,
// /duckdb, /postgres), stated once here so that the engine and the one
// switch that opens an adapter by name (internal/source/adapters) agree
// on it without either importing the other.
type Source interface {
	ID() string
	Dialect() string
	Snapshot(ctx context.Context) (*schema.Snapshot, error)
	Profile(ctx context.Context, snap *schema.Snapshot) error
	Query(ctx context.Context, sql string, args []any, maxRows int) (*Result, error)
	Close() error
}

// Options configure an adapter.
type Options struct {
	// RowLimit caps the rows one Query returns; ≤ 0 means DefaultRowLimit.
	RowLimit int
	// Timeout bounds each statement (a Query, each Snapshot and Profile
	// statement); ≤ 0 means DefaultTimeout.
	Timeout time.Duration
	// AllowWritableRole lets OpenPostgres go on, with a logged warning, when
	// its role can write; read-only transactions are then the only guard.
	// The other adapters ignore it. A datasource's allow_writable_role
	// (internal/config) and --allow-writable-role with --db set it.
	AllowWritableRole bool
}

func (o Options) WithDefaults() Options {
	if o.RowLimit <= 0 {
		o.RowLimit = DefaultRowLimit
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return o
}

// SQLite is the adapter for one SQLite database file, opened read-only. It
// is safe for concurrent use.

// RawResult is a result as the driver returned it, before encoding.
type RawResult struct {
	Names     []string
	Decls     []string // declared types, "" for expressions
	Rows      [][]any
	Truncated bool
}

// FirstValueType is the type of column i's first non-NULL value.
func FirstValueType(rows [][]any, i int) planast.Type {
	for _, r := range rows {
		if r[i] != nil {
			return valueType(r[i])
		}
	}
	return planast.TypeUnknown
}

// Sample sizes of a profile.
const (
	AllValuesMax = 50 // a text column with at most this many distinct values lists them all
	TopValues    = 5  // otherwise its most frequent values
)

// ProfileSampleRows is the most rows a table's distinct counts and samples
// are read from: past it, from its first ProfileSampleRows rows
// (ColumnProfile.SampledRows), so profiling a huge table stays fast and its
// memory flat; counts, NULL shares and ranges still scan every row. A
// variable for tests only.
var ProfileSampleRows int64 = 500_000

// QuoteIdent quotes an SQLite identifier: "name" with embedded quotes
// doubled.
func QuoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// MaxIntrospectionRows bounds each introspection result (tables, columns of
// one table, foreign keys of one table).
const MaxIntrospectionRows = 100_000

// CappedAlias names the subquery prepareCapped wraps a statement in.
const CappedAlias = `"nl2sql_capped"`

// FirstLine is s up to its first line break (DuckDB appends a caret
// diagram of the query text).
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

// AsString is v as a string, "" when it is not one.
func AsString(v any) string {
	s, _ := v.(string)
	return s
}

// AsStrings is a list of strings as drivers return it ([]any of string), or
// as the DuckDB adapter reads a list: its JSON text (see queryDuckDBConn).
func AsStrings(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		if json.Unmarshal([]byte(x), &out) != nil {
			return nil
		}
	case []any:
		for _, e := range x {
			out = append(out, AsString(e))
		}
	case []string:
		out = append(out, x...)
	}
	return out
}

// StateTokenFormat changes whenever what a token covers changes, or what
// introspection reads into a snapshot (column comments from the DDL, say),
// so a token recorded by another version never matches and the first
// start after an upgrade introspects in full. 3: the notes of
// documentation tables (internal/source/dictionary).
const StateTokenFormat = 3

// HashFile writes path's size and modification time, and its bytes
// [from, to), into h. A missing file is fs.ErrNotExist (h then holds a
// mark for it).
func HashFile(h hash.Hash, path string, from, to int64) error {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(h, "%s: none\n", path)
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "%s: %d bytes, modified %d\n", path, fi.Size(), fi.ModTime().UnixNano())
	if to <= from {
		return nil
	}
	buf := make([]byte, to-from)
	n, err := f.ReadAt(buf, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	h.Write(buf[:n])
	return nil
}

// QueryConns is how many queries one SQLite datasource runs at once.
const QueryConns = 4

// OpenCheckTimeout bounds the check at open when Options.Timeout is
// shorter: a tight per-query limit should not make opening fail.
const OpenCheckTimeout = 10 * time.Second

// SampledProfile starts a column's profile from its distinct count (over
// the sample when sampled > 0, holding inSample non-NULL values) and its
// non-NULL count over all rows. A column unique within the sample counts
// as unique throughout, so a key column still reads as one.
func SampledProfile(distinct, inSample, nonNull, rows, sampled int64) *schema.ColumnProfile {
	if sampled > 0 && distinct == inSample && inSample > 0 {
		distinct = nonNull
	}
	p := &schema.ColumnProfile{DistinctCount: distinct, SampledRows: sampled}
	if rows > 0 {
		p.NullFraction = float64(rows-nonNull) / float64(rows)
	}
	return p
}
