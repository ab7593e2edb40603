package events

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Instrumentation scope of the OpenTelemetry observer.
const otelScope = "github.com/nl2sql/nl2sql/engine/events"

// OTel turns events into OpenTelemetry metrics named by the semantic
// conventions:
//
//	run.finished → histogram mcp.server.operation.duration (s; mcp.method.name,
//	               gen_ai.tool.name, error.type) and counter nl2sql.runs
//	model.call   → histograms gen_ai.client.operation.duration (s) and
//	               gen_ai.client.token.usage ({token}, gen_ai.token.type)
//
// Spans are not made here: the engine records each request as one trace
// while it runs (engine/spans), with the MCP tool call as its root.
// Nothing is exported unless the application installs SDK providers; the
// observer itself never blocks a run.
type OTel struct {
	opDur     metric.Float64Histogram
	modelDur  metric.Float64Histogram
	tokenUse  metric.Int64Histogram
	runCounts metric.Int64Counter
}

// NewOTel builds the observer from a meter provider (use
// otel.GetMeterProvider() for the global one).
func NewOTel(mp metric.MeterProvider) (*OTel, error) {
	m := mp.Meter(otelScope)
	o := &OTel{}
	var err error
	if o.opDur, err = m.Float64Histogram("mcp.server.operation.duration", metric.WithUnit("s"),
		metric.WithDescription("MCP request duration as observed on the receiver")); err != nil {
		return nil, err
	}
	if o.modelDur, err = m.Float64Histogram("gen_ai.client.operation.duration", metric.WithUnit("s"),
		metric.WithDescription("GenAI operation duration")); err != nil {
		return nil, err
	}
	if o.tokenUse, err = m.Int64Histogram("gen_ai.client.token.usage", metric.WithUnit("{token}"),
		metric.WithDescription("Number of input and output tokens used")); err != nil {
		return nil, err
	}
	if o.runCounts, err = m.Int64Counter("nl2sql.runs", metric.WithUnit("{run}"),
		metric.WithDescription("Finished runs by kind and status")); err != nil {
		return nil, err
	}
	return o, nil
}

// toolOf names the MCP tool a run kind comes from.
var toolOf = map[string]string{"ask": "ask", "explain": "explain_plan", "run_plan": "run_plan", "check_plan": "check_plan",
	"verified": "run_verified_query", "approved": "run_approved"}

// Observe records run.finished and model.call; other events are ignored.
// A kind without a tool (a CLI-only run) is labelled by its kind.
func (o *OTel) Observe(ctx context.Context, ev Envelope) {
	switch e := ev.Event.(type) {
	case RunFinished:
		tool := toolOf[e.Kind]
		if tool == "" {
			tool = e.Kind
		}
		attrs := []attribute.KeyValue{
			attribute.String("mcp.method.name", "tools/call"),
			attribute.String("gen_ai.tool.name", tool),
			attribute.String("gen_ai.operation.name", "execute_tool"),
		}
		if e.Code != "" {
			attrs = append(attrs, attribute.String("error.type", e.Code))
		}
		dur := time.Duration(e.DurationMS * float64(time.Millisecond))
		o.opDur.Record(ctx, dur.Seconds(), metric.WithAttributes(attrs...))
		o.runCounts.Add(ctx, 1, metric.WithAttributes(attribute.String("nl2sql.run.kind", e.Kind), attribute.String("nl2sql.run.status", e.Status)))
	case ModelCall:
		attrs := []attribute.KeyValue{
			attribute.String("gen_ai.operation.name", "chat"),
			attribute.String("gen_ai.provider.name", e.Provider),
			attribute.String("gen_ai.request.model", e.Model),
		}
		dur := time.Duration(e.DurationMS * float64(time.Millisecond))
		o.modelDur.Record(ctx, dur.Seconds(), metric.WithAttributes(attrs...))
		o.tokenUse.Record(ctx, int64(e.InputTokens), metric.WithAttributes(append(attrs, attribute.String("gen_ai.token.type", "input"))...))
		o.tokenUse.Record(ctx, int64(e.OutputTokens), metric.WithAttributes(append(attrs, attribute.String("gen_ai.token.type", "output"))...))
	}
}
