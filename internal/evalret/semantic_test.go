package evalret

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func TestSpiderSemanticDraft(t *testing.T) {
	tables := []byte(`[{"db_id":"x","table_names":["airline"],"table_names_original":["airlines"],
		"column_names":[[-1,"*"],[0,"airline id"],[0,"name"]],"column_names_original":[[-1,"*"],[0,"uid"],[0,"Name"]]},
		{"db_id":"y","table_names":[],"table_names_original":[],"column_names":[],"column_names_original":[]}]`)
	y, err := SpiderSemantic(tables, "x")
	if err != nil {
		t.Fatal(err)
	}
	want := "tables:\n    - name: airlines\n      description: airline\n      columns:\n        - name: uid\n          description: airline id\n        - name: Name\n          description: name\n"
	if string(y) != want {
		t.Errorf("got\n%s\nwant\n%s", y, want)
	}
	if _, err := SpiderSemantic(tables, "z"); err == nil || !strings.Contains(err.Error(), `no database "z"`) {
		t.Errorf("unknown database: %v", err)
	}
}

// With the semantic layer drafted from tables.json, recall stays at its
// floor and the context grows by the descriptions only.
func TestSpiderSliceSemantic(t *testing.T) {
	dir := sharedDir(t)
	cfg := Config{Dataset: "spider", Limit: 5,
		Questions: filepath.Join(dir, "eval", "spider", "dev.json"), DBRoot: filepath.Join(dir, "eval", "spider", "database")}
	off, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Semantic = filepath.Join(dir, "eval", "spider", "tables.json")
	on, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("off: table %.3f column %.3f tokens %d; on: table %.3f column %.3f tokens %d",
		off.TableRecall, off.ColumnRecall, off.PromptTokens, on.TableRecall, on.ColumnRecall, on.PromptTokens)
	if on.TableRecall < 0.95 || on.ColumnRecall < 0.93 {
		t.Errorf("semantic slice below its floor: %+v", on)
	}
	if on.PromptTokens < off.PromptTokens {
		t.Errorf("the semantic context has %d tokens, fewer than without it (%d)", on.PromptTokens, off.PromptTokens)
	}
}
