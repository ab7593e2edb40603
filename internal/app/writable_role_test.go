package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/pgtest"
)

// A superuser DSN (what `--db postgres://postgres@localhost/dev` is) is
// refused at startup with a hint that names the real way out, and opens
// with allow_writable_role: true in nl2sql.yaml, or --allow-writable-role
// with --db, with a warning on stderr. Without the key a user could not
// start at all; with a wrong hint they would chase a key that is rejected.
func TestAllowWritableRole(t *testing.T) {
	super := pgtest.Schema(t, pgtest.DSN(t))
	pgtest.Exec(t, super, `CREATE TABLE crates (id BIGINT PRIMARY KEY, port TEXT NOT NULL)`, `INSERT INTO crates VALUES (1, 'Rotterdam')`)
	discard := slog.New(slog.NewTextHandler(io.Discard, nil))

	fromFile := func(allow string) *config.Config {
		t.Helper()
		dir := t.TempDir()
		yaml := "storage: {path: state}\ndatasources:\n  - {id: dev, engine: postgres, dsn: \"" + super + "\"" + allow + "}\n"
		p := filepath.Join(dir, "nl2sql.yaml")
		if err := os.WriteFile(p, []byte(yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Load(p)
		if err != nil {
			t.Fatalf("allow_writable_role%s: %v", allow, err)
		}
		return cfg
	}
	fromDB := func(allow bool) *config.Config {
		t.Helper()
		cfg, err := ConfigFromDatabases([]string{"dev=" + super}, DatabaseOptions{Storage: t.TempDir(), AllowWritableRole: allow})
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	ask := func(cfg *config.Config) (*engine.Result, string, error) {
		t.Helper()
		var logged bytes.Buffer
		prev := slog.Default()
		slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
		defer slog.SetDefault(prev)
		a, err := OpenConfig(cfg, discard, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: "Which port did each crate go to?"})
		return res, logged.String(), err
	}

	refused := []struct {
		name string
		cfg  *config.Config
	}{{"file without the key", fromFile("")}, {"file with false", fromFile(", allow_writable_role: false")}, {"--db without the flag", fromDB(false)}}
	for _, c := range refused {
		_, _, err := ask(c.cfg)
		ee := engine.AsError(err)
		if err == nil || ee.Code != engine.CodeDatasourceDown {
			t.Fatalf("%s: opened a superuser: %v", c.name, err)
		}
		if !strings.Contains(ee.Msg, "superuser") || !strings.Contains(ee.Hint, "allow_writable_role: true") || !strings.Contains(ee.Hint, "--allow-writable-role") {
			t.Errorf("%s: %s (hint %q), want the reason and a hint naming allow_writable_role: true and --allow-writable-role", c.name, ee.Msg, ee.Hint)
		}
	}

	allowed := []struct {
		name string
		cfg  *config.Config
	}{{"file with the key", fromFile(", allow_writable_role: true")}, {"--db with the flag", fromDB(true)}}
	for _, c := range allowed {
		if !c.cfg.Datasources[0].AllowWritableRole {
			t.Fatalf("%s: the setting did not reach the datasource: %+v", c.name, c.cfg.Datasources[0])
		}
		res, logged, err := ask(c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.HostPlan == nil || !strings.Contains(res.HostPlan.SchemaContext, "crates") {
			t.Errorf("%s: no schema context from the opened database: %+v", c.name, res.HostPlan)
		}
		if !strings.Contains(logged, "level=WARN") || !strings.Contains(logged, "superuser") {
			t.Errorf("%s: no warning logged: %q", c.name, logged)
		}
	}
}
