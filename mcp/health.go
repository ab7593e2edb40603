package mcp

import (
	"context"
	"net/http"
	"time"

	"github.com/nl2sql/nl2sql/internal/store"
)

// ReadyTimeout bounds one readiness check.
const ReadyTimeout = 2 * time.Second

// addOps registers the operational endpoints, none behind authentication:
// /healthz (the process answers), /readyz (o.Readiness passes: for a
// replica, the shared state store answers) and, with o.Metrics, /metrics.
// It returns the /mcp handler, instrumented when o.Metrics is set.
func addOps(mux *http.ServeMux, o HTTPOptions, mcpHandler http.Handler) http.Handler {
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		var err error
		if o.Readiness != nil {
			ctx, cancel := context.WithTimeout(r.Context(), ReadyTimeout)
			err = o.Readiness(ctx)
			cancel()
		}
		if o.Metrics != nil {
			o.Metrics.setReady(err == nil)
		}
		if err != nil {
			o.Logger.Warn("not ready", "err", err)
			w.WriteHeader(http.StatusServiceUnavailable)
			// The body is public (no token): the code only; the log has the
			// details, which may name the store's host, user and database.
			_, _ = w.Write([]byte("not ready: the state store does not answer (" + store.CodeOf(err) + "); the server log has the details\n"))
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
	if o.Metrics == nil {
		return mcpHandler
	}
	mux.Handle("/metrics", o.Metrics.handler())
	return o.Metrics.instrument("/mcp", mcpHandler)
}
