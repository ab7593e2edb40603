package cli

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/mcp"
)

// A load balancer routes by /readyz: a server whose only datasource
// cannot be opened answers every call with DATASOURCE_UNAVAILABLE, and
// one that still said "ready" was sent all the traffic. It is not ready
// while every datasource fails, says which (id and code only: the body is
// public); with another serving it stays ready and names the failing one;
// and once the database is back it is ready again without a request (a
// server out of the balancer's rotation gets none).
func TestReadinessFollowsTheDatasources(t *testing.T) {
	chinook, err := filepath.Abs("../../../examples/chinook/chinook.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gone := filepath.Join(dir, "freight.sqlite")
	open := func(t *testing.T, body string) (*app.App, func(context.Context) (string, error)) {
		t.Helper()
		cfg := filepath.Join(dir, "c.yaml")
		if err := os.WriteFile(cfg, []byte("storage: {path: st}\ndatasources:\n"+body), 0o600); err != nil {
			t.Fatal(err)
		}
		a, err := app.Open(cfg, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		for _, id := range a.Engine.DatasourceIDs() {
			_ = a.Engine.OpenDatasource(context.Background(), id) // as serve does at start
		}
		return a, readiness(a)
	}
	ctx := context.Background()

	t.Run("one of two fails", func(t *testing.T) {
		_, check := open(t, "  - {id: chinook, engine: sqlite, path: "+chinook+"}\n  - {id: freight, engine: sqlite, path: "+gone+"}\n")
		note, err := check(ctx)
		if err != nil || note != "1 datasource cannot be opened, the others serve: freight (DATASOURCE_UNAVAILABLE)" {
			t.Errorf("readiness = %q, %v; want ready, naming freight", note, err)
		}
	})

	t.Run("the only one fails, then comes back", func(t *testing.T) {
		_, check := open(t, "  - {id: freight, engine: sqlite, path: "+gone+"}\n")
		_, err := check(ctx)
		var nr *mcp.NotReady
		if !errors.As(err, &nr) || nr.Reason != "no datasource can be opened: freight (DATASOURCE_UNAVAILABLE)" {
			t.Fatalf("readiness = %v; want not ready, naming freight", err)
		}
		if strings.Contains(nr.Reason, dir) {
			t.Errorf("the public reason names a path: %q", nr.Reason)
		}
		data, err := os.ReadFile(chinook)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(gone, data, 0o600); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			note, err := check(ctx)
			if err == nil && note == "" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("still not ready once the database is back: %q, %v", note, err)
			}
		}
	})
}
