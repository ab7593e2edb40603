package app

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/nl2sql/nl2sql/internal/config"
)

// telemetry is an OTLP/HTTP export pipeline (the OpenTelemetry SDK with its
// official exporters): a batching tracer provider and a periodic meter
// provider, both flushed by shutdown.
type telemetry struct {
	tp *sdktrace.TracerProvider
	mp *sdkmetric.MeterProvider
}

// newTelemetry builds the export pipeline of c.OTLPEndpoint. Nothing is
// sent until there is something to export; an unreachable collector only
// loses telemetry (the SDK logs it), never a request.
func newTelemetry(ctx context.Context, c config.Telemetry) (*telemetry, error) {
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(c.ServiceName)))
	if err != nil {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	te, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(c.OTLPEndpoint+"/v1/traces"))
	if err != nil {
		return nil, fmt.Errorf("telemetry: trace exporter: %w", err)
	}
	me, err := otlpmetrichttp.New(ctx, otlpmetrichttp.WithEndpointURL(c.OTLPEndpoint+"/v1/metrics"))
	if err != nil {
		return nil, fmt.Errorf("telemetry: metric exporter: %w", err)
	}
	return &telemetry{
		tp: sdktrace.NewTracerProvider(sdktrace.WithBatcher(te), sdktrace.WithResource(res)),
		mp: sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(me, sdkmetric.WithInterval(c.ExportInterval))), sdkmetric.WithResource(res)),
	}, nil
}

func (t *telemetry) tracer() trace.TracerProvider { return t.tp }
func (t *telemetry) meter() metric.MeterProvider  { return t.mp }

// shutdown flushes and stops both providers.
func (t *telemetry) shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	err := t.tp.Shutdown(ctx)
	if merr := t.mp.Shutdown(ctx); err == nil {
		err = merr
	}
	return err
}
