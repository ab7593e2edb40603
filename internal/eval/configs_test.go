package eval

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/adapters"
)

// Three configurations over replayed candidates that disagree
// (engine/testdata/scale): the single call and the tournament find the
// albums answer, the majority vote picks the larger, wrong bucket; the
// report gives accuracy, calls and tokens per configuration.
func TestRunConfigs(t *testing.T) {
	db, err := filepath.Abs(filepath.Join("..", "..", "examples", "chinook", "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	rp, err := llm.OpenReplay(filepath.Join("..", "..", "engine", "testdata", "scale", "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	seven := []engine.StrategySpec{{Name: "plain", Samples: 2}, {Name: "reasoning", Samples: 2}, {Name: "decompose", Samples: 3}}
	mk := func(sc engine.ScaleConfig) *engine.Engine {
		e, err := engine.New(engine.Options{
			Datasources: []engine.DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: db}},
			// internal/app's opener, which this package's tests cannot import
			Open: func(ctx context.Context, s engine.DatasourceSpec) (engine.Source, error) {
				return adapters.Open(ctx, s.Engine, s.ID, s.Path, s.DSN, source.Options{RowLimit: s.RowLimit, Timeout: s.Timeout})
			},
			Planner: rp, Scaling: sc, Today: func() string { return "2026-01-15" },
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e
	}
	rep, err := RunConfigs(context.Background(), ConfigOptions{
		GoldDB: db,
		Questions: []ConfigQuestion{{Question: "Which artist has released the most albums?",
			GoldSQL: "SELECT ar.Name, COUNT(*) FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId GROUP BY ar.ArtistId ORDER BY 2 DESC LIMIT 1"}},
		Configs: []Configuration{
			{"single", mk(engine.ScaleConfig{})},
			{"majority-7", mk(engine.ScaleConfig{Strategies: seven})},
			{"tournament-7", mk(engine.ScaleConfig{Strategies: seven, Tournament: true})},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name        string
		pass, calls int
		tokens      float64
	}{
		// the recordings report 1,500 + 120 tokens per plan, 900 + 20 per selector call, none for the missing repair
		{"single", 1, 1, 1620}, {"majority-7", 0, 8, 7 * 1620}, {"tournament-7", 1, 11, 7*1620 + 3*920},
	}
	for i, w := range want {
		c := rep.Configs[i]
		if c.Name != w.name || c.Pass != w.pass || c.ModelCalls != w.calls || c.TokensPerQ != w.tokens || c.MedianMS <= 0 {
			t.Errorf("config %d = %+v, want %+v", i, c, w)
		}
	}
	s := rep.Summary()
	if !strings.Contains(s, "tournament-7") || !strings.Contains(s, "majority-7: fail") {
		t.Errorf("summary:\n%s", s)
	}
	t.Logf("\n%s", s)
}

func TestTopLevelOrderBy(t *testing.T) {
	for sql, want := range map[string]bool{
		"SELECT a FROM t ORDER BY a":                             true,
		"SELECT a FROM (SELECT a FROM t ORDER BY a) s":           false,
		"SELECT 'order by' FROM t":                               false,
		"select a from t order\n  by a desc limit 3":             true,
		"WITH x AS (SELECT a FROM t ORDER BY a) SELECT * FROM x": false,
	} {
		if got := topLevelOrderBy(sql); got != want {
			t.Errorf("topLevelOrderBy(%q) = %v", sql, got)
		}
	}
}
