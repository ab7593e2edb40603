package postgres

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// TestShapeOfPostgresAgainstPostgres sends each case below the gate to
// PostgreSQL: the gate must never see one statement where PostgreSQL sees
// several.
func TestShapeOfPostgresAgainstPostgres(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE t (a integer)")
	p := openPGTest(t, f.ReadOnly, source.Options{})
	sourcetest.CheckGateAgainstEngine(t, "postgres", func(q string) error { _, err := p.fetch(context.Background(), q, nil, 1); return err })
}
