package app

import (
	"context"
	"log/slog"

	"github.com/nl2sql/nl2sql/engine/config"
	"github.com/nl2sql/nl2sql/engine/store"
	"github.com/nl2sql/nl2sql/scope"
)

// openStore opens the state store under storage.path. A store that cannot
// be opened (read-only or full disk, a newer format) is not fatal: the
// engine runs without snapshots on disk and without a plan cache, and the
// reason is logged once.
func openStore(cfg *config.Config, logger *slog.Logger) *store.Store {
	st, err := store.Open(context.Background(), cfg.Storage.Path, store.WithDisplayPath(cfg.Storage.PathAsWritten))
	if err != nil {
		logger.Warn("state store unavailable; running without plan cache and stored snapshots", "err", err)
		return nil
	}
	return st
}

// Authenticator returns the bearer-token checker for HTTP serving, or nil
// when no users with tokens are configured.
func (a *App) Authenticator() mcpAuth {
	if a.Policy == nil || !a.Policy.HasTokens() {
		return nil
	}
	return scope.HTTPAuth{Policy: a.Policy}
}

// mcpAuth is mcp.Authenticator, restated here so app does not import mcp.
type mcpAuth = interface {
	Authenticate(token string) (identity any, ok bool)
}
