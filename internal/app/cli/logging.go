package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/nl2sql/nl2sql/internal/app"
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
// PostgreSQL store of a replica, or the SQLite file). Without a store the
// server is ready: it runs without one by design.
func readiness(a *app.App) func(context.Context) error {
	return func(ctx context.Context) error {
		if a.Store == nil {
			return nil
		}
		return a.Store.Ping(ctx)
	}
}
