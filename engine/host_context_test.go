package engine

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/bigcat"
)

// brokenEmbedder fails every call, so the retrieval index cannot be built
// and the datasource falls back to its whole visible schema.
type brokenEmbedder struct{}

func (brokenEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("embedder down")
}
func (brokenEmbedder) Name() string { return "broken" }

// The schema context a host plans with stays within its share of the
// result budget on a catalog far larger than that, also when there is no
// retrieval index and the whole schema is retrieved; it says how many
// tables it left out and gives the describe_schema call for the
// best-ranked ones cut.
func TestHostContextFitsBudgetOnLargeCatalog(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cat.sqlite")
	if err := bigcat.Write(db, 150, 20); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		emb  index.Embedder
		cut  bool
	}{{"retrieval index", nil, false}, {"no index: the whole schema", brokenEmbedder{}, true}} {
		t.Run(c.name, func(t *testing.T) {
			e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "cat", Engine: "sqlite", Path: db}}, Embedder: c.emb,
				ResultTokens: 4000, Today: func() string { return "2026-01-15" }})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			res, err := e.Ask(context.Background(), AskRequest{Question: "total amount of sales orders by region"})
			if err != nil || res.HostPlan == nil {
				t.Fatalf("ask: %v %+v", err, res)
			}
			hp := res.HostPlan
			t.Logf("%d tokens, %d of %d tables, %d cut: %s", hp.ContextTokens, len(hp.ContextTables), hp.VisibleTables, len(hp.CutTables), hp.Omitted)
			if hp.ContextTokens > 1000 || hp.ContextTokens != schemactx.ContextTokens(hp.SchemaContext) || len(hp.ContextTables) == 0 {
				t.Fatalf("context of %d tokens, %d tables, over its 1,000-token share of the 4,000-token budget", hp.ContextTokens, len(hp.ContextTables))
			}
			if hp.VisibleTables != 150 || hp.OmittedTables != 150-len(hp.ContextTables) || hp.Omitted == "" {
				t.Errorf("omitted %d of %d: %q", hp.OmittedTables, hp.VisibleTables, hp.Omitted)
			}
			if c.cut != (len(hp.CutTables) > 0) {
				t.Fatalf("cut tables %v", hp.CutTables)
			}
			if c.cut {
				tables, _ := hp.More.Arguments["tables"].([]string)
				if hp.More.Tool != "describe_schema" || !slices.Equal(tables, hp.CutTables) || slices.ContainsFunc(hp.CutTables, func(n string) bool { return slices.Contains(hp.ContextTables, n) }) {
					t.Errorf("more: %+v, cut %v", hp.More, hp.CutTables)
				}
			}
		})
	}
}

// A host planning "Who does Margaret Park report to?" must see the stored
// spelling of the name the question gives: Employee.LastName holds 8
// values, each on one row, so the context shows two of them as examples,
// and the matched "Park" has to be one of those, or the host writes a
// filter on a spelling it guessed.
func TestHostContextShowsTheMatchedValueOfASmallTable(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs}},
		Today: func() string { return "2026-01-15" }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.Ask(context.Background(), AskRequest{Question: "Who does Margaret park report to?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	ctx := res.HostPlan.SchemaContext
	for _, want := range []string{`"Park"`, `"Margaret"`} {
		if !strings.Contains(ctx, want) {
			t.Errorf("the context lacks the matched value %s:\n%s", want, ctx)
		}
	}
}
