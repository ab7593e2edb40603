package mcp

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/bigcat"
)

// TestSmallDatasourceLatencyWhileBigIndexes measures what a call on a
// small datasource (Chinook, already open) costs while a big generated
// catalog is opened and indexed from scratch beside it in the same server
// (NL2SQL_BIGCATALOG=2000 for 2,000 tables × 20 columns): run_plan over
// Genre, called back to back until the big open finishes, timed from the
// client's side (in process, so no transport). It logs the median, p95
// and largest latency and how many calls ran; it fails only if no call
// ran while the big datasource opened.
//
//	NL2SQL_BIGCATALOG=2000 go test ./mcp -run TestSmallDatasourceLatencyWhileBigIndexes -v
func TestSmallDatasourceLatencyWhileBigIndexes(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("NL2SQL_BIGCATALOG"))
	if n == 0 {
		t.Skip("set NL2SQL_BIGCATALOG=2000 to measure a small datasource's latency while 2,000 tables × 20 columns index")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "cat.sqlite")
	if err := bigcat.Write(db, n, 20); err != nil {
		t.Fatal(err)
	}
	chinook, err := filepath.Abs(filepath.Join("..", "examples", "chinook", "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := "storage: {path: " + filepath.Join(dir, "state") + "}\ndatasources:\n" +
		"  - {id: cat, engine: sqlite, path: " + db + "}\n  - {id: small, engine: sqlite, path: " + chinook + "}\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(cfg, logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	c, err := client.NewInProcessClient(NewServer(a.Engine, "test", logger))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcpgo.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	plan := map[string]any{"datasource": "small", "plan": map[string]any{
		"select": []any{map[string]any{"expr": map[string]any{"kind": "column", "column": "Name"}, "alias": "name"}},
		"from":   []any{map[string]any{"table": "Genre", "alias": "g"}}}}
	if res := callTool(t, c, "run_plan", plan); res.IsError { // opens the small one first
		t.Fatalf("run_plan on the small datasource: %s", text(res))
	}
	done := make(chan error, 1)
	t0 := time.Now()
	go func() { done <- a.Engine.OpenDatasource(ctx, "cat") }()
	var lat []time.Duration
	var openErr error
	for open := true; open; {
		select {
		case openErr = <-done:
			open = false
			continue
		default:
		}
		s := time.Now()
		res := callTool(t, c, "run_plan", plan)
		lat = append(lat, time.Since(s))
		if res.IsError {
			t.Fatalf("run_plan on the small datasource while the big one opens: %s", text(res))
		}
	}
	if openErr != nil {
		t.Fatal(openErr)
	}
	if len(lat) == 0 {
		t.Fatal("no call ran while the big datasource opened")
	}
	slices.Sort(lat)
	q := func(p float64) time.Duration {
		return lat[min(len(lat)-1, int(p*float64(len(lat))))].Round(100 * time.Microsecond)
	}
	t.Logf("%d × 20 catalog opened in %v; %d run_plan calls on the small datasource meanwhile: median %v, p95 %v, max %v",
		n, time.Since(t0).Round(time.Millisecond), len(lat), q(0.5), q(0.95), lat[len(lat)-1].Round(100*time.Microsecond))
}
