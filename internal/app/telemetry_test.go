package app

import (
	"cmp"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	collmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	colltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/protobuf/proto"

	"github.com/nl2sql/nl2sql/mcp"
)

// collected is one span as an OTLP collector received it.
type collected struct {
	trace, id, parent string
	name              string
	start             uint64
	attrs             map[string]string
}

// otlpCollector is an OTLP/HTTP receiver on loopback that decodes what the
// SDK's exporters send (go.opentelemetry.io/proto/otlp).
func otlpCollector(t *testing.T) (url string, spans func() []collected, metrics func() []string) {
	var mu sync.Mutex
	var ss []collected
	var ms []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/v1/traces":
			var req colltrace.ExportTraceServiceRequest
			if err := proto.Unmarshal(body, &req); err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			for _, rs := range req.ResourceSpans {
				for _, sc := range rs.ScopeSpans {
					for _, s := range sc.Spans {
						c := collected{trace: hex.EncodeToString(s.TraceId), id: hex.EncodeToString(s.SpanId),
							parent: hex.EncodeToString(s.ParentSpanId), name: s.Name, start: s.StartTimeUnixNano, attrs: map[string]string{}}
						for _, kv := range s.Attributes {
							c.attrs[kv.Key] = anyValue(kv.Value)
						}
						ss = append(ss, c)
					}
				}
			}
		case "/v1/metrics":
			var req collmetrics.ExportMetricsServiceRequest
			if err := proto.Unmarshal(body, &req); err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			for _, rm := range req.ResourceMetrics {
				for _, sm := range rm.ScopeMetrics {
					for _, m := range sm.Metrics {
						ms = append(ms, m.Name)
					}
				}
			}
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []collected { mu.Lock(); defer mu.Unlock(); return slices.Clone(ss) },
		func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(ms) }
}

func anyValue(v *commonpb.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return strconv.FormatInt(x.IntValue, 10)
	case *commonpb.AnyValue_BoolValue:
		return strconv.FormatBool(x.BoolValue)
	}
	return fmt.Sprint(v)
}

// tree prints a trace's span names indented by parent, children in the
// order they started.
func tree(spans []collected) string {
	spans = slices.Clone(spans)
	slices.SortStableFunc(spans, func(a, b collected) int { return cmp.Compare(a.start, b.start) })
	kids := map[string][]collected{}
	for _, s := range spans {
		kids[s.parent] = append(kids[s.parent], s)
	}
	var b strings.Builder
	var walk func(parent string, depth int)
	walk = func(parent string, depth int) {
		for _, s := range kids[parent] {
			b.WriteString(strings.Repeat("  ", depth) + s.name + "\n")
			walk(s.id, depth+1)
		}
	}
	walk("", 0)
	return b.String()
}

// With telemetry.otlp_endpoint every MCP tool call is one trace exported
// over OTLP/HTTP (the SDK's own exporters, flushed on Close): its root is
// the tool call, every other span's parent is in the same trace, and the
// pipeline steps, the validator, the model calls and the database queries
// are named spans under it. An operator reading a slow or failed call sees
// where the time went without stitching flat spans by hand; attributes
// carry names and counts, never SQL or rows.
func TestTelemetryExportsOTLP(t *testing.T) {
	url, spans, metrics := otlpCollector(t)
	abs := func(p string) string {
		a, err := filepath.Abs(filepath.Join(chinookDir, p))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := fmt.Sprintf("storage: {path: %q}\ndatasources:\n  - {id: chinook, engine: sqlite, path: %q}\ncurated: %q\n"+
		"llm:\n  default: {provider: replay, recordings: %q}\ntelemetry: {otlp_endpoint: %s, service_name: nl2sql-test}\n",
		filepath.Join(dir, "state"), abs("chinook.sqlite"), abs("curated.yaml"), abs("recordings"), url)
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Open(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.NewInProcessClient(mcp.NewServer(a.Engine, "test", quiet))
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
	plan := `{"select":[{"expr":{"kind":"column","table":"a","column":"Name"},"alias":"artist"}],"from":[{"table":"Artist","alias":"a"}],"order_by":[{"expr":{"kind":"column","table":"a","column":"Name"}}],"limit":3}`
	calls := []struct {
		tool string
		args map[string]any
		want []string // span names the trace must hold, besides its root
	}{
		{"ask", map[string]any{"question": "Which artist has released the most albums?"},
			[]string{"resolve", "verified", "retrieve", "plan", "chat recording", "validate", "render", "execute", "SELECT chinook", "answer"}},
		{"run_plan", map[string]any{"plan": json.RawMessage(plan)},
			[]string{"resolve", "plan", "validate", "render", "execute", "SELECT chinook", "answer"}},
		{"run_verified_query", map[string]any{"id": "revenue_by_country", "params": map[string]any{"year": "2024"}},
			[]string{"resolve", "verified", "SELECT chinook", "answer"}},
		{"explain_plan", map[string]any{"question": "Which genre has sold the most tracks?"},
			[]string{"resolve", "retrieve", "plan", "chat recording", "validate", "render"}},
	}
	for _, call := range calls {
		var req mcpgo.CallToolRequest
		req.Params.Name, req.Params.Arguments = call.tool, call.args
		res, err := c.CallTool(ctx, req)
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", call.tool, err, res)
		}
	}
	c.Close()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	byTrace := map[string][]collected{}
	for _, s := range spans() {
		byTrace[s.trace] = append(byTrace[s.trace], s)
	}
	if len(byTrace) != len(calls) {
		t.Errorf("%d traces for %d tool calls", len(byTrace), len(calls))
	}
	for _, call := range calls {
		t.Run(call.tool, func(t *testing.T) {
			var tr []collected
			for _, ss := range byTrace {
				for _, s := range ss {
					if s.parent == "" && s.name == "tools/call "+call.tool {
						tr = ss
					}
				}
			}
			if tr == nil {
				t.Fatalf("no trace has the root tools/call %s", call.tool)
			}
			ids := map[string]bool{}
			for _, s := range tr {
				ids[s.id] = true
			}
			roots, names := 0, map[string]bool{}
			for _, s := range tr {
				names[s.name] = true
				switch {
				case s.name == "":
					t.Errorf("a span has no name: %+v", s)
				case s.parent == "":
					roots++
				case !ids[s.parent]:
					t.Errorf("span %s has its parent outside the trace", s.name)
				}
				for k, v := range s.attrs {
					if strings.Contains(v, "FROM") || strings.Contains(v, "Iron Maiden") || strings.Contains(v, "USA") {
						t.Errorf("span %s attribute %s carries SQL or row data: %q", s.name, k, v)
					}
				}
			}
			if roots != 1 {
				t.Errorf("%d roots", roots)
			}
			for _, w := range call.want {
				if !names[w] {
					t.Errorf("no %q span", w)
				}
			}
			if t.Failed() || call.tool == "ask" {
				t.Logf("trace of %s:\n%s", call.tool, tree(tr))
			}
		})
	}
	if len(metrics()) == 0 {
		t.Error("the collector got no metrics")
	}
}

// A telemetry endpoint that is not an http(s) URL is a config error.
func TestTelemetryConfigError(t *testing.T) {
	cfg := writeConfig(t, "  default: {provider: replay, recordings: .}\ntelemetry: {otlp_endpoint: \"udp://x\"}\n")
	if _, err := Open(cfg, quiet); err == nil || !strings.Contains(err.Error(), "telemetry.otlp_endpoint") {
		t.Errorf("err = %v", err)
	}
	_ = os.Remove(cfg)
}
