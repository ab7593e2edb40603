package eval

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/internal/schema"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, for the gold SQL
)

// table is a query result as the comparison reads it.
type table struct {
	cols      []string
	rows      [][]any
	truncated bool
}

// goldDB runs gold SQL on one benchmark database as the benchmark's authors
// ran it: SQLite with its defaults (double-quoted strings allowed, LIKE
// ignoring ASCII case), read-only. The engine's adapter is stricter on
// purpose (it refuses double-quoted strings and matches LIKE by case), so
// the gold SQL does not go through it.
type goldDB struct {
	db *sql.DB
}

func openGold(path string) (*goldDB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return &goldDB{db: db}, nil
}

func (g *goldDB) Close() error { return g.db.Close() }

// rowless reports whether no table of snap has a row (a schema-only
// database; an error reading one counts as rows, so that a case is never
// moved out of the accuracy by a failure).
func (g *goldDB) rowless(ctx context.Context, snap *schema.Snapshot) bool {
	for _, t := range snap.Tables {
		if t.Kind != schema.KindTable {
			continue
		}
		var one int
		err := g.db.QueryRowContext(ctx, `SELECT 1 FROM "`+strings.ReplaceAll(t.Name, `"`, `""`)+`" LIMIT 1`).Scan(&one)
		if !errors.Is(err, sql.ErrNoRows) {
			return false
		}
	}
	return len(snap.Tables) > 0
}

// run executes the gold SQL and reads at most maxRows rows. Dates the driver
// parsed from DATE/DATETIME columns are written back as the adapters write
// them (YYYY-MM-DD at midnight in a DATE column, else
// YYYY-MM-DD HH:MM:SS[.f]).
func (g *goldDB) run(ctx context.Context, sqlText string, maxRows int) (*table, error) {
	rows, err := g.db.QueryContext(ctx, sqlText)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	t := &table{cols: cols}
	for rows.Next() {
		if len(t.rows) == maxRows {
			t.truncated = true
			break
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, v := range vals {
			if tm, ok := v.(time.Time); ok {
				vals[i] = formatGoldTime(tm, strings.ToUpper(cts[i].DatabaseTypeName()))
			}
		}
		t.rows = append(t.rows, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading rows: %w", err)
	}
	return t, nil
}

func formatGoldTime(t time.Time, decl string) string {
	_, offset := t.Zone()
	if decl == "DATE" && offset == 0 && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format("2006-01-02")
	}
	layout := "2006-01-02 15:04:05.999999999"
	if offset != 0 {
		layout += "-07:00"
	}
	return t.Format(layout)
}
