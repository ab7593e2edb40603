package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	_ "modernc.org/sqlite" // the writable driver, to build the synthetic databases

	"github.com/nl2sql/nl2sql/internal/source"
)

// synthCase is one question over a synthetic schema (testdata/synthetic)
// and what its answer needs, written from the threat it guards.
type synthCase struct {
	Schema   string   `json:"schema"`
	Threat   string   `json:"threat"`
	Question string   `json:"question"`
	Tables   []string `json:"tables"`
	Columns  []string `json:"columns"`
}

// synthIndex builds the SQLite database of testdata/synthetic/<name>.sql,
// snapshots, profiles and indexes it with its values.
func synthIndex(t *testing.T, name string) *Index {
	t.Helper()
	ddl, err := os.ReadFile(filepath.Join("testdata", "synthetic", name+".sql"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name+".sqlite")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(ddl)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ctx := context.Background()
	src, err := source.OpenSQLite(ctx, name, path, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	snap, err := src.Snapshot(ctx)
	if err == nil {
		err = src.Profile(ctx, snap)
	}
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Build(ctx, snap, nil, Options{Values: sourceValues(src)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// TestSyntheticSchemas: on schemas shaped like the ones retrieval misses
// (a person through a link table, link tables with no declared keys, a
// fact table named after neither its measures nor its grain), retrieval
// with the whole-schema rule off keeps every table and column the
// question's answer needs, while sending at most 60% of the schema's
// columns (a selection of everything would pass any recall check).
func TestSyntheticSchemas(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "synthetic", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []synthCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	ixs := map[string]*Index{}
	for _, c := range cases {
		ix := ixs[c.Schema]
		if ix == nil {
			ix = synthIndex(t, c.Schema)
			ixs[c.Schema] = ix
		}
		t.Run(c.Question, func(t *testing.T) {
			sel, err := ix.Retrieve(context.Background(), c.Question, Budget{WholeSchemaTokens: -1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var tables, cols []string
			for _, ts := range sel.Tables {
				tables = append(tables, ts.Name)
				for _, col := range ts.Columns {
					cols = append(cols, ts.Name+"."+col)
				}
			}
			for _, want := range c.Tables {
				if !slices.Contains(tables, want) {
					t.Errorf("table %s missing (%s); kept %v", want, c.Threat, tables)
				}
			}
			for _, want := range c.Columns {
				if !slices.Contains(cols, want) {
					t.Errorf("column %s missing (%s); kept %v", want, c.Threat, cols)
				}
			}
			all := 0
			for _, tb := range ix.snap.Tables {
				all += len(tb.Columns)
			}
			if share := float64(len(cols)) / float64(all); share > 0.6 {
				t.Errorf("kept %d of %d columns (share %.2f > 0.6)", len(cols), all, share)
			}
		})
	}
}
