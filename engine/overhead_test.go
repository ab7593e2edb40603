package engine

import (
	"context"
	"os"
	"sort"
	"testing"

	"github.com/nl2sql/nl2sql/engine/planning"
	"github.com/nl2sql/nl2sql/index/schemactx"
)

// TestOverheadFigures measures the engine's own time per question with
// replayed model answers (total − model − execute) and the planner prompt
// size in o200k_base tokens over the 12 Chinook questions. It only logs:
// run with NL2SQL_MEASURE=1 go test ./engine -run TestOverheadFigures -v
func TestOverheadFigures(t *testing.T) {
	if os.Getenv("NL2SQL_MEASURE") == "" {
		t.Skip("set NL2SQL_MEASURE=1 to measure")
	}
	e := chinookEngine(t, "")
	ctx := context.Background()
	qs := questions(t)
	if _, err := e.Ask(ctx, AskRequest{Question: qs[0]}); err != nil { // open and index the datasource
		t.Fatal(err)
	}
	var over []float64
	for round := 0; round < 20; round++ {
		for _, q := range qs {
			r, err := e.Ask(ctx, AskRequest{Question: q})
			if err != nil {
				t.Fatal(err)
			}
			over = append(over, r.Timings.Overhead())
		}
	}
	sort.Float64s(over)
	ds, _ := e.datasource(ctx, "chinook")
	var toks []int
	for _, q := range qs {
		m := planning.Prompt(e.opts.Today(), "sqlite", e.retrieve(ctx, ds, q), q, nil)
		toks = append(toks, schemactx.ContextTokens(m[0].Content)+schemactx.ContextTokens(m[1].Content))
	}
	sort.Ints(toks)
	t.Logf("overhead over %d asks: median %.3f ms, p95 %.3f ms; planner prompt tokens median %d (min %d, max %d)",
		len(over), over[len(over)/2], over[len(over)*95/100], toks[len(toks)/2], toks[0], toks[len(toks)-1])
}
