package eval

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/nl2sql/nl2sql/internal/source/duckdb"
	"github.com/nl2sql/nl2sql/internal/source/postgres"
	"github.com/nl2sql/nl2sql/internal/source/sqlitecopy"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// copyOpener copies each SQLite database into DuckDB (a file in a temporary
// directory) or PostgreSQL (a schema of its own in the PGDSN database,
// dropped afterwards) before its questions run there. The returned cleanup
// removes what is left once the run ends.
func copyOpener(opts Options, srcOpts source.Options) (opener, func(), error) {
	switch opts.Engine {
	case EngineDuckDB:
		dir, err := os.MkdirTemp("", "nl2sql-eval-duckdb-")
		if err != nil {
			return nil, nil, fmt.Errorf("eval: %w", err)
		}
		open := func(ctx context.Context, dbID, path string) (target, func() error, error) {
			dp := filepath.Join(dir, safeName(dbID)+".duckdb")
			if err := sqlitecopy.CopySQLiteToDuckDB(ctx, path, dp); err != nil {
				return nil, nil, err
			}
			d, err := duckdb.OpenDuckDB(ctx, dbID, dp, srcOpts)
			if err != nil {
				os.Remove(dp)
				return nil, nil, err
			}
			return d, func() error { err := d.Close(); os.Remove(dp); return err }, nil
		}
		return open, func() { os.RemoveAll(dir) }, nil
	case EnginePostgres:
		if opts.PGDSN == "" {
			return nil, nil, fmt.Errorf("eval: --engine postgres needs a PostgreSQL connection string: give --pg-dsn")
		}
		var b [4]byte
		_, _ = rand.Read(b[:])
		run := hex.EncodeToString(b[:])
		srcOpts.AllowWritableRole = true // the role must create the copies
		open := func(ctx context.Context, dbID, path string) (target, func() error, error) {
			schema := "nl2sql_eval_" + safeName(strings.ToLower(dbID)) + "_" + run
			drop := func() error {
				conn, err := pgx.Connect(context.WithoutCancel(ctx), opts.PGDSN)
				if err != nil {
					return err
				}
				defer conn.Close(context.WithoutCancel(ctx))
				_, err = conn.Exec(context.WithoutCancel(ctx), "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
				return err
			}
			if err := sqlitecopy.CopySQLiteToPostgres(ctx, path, opts.PGDSN, schema); err != nil {
				drop()
				return nil, nil, err
			}
			dsn, err := withSearchPath(opts.PGDSN, schema)
			if err != nil {
				drop()
				return nil, nil, err
			}
			p, err := postgres.OpenPostgres(ctx, dbID, dsn, srcOpts)
			if err != nil {
				drop()
				return nil, nil, err
			}
			return &inSchema{target: p, schema: schema}, func() error { p.Close(); return drop() }, nil
		}
		return open, func() {}, nil
	}
	return nil, nil, fmt.Errorf("eval: no copy to engine %q", opts.Engine)
}

// inSchema is a target whose tables live in schema rather than in the
// SQLite catalog's "main".
type inSchema struct {
	target
	schema string
}

// forTarget returns plan as the target reads it: for a target whose tables
// live in another schema, a copy pointed there.
func (d *database) forTarget(plan *planast.Query) *planast.Query {
	t, ok := d.target.(*inSchema)
	if !ok {
		return plan
	}
	cp, err := planast.Decode(plan.Canonical(), planast.Limits{MaxBytes: 1 << 30, MaxNodes: 1 << 30, MaxDepth: 1 << 20})
	if err != nil {
		return plan
	}
	retarget(cp, t.schema)
	return cp
}

// retarget points every stored table of plan at schema.
func retarget(plan *planast.Query, schema string) {
	planast.Inspect(plan, func(n planast.Node) bool {
		if q, ok := n.(*planast.Query); ok {
			for i := range q.From {
				if q.From[i].Schema != "" {
					q.From[i].Schema = schema
				}
			}
		}
		return true
	})
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9_]+`)

func safeName(s string) string { return unsafeChars.ReplaceAllString(s, "_") }

// withSearchPath sets the session's search_path in a URL or key=value DSN.
func withSearchPath(dsn, schema string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", fmt.Errorf("eval: the PostgreSQL connection string does not parse")
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String(), nil
	}
	return dsn + " search_path=" + schema, nil
}
