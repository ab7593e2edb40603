package mcp

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/internal/app"
)

// The engine's run.finished and cache.hit events reach /metrics: two asks
// of one question on one storage path are two ok runs, the second a plan
// cache hit.
func TestMetricsCountRunsAndCacheHits(t *testing.T) {
	dir := t.TempDir()
	abs := func(p string) string {
		a, err := filepath.Abs(filepath.Join("..", "examples", "chinook", p))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := "storage: {path: " + filepath.Join(dir, "store") + "}\ndatasources:\n  - {id: chinook, engine: sqlite, path: " + abs("chinook.sqlite") +
		"}\nllm:\n  default: {provider: replay, recordings: " + abs("recordings") + "}\n"
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewMetrics()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.OpenWith(cfg, logger, app.Options{Observers: []events.Observer{m.Observer()}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for i := 0; i < 2; i++ {
		if _, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: "Which artist has released the most albums?"}); err != nil {
			t.Fatal(err)
		}
	}
	rec := httptest.NewRecorder()
	m.handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	out := rec.Body.String()
	for _, want := range []string{
		`nl2sql_runs_total{kind="ask",plan_source="llm",status="ok"} 1`,
		`nl2sql_runs_total{kind="ask",plan_source="cache",status="ok"} 1`,
		`nl2sql_plan_cache_hits_total{datasource="chinook"} 1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if t.Failed() {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "nl2sql_runs") || strings.HasPrefix(l, "nl2sql_plan") {
				t.Log(l)
			}
		}
	}
}
