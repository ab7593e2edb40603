package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/config"
)

// serveBanner is the one line serve writes on stderr at start: transport,
// address, datasources with their engines, and who plans.
//
//	nl2sql 0.1.0-dev: serving MCP over stdio; datasources: chinook (sqlite); planning: host (get_plan_schema + run_plan)
func serveBanner(cfg *config.Config, httpAddr string) string {
	transport := "stdio"
	if httpAddr != "" {
		transport = "streamable HTTP at http://" + httpAddr + "/mcp"
	}
	var dss []string
	for _, d := range cfg.Datasources {
		dss = append(dss, fmt.Sprintf("%s (%s)", d.ID, d.Engine))
	}
	if len(dss) == 0 {
		dss = []string{"none"}
	}
	planning := app.PlanningMode(cfg)
	if planning == "host" {
		planning = "host (the client plans with get_plan_schema + run_plan)"
	} else {
		planning = "model " + planning
	}
	return fmt.Sprintf("nl2sql %s: serving MCP over %s; datasources: %s; planning: %s", version, transport, strings.Join(dss, ", "), planning)
}

// datasourceOpener is what openInBackground needs of the engine.
type datasourceOpener interface {
	OpenDatasource(ctx context.Context, id string) error
}

// serveOpenWait is how long a tool call waits for a datasource still
// opening before it gets the retryable DATASOURCE_INDEXING error: well
// inside any client's request timeout.
const serveOpenWait = time.Second

// openInBackground opens every datasource after the server has started
// (the MCP handshake does not wait for it), all at once (the engine bounds
// how many run together, and none waits for another), and writes one line
// to w for each that fails, naming it and its path. A datasource that fails
// stays configured: its tools answer with the typed error, the others
// serve. done, when not nil, is closed when every datasource was tried.
func openInBackground(ctx context.Context, eng datasourceOpener, cfg *config.Config, w io.Writer, done chan<- struct{}) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, d := range cfg.Datasources {
		wg.Go(func() {
			err := eng.OpenDatasource(ctx, d.ID)
			if ctx.Err() != nil || errors.Is(err, context.Canceled) || err != nil && engine.AsError(err).Code == engine.CodeCancelled {
				// the server stopped (the client hung up): nothing to report;
				// the engine may close before the context ends, and its open
				// then says the server is shutting down
				return
			}
			if err == nil {
				warnAccess(ctx, eng, d.ID, w, &mu)
				return
			}
			mu.Lock()
			fmt.Fprintf(w, "nl2sql: datasource %s (%s %s) cannot be opened: %v\n", d.ID, d.Engine, where(d), err)
			mu.Unlock()
		})
	}
	go func() {
		wg.Wait()
		if done != nil {
			close(done)
		}
	}()
}

// accessWarner is the engine's check of the access policy against an
// open datasource's schema (engine.Engine.AccessWarnings).
type accessWarner interface {
	AccessWarnings(ctx context.Context, id string) []string
}

// warnAccess prints, on w, each allow or deny pattern of the policy that
// matches nothing in datasource id: a typo that leaves hidden data
// readable must be seen at start, not found later (doctor fails on it).
func warnAccess(ctx context.Context, eng any, id string, w io.Writer, mu *sync.Mutex) {
	aw, ok := eng.(accessWarner)
	if !ok {
		return
	}
	for _, msg := range aw.AccessWarnings(ctx, id) {
		mu.Lock()
		fmt.Fprintf(w, "nl2sql: warning: datasource %s: %s (nl2sql doctor fails on this)\n", id, msg)
		mu.Unlock()
	}
}

// where is a datasource's path, or its DSN without user and password.
func where(d config.Datasource) string {
	if d.DSN == "" {
		return d.Path
	}
	return app.DSNLocation(d.DSN)
}
