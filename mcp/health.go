package mcp

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/nl2sql/nl2sql/internal/store"
)

// ReadyTimeout bounds one readiness check.
const ReadyTimeout = 2 * time.Second

// NotReady is a readiness failure whose Reason /readyz's body says. The
// body is public (no token): Reason names codes and datasource ids, never
// a host, a user or a message; Err, for the log, may.
type NotReady struct {
	Reason string
	Err    error
}

func (e *NotReady) Error() string { return e.Reason + ": " + e.Err.Error() }

func (e *NotReady) Unwrap() error { return e.Err }

// addOps registers the operational endpoints, none behind authentication:
// /healthz (the process answers), /readyz and, with o.Metrics, /metrics.
// It returns the /mcp handler, instrumented when o.Metrics is set.
//
// /readyz is o.Readiness: an error makes it 503 "not ready: REASON" (a
// *NotReady's Reason; any other error is the state store's, said by its
// code), else 200 "ready", followed by the check's note when it has one.
// What readiness means is the caller's (serve: the state store answers
// and at least one datasource can be opened, a failing one named in the
// note while another serves): a load balancer routes by it, and a server
// that can answer nothing must not be routed to.
func addOps(mux *http.ServeMux, o HTTPOptions, mcpHandler http.Handler) http.Handler {
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		var note string
		var err error
		if o.Readiness != nil {
			ctx, cancel := context.WithTimeout(r.Context(), ReadyTimeout)
			note, err = o.Readiness(ctx)
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
			reason := "the state store does not answer (" + store.CodeOf(err) + ")"
			if nr := (*NotReady)(nil); errors.As(err, &nr) {
				reason = nr.Reason
			}
			_, _ = w.Write([]byte("not ready: " + reason + "; the server log has the details\n"))
			return
		}
		if note != "" {
			_, _ = w.Write([]byte("ready: " + note + "\n"))
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
