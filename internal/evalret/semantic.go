package evalret

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// spiderTables is one database of Spider's tables.json.
type spiderTables struct {
	DB             string   `json:"db_id"`
	TableNames     []string `json:"table_names"`
	TableOriginal  []string `json:"table_names_original"`
	ColumnNames    [][2]any `json:"column_names"`
	ColumnOriginal [][2]any `json:"column_names_original"`
}

// SpiderSemantic drafts the semantic file of database db from Spider's
// tables.json: each table and column is described by its
// natural-language name there ("uid" → "airline id"); SQLite's own
// tables (sqlite_sequence) are left out, as snapshots leave them out. It is the semantic
// layer a data owner could write from those names alone, and what
// Config.Semantic measures.
func SpiderSemantic(tablesJSON []byte, db string) ([]byte, error) {
	var all []spiderTables
	if err := json.Unmarshal(tablesJSON, &all); err != nil {
		return nil, fmt.Errorf("tables.json: %w", err)
	}
	type col struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	}
	type table struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
		Columns     []col  `yaml:"columns,omitempty"`
	}
	for _, d := range all {
		if d.DB != db {
			continue
		}
		tables := make([]table, len(d.TableOriginal))
		for i, n := range d.TableOriginal {
			tables[i] = table{Name: n, Description: d.TableNames[i]}
		}
		for i, c := range d.ColumnOriginal {
			ti, _ := c[0].(float64)
			name, _ := c[1].(string)
			if ti < 0 || int(ti) >= len(tables) || i >= len(d.ColumnNames) {
				continue // "*"
			}
			desc, _ := d.ColumnNames[i][1].(string)
			tables[int(ti)].Columns = append(tables[int(ti)].Columns, col{Name: name, Description: desc})
		}
		kept := tables[:0]
		for _, t := range tables {
			if !strings.HasPrefix(t.Name, "sqlite_") { // SQLite's own tables are not in snapshots
				kept = append(kept, t)
			}
		}
		return yaml.Marshal(map[string]any{"tables": kept})
	}
	return nil, fmt.Errorf("tables.json has no database %q", db)
}

// spiderLayer loads db's semantic layer drafted from tablesPath against
// snap (through the engine's own loader and check).
func spiderLayer(tablesPath, db string, snap *schema.Snapshot) (*semantic.Layer, error) {
	b, err := os.ReadFile(tablesPath)
	if err != nil {
		return nil, err
	}
	y, err := SpiderSemantic(b, db)
	if err != nil {
		return nil, err
	}
	f, err := semantic.Parse(db+".semantic.yaml", y)
	if err != nil {
		return nil, err
	}
	return semantic.Check(f, snap)
}
