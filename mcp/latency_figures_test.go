package mcp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
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
// and largest latency and how many calls ran, and for each call over
// 100 ms what the runtime counted meanwhile (GC cycles and pauses,
// goroutines kept runnable over 50 ms, mutex waits), so a slow call can
// be told apart as a GC pause, a lock or a starved scheduler; it fails
// only if no call ran while the big datasource opened.
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
	var slow []string
	load0, _ := os.ReadFile("/proc/loadavg")
	var openErr error
	for open := true; open; {
		select {
		case openErr = <-done:
			open = false
			continue
		default:
		}
		before := waits.read()
		s := time.Now()
		res := callTool(t, c, "run_plan", plan)
		d := time.Since(s)
		lat = append(lat, d)
		if d > 100*time.Millisecond {
			slow = append(slow, fmt.Sprintf("%v (%s)", d.Round(time.Millisecond), waits.read().since(before)))
		}
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
	load1, _ := os.ReadFile("/proc/loadavg")
	t.Logf("load average before %s, after %s; calls over 100 ms (what the process waited on meanwhile): %s",
		strings.TrimSpace(string(load0)), strings.TrimSpace(string(load1)), strings.Join(slow, "; "))
}

// waitSample is what the Go runtime counted that makes a call wait: GC
// cycles and their stop-the-world time, goroutines left runnable (no
// thread free to run them) longer than 50 ms, and time blocked on mutexes.
type waitSample struct {
	gcCycles        uint64
	gcPauses        float64 // seconds, summed from the pause histogram
	longRunnable    uint64  // runnable → running waits over 50 ms
	mutexWait       float64 // seconds
	gcCPU, totalCPU float64 // seconds
}

var waits = waitNames{"/gc/cycles/total:gc-cycles", "/sched/pauses/total/gc:seconds", "/sched/latencies:seconds",
	"/sync/mutex/wait/total:seconds", "/cpu/classes/gc/total:cpu-seconds", "/cpu/classes/total:cpu-seconds"}

type waitNames [6]string

func (w waitNames) read() waitSample {
	ss := make([]metrics.Sample, len(w))
	for i, n := range w {
		ss[i].Name = n
	}
	metrics.Read(ss)
	var out waitSample
	out.gcCycles = ss[0].Value.Uint64()
	h := ss[1].Value.Float64Histogram()
	for i, c := range h.Counts {
		if c > 0 && !math.IsInf(h.Buckets[i], -1) {
			out.gcPauses += float64(c) * h.Buckets[i] // lower bound of the bucket
		}
	}
	h = ss[2].Value.Float64Histogram()
	for i, c := range h.Counts {
		if h.Buckets[i] >= 0.05 {
			out.longRunnable += c
		}
	}
	out.mutexWait, out.gcCPU, out.totalCPU = ss[3].Value.Float64(), ss[4].Value.Float64(), ss[5].Value.Float64()
	return out
}

func (a waitSample) since(b waitSample) string {
	return fmt.Sprintf("%d GC cycles, STW ≥ %.0f ms, %d runnable waits > 50 ms, mutex wait %.0f ms, GC CPU %.0f of %.0f ms",
		a.gcCycles-b.gcCycles, 1000*(a.gcPauses-b.gcPauses), a.longRunnable-b.longRunnable, 1000*(a.mutexWait-b.mutexWait),
		1000*(a.gcCPU-b.gcCPU), 1000*(a.totalCPU-b.totalCPU))
}
