package mcp

import (
	"context"
	"net/http"
	"regexp"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/nl2sql/nl2sql/engine/events"
)

// Metrics are the server's Prometheus metrics (client_golang), served in
// the text exposition format at /metrics by ServeHTTP:
//
//	nl2sql_http_requests_total{handler,code,method}     counter
//	nl2sql_http_request_duration_seconds{handler}       histogram (seconds)
//	nl2sql_http_requests_in_flight                      gauge
//	nl2sql_tool_calls_total{tool,outcome}               counter; outcome ok, tool_error (isError) or failed
//	nl2sql_tool_call_duration_seconds{tool}             histogram (seconds)
//	nl2sql_ready                                        gauge: 1 when the last readiness check passed
//	nl2sql_runs_total{kind,status,plan_source}          counter; from the engine's run.finished events (Observer)
//	nl2sql_plan_cache_hits_total{datasource}            counter; from cache.hit events (Observer)
//
// plus the Go runtime's and the process's collectors (go_*, process_*).
// Each Metrics has its own registry, so tests and several servers in one
// process do not collide.
type Metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	duration  *prometheus.HistogramVec
	inFlight  prometheus.Gauge
	toolCalls *prometheus.CounterVec
	toolTime  *prometheus.HistogramVec
	ready     prometheus.Gauge
	runs      *prometheus.CounterVec
	cacheHits *prometheus.CounterVec
}

// NewMetrics builds the metrics and their registry.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "nl2sql_http_requests_total", Help: "HTTP requests served, by handler, status code and method.",
		}, []string{"handler", "code", "method"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "nl2sql_http_request_duration_seconds", Help: "HTTP request latency in seconds, by handler.",
			Buckets: prometheus.DefBuckets,
		}, []string{"handler"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "nl2sql_http_requests_in_flight", Help: "HTTP requests being served.",
		}),
		toolCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "nl2sql_tool_calls_total", Help: "MCP tool calls, by tool and outcome (ok, tool_error, failed).",
		}, []string{"tool", "outcome"}),
		toolTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "nl2sql_tool_call_duration_seconds", Help: "MCP tool call latency in seconds, by tool.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"tool"}),
		ready: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "nl2sql_ready", Help: "1 when the last readiness check (/readyz: the state store answers) passed, else 0.",
		}),
	}
	m.runs = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "nl2sql_runs_total", Help: "Engine runs finished, by kind, status (ok, error, needs_approval) and plan source.",
	}, []string{"kind", "status", "plan_source"})
	m.cacheHits = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "nl2sql_plan_cache_hits_total", Help: "Planning steps answered by the plan cache, by datasource.",
	}, []string{"datasource"})
	m.reg.MustRegister(m.requests, m.duration, m.inFlight, m.toolCalls, m.toolTime, m.ready, m.runs, m.cacheHits,
		// The Go collector's defaults plus the live heap after the last GC
		// (runtime/metrics /gc/heap/live:bytes as go_gc_heap_live_bytes):
		// the figure that shows whether memory grows, unlike heap in use,
		// which holds garbage until the next collection.
		collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(
			collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^/gc/heap/live:bytes$`)})),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// ServerOption counts every tool call: give it to NewServer.
func (m *Metrics) ServerOption() server.ServerOption {
	return server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			start := time.Now()
			res, err := next(ctx, req)
			outcome := "ok"
			switch {
			case err != nil:
				outcome = "failed"
			case res != nil && res.IsError:
				outcome = "tool_error"
			}
			name := req.Params.Name
			m.toolCalls.WithLabelValues(name, outcome).Inc()
			m.toolTime.WithLabelValues(name).Observe(time.Since(start).Seconds())
			return res, err
		}
	})
}

// instrument wraps h with the HTTP metrics, labelled handler=name.
func (m *Metrics) instrument(name string, h http.Handler) http.Handler {
	l := prometheus.Labels{"handler": name}
	return promhttp.InstrumentHandlerInFlight(m.inFlight,
		promhttp.InstrumentHandlerDuration(m.duration.MustCurryWith(l),
			promhttp.InstrumentHandlerCounter(m.requests.MustCurryWith(l), h)))
}

// handler serves the registry in the Prometheus exposition format.
func (m *Metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// setReady records the outcome of a readiness check.
func (m *Metrics) setReady(ok bool) {
	if ok {
		m.ready.Set(1)
	} else {
		m.ready.Set(0)
	}
}

// Observer counts the engine's run.finished and cache.hit events into
// nl2sql_runs_total and nl2sql_plan_cache_hits_total; give it to the
// engine's event bus (app.Options.Observers). It never blocks.
func (m *Metrics) Observer() events.Observer {
	return events.ObserverFunc(func(_ context.Context, ev events.Envelope) {
		switch e := ev.Event.(type) {
		case events.RunFinished:
			m.runs.WithLabelValues(e.Kind, e.Status, e.PlanSource).Inc()
		case events.CacheHit:
			m.cacheHits.WithLabelValues(e.Datasource).Inc()
		}
	})
}
