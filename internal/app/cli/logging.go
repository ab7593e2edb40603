package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/plural"
	"github.com/nl2sql/nl2sql/mcp"
)

// newLogger returns the logger serve uses: logger unchanged for format ""
// and level "", else a new one writing to w (stderr) in format "text" or
// "json" (slog's JSON handler: one object per line with time, level, msg
// and the attributes) at level debug, info, warn (the default) or error.
// An unknown format or level is an error that names the flag.
func newLogger(logger *slog.Logger, w io.Writer, format, level string) (*slog.Logger, error) {
	if format == "" && level == "" {
		return logger, nil
	}
	var lv slog.Level = slog.LevelWarn
	if level != "" {
		if err := lv.UnmarshalText([]byte(level)); err != nil {
			return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
		}
	}
	o := &slog.HandlerOptions{Level: lv}
	switch strings.ToLower(format) {
	case "", "text":
		return slog.New(slog.NewTextHandler(w, o)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, o)), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", format)
}

// readiness is /readyz's check for a: the state store answers (the shared
// PostgreSQL store of a replica, or the SQLite file; without a store the
// server is ready: it runs without one by design), and a datasource can
// be opened. A server whose every datasource fails to open answers every
// call with DATASOURCE_UNAVAILABLE: not ready, so a load balancer routes
// elsewhere. One failing among others that serve leaves it ready, the
// failing ones named in the note. A datasource still being opened for
// the first time is no failure: it answers once indexed, and saying so
// is the tools' job. Each check starts a new open of each failed one
// (engine.OpenFailures), so the server becomes ready again without a
// request once the database is back.
func readiness(a *app.App) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		if a.Store != nil {
			if err := a.Store.Ping(ctx); err != nil {
				return "", err
			}
		}
		failed := a.Engine.OpenFailures(ctx)
		if len(failed) == 0 {
			return "", nil
		}
		ids := slices.Sorted(maps.Keys(failed))
		named := make([]string, len(ids))
		errs := make([]error, len(ids))
		for i, id := range ids {
			// the id and code only: the body is public, a message may
			// name the database's host and user
			named[i] = fmt.Sprintf("%s (%s)", id, engine.AsError(failed[id]).Code)
			errs[i] = fmt.Errorf("datasource %s: %w", id, failed[id])
		}
		list := strings.Join(named, ", ")
		if len(failed) == len(a.Engine.DatasourceIDs()) {
			return "", &mcp.NotReady{Reason: "no datasource can be opened: " + list, Err: errors.Join(errs...)}
		}
		return plural.Count(len(ids), "datasource cannot", "datasources cannot") + " be opened, the others serve: " + list, nil
	}
}
