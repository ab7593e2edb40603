package app

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"time"

	"go.opentelemetry.io/otel"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/store"
)

// extensions are the hooks and observers built from the config; close
// flushes the audit log.
type extensions struct {
	audit     *events.Audit
	telemetry *telemetry // nil without telemetry.otlp_endpoint
}

func (x *extensions) close() error {
	if x == nil {
		return nil
	}
	var err error
	if x.audit != nil {
		err = x.audit.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if terr := x.telemetry.shutdown(ctx); err == nil {
		err = terr
	}
	return err
}

// extend wires cfg's hooks and approvals into opts, and the observers: the
// JSONL audit log under storage.path/audit and the OpenTelemetry observer
// (the global providers; nothing is exported unless a process installs an
// SDK). st nil means no approvals.
func extend(cfg *config.Config, st *store.Store, opts *engine.Options, logger *slog.Logger, extra ...events.Observer) (*extensions, error) {
	entries, err := hookEntries(cfg.Hooks)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.File, err)
	}
	if opts.Hooks, err = hooks.NewRunner(entries, logger); err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.File, err)
	}
	if st != nil {
		opts.Approvals = st
	}
	opts.ApproverRoles = cfg.Approvals.ApproverRoles
	x := &extensions{}
	var observers []events.Observer
	if audit, err := events.OpenAudit(filepath.Join(cfg.Storage.Path, "audit"), logger, store.CodeOf); err != nil {
		logger.Warn("audit log unavailable; runs are not audited", "code", store.CodeOf(err), "err", err)
	} else {
		x.audit = audit
		observers = append(observers, audit)
	}
	tp, mp := otel.GetTracerProvider(), otel.GetMeterProvider()
	if cfg.Telemetry.OTLPEndpoint != "" {
		t, err := newTelemetry(context.Background(), cfg.Telemetry)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cfg.File, err)
		}
		x.telemetry = t
		tp, mp = t.tracer(), t.meter()
	}
	opts.TracerProvider = tp
	if o, err := events.NewOTel(mp); err != nil {
		logger.Warn("OpenTelemetry observer unavailable", "err", err)
	} else {
		observers = append(observers, o)
	}
	opts.Events = events.NewBus(logger, append(observers, extra...)...)
	return x, nil
}

// hookEntries turns configured hooks into runner entries.
func hookEntries(hs []config.Hook) ([]hooks.Entry, error) {
	var out []hooks.Entry
	for _, h := range hs {
		e := hooks.Entry{Name: h.Name, Timeout: h.Timeout, OnErrorOpen: h.OnErrorOpen}
		for _, p := range h.Points {
			e.Points = append(e.Points, hooks.Point(p))
		}
		switch {
		case h.HTTP != nil:
			e.Hook = &hooks.HTTP{URL: h.HTTP.URL, Secret: []byte(h.HTTP.Secret)}
		case h.Rule != nil:
			r := &hooks.Rule{DenyTables: h.Rule.DenyTables, DenyColumns: h.Rule.DenyColumns,
				ApprovalTables: h.Rule.ApprovalTables, RowCaps: h.Rule.RowCaps}
			for _, p := range h.Rule.QuestionPatterns {
				re, err := regexp.Compile(p)
				if err != nil {
					return nil, fmt.Errorf("hook %s: %w", h.Name, err)
				}
				r.QuestionPatterns = append(r.QuestionPatterns, re)
			}
			if h.Rule.Window != "" {
				w, err := hooks.ParseWindow(h.Rule.Window)
				if err != nil {
					return nil, fmt.Errorf("hook %s: %w", h.Name, err)
				}
				r.Window = w
			}
			e.Hook = r
			if len(e.Points) == 0 {
				e.Points = r.Points()
			}
		}
		if len(e.Points) > 0 { // a rule with nothing to decide runs nowhere
			out = append(out, e)
		}
	}
	return out, nil
}
