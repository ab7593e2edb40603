package events

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// Instrumentation scope of the OpenTelemetry observer.
const otelScope = "github.com/nl2sql/nl2sql/engine/events"

// OTel turns events into OpenTelemetry spans and metrics named by the
// semantic conventions:
//
//	run.finished → span "tools/call <tool>" (mcp.method.name, gen_ai.tool.name,
//	               error.type) and histogram mcp.server.operation.duration (s)
//	model.call   → span "chat <model>" (gen_ai.operation.name, gen_ai.provider.name,
//	               gen_ai.request.model, gen_ai.usage.input_tokens/output_tokens),
//	               histograms gen_ai.client.operation.duration (s) and
//	               gen_ai.client.token.usage ({token}, gen_ai.token.type)
//
// Spans are recorded after the fact with their real start and end times.
// Nothing is exported unless the application installs SDK providers; the
// observer itself never blocks a run.
type OTel struct {
	tracer    trace.Tracer
	opDur     metric.Float64Histogram
	modelDur  metric.Float64Histogram
	tokenUse  metric.Int64Histogram
	runCounts metric.Int64Counter
}

// NewOTel builds the observer from a tracer and a meter provider (use
// otel.GetTracerProvider() and otel.GetMeterProvider() for the globals).
func NewOTel(tp trace.TracerProvider, mp metric.MeterProvider) (*OTel, error) {
	m := mp.Meter(otelScope)
	o := &OTel{tracer: tp.Tracer(otelScope)}
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
var toolOf = map[string]string{"ask": "ask", "run_plan": "run_plan", "approved": "run_approved"}

// Observe records run.finished and model.call; other events are ignored.
func (o *OTel) Observe(ctx context.Context, ev Envelope) {
	switch e := ev.Event.(type) {
	case RunFinished:
		tool := toolOf[e.Kind]
		attrs := []attribute.KeyValue{
			attribute.String("mcp.method.name", "tools/call"),
			attribute.String("gen_ai.tool.name", tool),
			attribute.String("gen_ai.operation.name", "execute_tool"),
		}
		if e.Code != "" {
			attrs = append(attrs, attribute.String("error.type", e.Code))
		}
		dur := time.Duration(e.DurationMS * float64(time.Millisecond))
		_, span := o.tracer.Start(ctx, "tools/call "+tool, trace.WithTimestamp(ev.Time.Add(-dur)),
			trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...),
			trace.WithAttributes(attribute.String("nl2sql.run_id", e.RunID), attribute.String("nl2sql.plan_source", e.PlanSource),
				attribute.Int("nl2sql.row_count", e.RowCount)))
		if e.Code != "" {
			span.SetStatus(codes.Error, e.Code)
		}
		span.End(trace.WithTimestamp(ev.Time))
		o.opDur.Record(ctx, dur.Seconds(), metric.WithAttributes(attrs...))
		o.runCounts.Add(ctx, 1, metric.WithAttributes(attribute.String("nl2sql.run.kind", e.Kind), attribute.String("nl2sql.run.status", e.Status)))
	case ModelCall:
		attrs := []attribute.KeyValue{
			attribute.String("gen_ai.operation.name", "chat"),
			attribute.String("gen_ai.provider.name", e.Provider),
			attribute.String("gen_ai.request.model", e.Model),
		}
		dur := time.Duration(e.DurationMS * float64(time.Millisecond))
		_, span := o.tracer.Start(ctx, "chat "+e.Model, trace.WithTimestamp(ev.Time.Add(-dur)),
			trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...),
			trace.WithAttributes(attribute.Int("gen_ai.usage.input_tokens", e.InputTokens), attribute.Int("gen_ai.usage.output_tokens", e.OutputTokens),
				attribute.String("nl2sql.step", e.Step), attribute.String("nl2sql.run_id", e.RunID)))
		if e.Failed {
			span.SetStatus(codes.Error, "model call failed")
		}
		span.End(trace.WithTimestamp(ev.Time))
		o.modelDur.Record(ctx, dur.Seconds(), metric.WithAttributes(attrs...))
		o.tokenUse.Record(ctx, int64(e.InputTokens), metric.WithAttributes(append(attrs, attribute.String("gen_ai.token.type", "input"))...))
		o.tokenUse.Record(ctx, int64(e.OutputTokens), metric.WithAttributes(append(attrs, attribute.String("gen_ai.token.type", "output"))...))
	}
}
