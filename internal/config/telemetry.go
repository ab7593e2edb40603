package config

import (
	"net/url"
	"time"
)

// Telemetry says where the OpenTelemetry observer exports (section
// telemetry:). Without an endpoint spans and metrics go to the process's
// global providers, which export nothing unless a host program installs
// an SDK.
type Telemetry struct {
	// OTLPEndpoint is an OTLP/HTTP collector base URL
	// ("http://127.0.0.1:4318"); traces go to /v1/traces, metrics to
	// /v1/metrics.
	OTLPEndpoint string
	// ServiceName is the service.name resource attribute (default "nl2sql").
	ServiceName string
	// ExportInterval is how often metrics are pushed (default 30 s).
	ExportInterval time.Duration
}

type fileTelemetry struct {
	OTLPEndpoint          string `koanf:"otlp_endpoint"`
	ServiceName           string `koanf:"service_name"`
	ExportIntervalSeconds *int   `koanf:"export_interval_seconds"`
}

// buildTelemetry checks and copies the telemetry section into c.
func buildTelemetry(ft *fileTelemetry, c *Config, bad func(key, format string, args ...any)) {
	if ft == nil {
		return
	}
	if ft.OTLPEndpoint != "" {
		u, err := url.Parse(ft.OTLPEndpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("telemetry.otlp_endpoint", "%q must be an http(s) URL of an OTLP/HTTP collector, e.g. http://127.0.0.1:4318", ft.OTLPEndpoint)
		}
	}
	c.Telemetry = Telemetry{OTLPEndpoint: ft.OTLPEndpoint, ServiceName: ft.ServiceName, ExportInterval: 30 * time.Second}
	if c.Telemetry.ServiceName == "" {
		c.Telemetry.ServiceName = "nl2sql"
	}
	if s := ft.ExportIntervalSeconds; s != nil {
		c.Telemetry.ExportInterval = time.Duration(intSetting(bad, "telemetry.export_interval_seconds", s, 0, 1, "greater than 0")) * time.Second
	}
}
