package sourcetest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/duckdb"
	"github.com/nl2sql/nl2sql/internal/source/postgres"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"
)

// A column whose most frequent value is a 100,000-character text must not
// carry that text into every schema surface (describe_schema, the
// planner's and the host's context) through its profile's samples: the
// short values stay, the long one is left out, and the profile no longer
// claims to list every value. The same on every engine.
type profiler interface {
	Snapshot(context.Context) (*schema.Snapshot, error)
	Profile(context.Context, *schema.Snapshot) error
}

func TestProfileSamplesLeaveOutLongTexts(t *testing.T) {
	ctx := context.Background()
	long := strings.Repeat("x", 100_000)
	insert := "INSERT INTO notes (body) VALUES ('short'), ('brief'), ('" + long + "'), ('" + long + "'), ('" + long + "')"
	for name, open := range map[string]func(t *testing.T) profiler{
		"sqlite": func(t *testing.T) profiler {
			return Open(t, sqlite.OpenSQLite, TempDB(t, "CREATE TABLE notes (body TEXT)", insert), source.Options{})
		},
		"duckdb": func(t *testing.T) profiler {
			return Open(t, duckdb.OpenDuckDB, DuckTempDB(t, "CREATE TABLE notes (body VARCHAR)", insert), source.Options{})
		},
		"postgres": func(t *testing.T) profiler {
			f := NewPGFixture(t, "CREATE TABLE notes (body TEXT)", insert)
			return Open(t, postgres.OpenPostgres, f.ReadOnly, source.Options{})
		},
	} {
		t.Run(name, func(t *testing.T) { checkShortSamples(t, ctx, open(t)) })
	}
}

func checkShortSamples(t *testing.T, ctx context.Context, src profiler) {
	snap, err := src.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Profile(ctx, snap); err != nil {
		t.Fatal(err)
	}
	tb, _ := snap.Lookup("", "notes")
	if tb == nil {
		tb, _ = snap.Lookup("public", "notes")
	}
	p := tb.Columns[0].Profile
	b, _ := json.Marshal(p.SampleValues)
	if len(b) > 2*source.MaxSampleBytes || p.AllValues || len(p.SampleValues) != 2 {
		t.Errorf("samples %.200s (all values %t), want the two short values and not all values", b, p.AllValues)
	}
}
