package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/oauth"
	"github.com/nl2sql/nl2sql/internal/store"
	"github.com/nl2sql/nl2sql/scope"
)

// openStore opens the state store: the shared PostgreSQL store when
// storage.postgres is set, else SQLite under storage.path. A shared store
// that cannot be opened is an error (a replica must not serve with state of
// its own). An SQLite store that cannot be opened (read-only or full disk, a
// newer format) is not fatal: the engine runs without snapshots on disk and
// without a plan cache, and the reason is logged once.
func openStore(cfg *config.Config, logger *slog.Logger) (*store.Store, error) {
	if cfg.Storage.Postgres != "" {
		st, err := store.OpenPostgres(context.Background(), cfg.Storage.Postgres)
		if err != nil {
			return nil, fmt.Errorf("%s: storage.postgres: %w", cfg.File, err)
		}
		logger.Info("state store", "backend", "postgres", "store", st.Path())
		return st, nil
	}
	st, err := store.Open(context.Background(), cfg.Storage.Path, store.WithDisplayPath(cfg.Storage.PathAsWritten))
	if err != nil {
		logger.Warn("state store unavailable; running without plan cache and stored snapshots", "err", err)
		return nil, nil
	}
	return st, nil
}

// Authenticator returns the bearer-token checker for HTTP serving, or nil
// when no users with tokens are configured.
func (a *App) Authenticator() mcpAuth {
	if a.Policy == nil || !a.Policy.HasTokens() {
		return nil
	}
	return scope.HTTPAuth{Policy: a.Policy}
}

// OAuthVerifier returns the access-token verifier of the oauth section, or
// nil when there is none. Tokens verified by it act with the scope their
// claims map to (scope.Policy.ForToken).
func (a *App) OAuthVerifier(logger *slog.Logger) *oauth.Verifier {
	if !a.Config.OAuth.Enabled() {
		return nil
	}
	v, err := oauth.New(a.Config.OAuth, a.Policy, oauth.Options{Logger: logger})
	if err != nil {
		return nil // unreachable: Enabled was checked
	}
	return v
}

// mcpAuth is mcp.Authenticator, restated here so app does not import mcp.
type mcpAuth = interface {
	Authenticate(token string) (identity any, ok bool)
}

// ReadTrace loads trace id for the config at cfgPath: from this machine's
// storage.path/traces, else from the state store's trace index (with a
// shared PostgreSQL store, a trace another replica served). Errors: the
// config's, engine.ReadTrace's typed ones when neither has it.
func ReadTrace(ctx context.Context, cfg *config.Config, id string) (*engine.Trace, error) {
	t, ferr := engine.ReadTrace(filepath.Join(cfg.Storage.Path, "traces"), id)
	if ferr == nil || engine.AsError(ferr).Code != engine.CodeInvalidRequest {
		return t, ferr
	}
	st, err := openStore(cfg, slog.New(slog.DiscardHandler))
	if err != nil || st == nil {
		return nil, ferr
	}
	defer st.Close()
	b, err := st.Trace(ctx, id)
	if err != nil {
		return nil, ferr
	}
	var out engine.Trace
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("trace %s in the state store is malformed: %w", id, err)
	}
	return &out, nil
}
