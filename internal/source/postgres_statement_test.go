package source_test

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

func TestShapeOfPostgres(t *testing.T) {
	for _, tt := range sourcetest.PGLexCases {
		if got, err := source.ShapeOf("postgres", tt.SQL); err != nil || got.Multiple != tt.Multiple || got.Keyword != "SELECT" {
			t.Errorf("ShapeOf(postgres, %q) = %+v, want multiple %v", tt.SQL, got, tt.Multiple)
		}
	}
	tests := []struct {
		sql     string
		empty   bool
		keyword string
	}{
		{"/* a /* nested */ still comment */ -- x\n ;", true, ""},
		{"DO $$ BEGIN DELETE FROM t; END $$", false, "DO"},
		{"/* x */ SET default_transaction_read_only = off", false, "SET"},
		{"E'x'", false, ""},
	}
	for _, tt := range tests {
		if got, err := source.ShapeOf("postgres", tt.sql); err != nil || got.Empty != tt.empty || got.Multiple || got.Keyword != tt.keyword {
			t.Errorf("ShapeOf(postgres, %q) = %+v, want empty %v keyword %q", tt.sql, got, tt.empty, tt.keyword)
		}
	}
	// The gate uses these rules for PostgreSQL and DuckDB only.
	if err := source.CheckStatement("postgres", "DO $$ BEGIN DELETE FROM t; END $$"); err == nil || !strings.Contains(err.Msg, "only SELECT") {
		t.Errorf("DO block: %v", err)
	}
	if err := source.CheckStatement("sqlite", "SELECT $$a;b$$"); err == nil || !strings.Contains(err.Msg, "dollar-quoted") {
		t.Errorf("SQLite rules: %v", err)
	}
}
