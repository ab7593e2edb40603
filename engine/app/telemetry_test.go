package app

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	collmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	colltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/nl2sql/nl2sql/engine"
)

// With telemetry.otlp_endpoint the OpenTelemetry observer exports over
// OTLP/HTTP (the SDK's own exporters): a collector that speaks the
// protocol receives the run's span and the metrics, flushed on Close.
func TestTelemetryExportsOTLP(t *testing.T) {
	var mu sync.Mutex
	var spans, metrics []string
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
				for _, ss := range rs.ScopeSpans {
					for _, s := range ss.Spans {
						spans = append(spans, s.Name)
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
						metrics = append(metrics, m.Name)
					}
				}
			}
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	rec, _ := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	cfg := writeConfig(t, "  default: {provider: replay, recordings: "+rec+"}\ntelemetry: {otlp_endpoint: "+srv.URL+", service_name: nl2sql-test}\n")
	a, err := Open(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: "Which artist has released the most albums?"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.ContainsFunc(spans, func(s string) bool { return strings.HasPrefix(s, "tools/call") }) || len(metrics) == 0 {
		t.Errorf("collector got spans %v, metrics %v", spans, metrics)
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
