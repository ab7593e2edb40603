package engine

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/store"
)

// slowSource is a datasource whose introspection blocks until release is
// closed: a big catalog still being opened.
type slowSource struct {
	Source
	release chan struct{}
}

func (s slowSource) Snapshot(ctx context.Context) (*schema.Snapshot, error) {
	<-s.release
	return s.Source.Snapshot(ctx)
}

// SchemaVersion is the source's own: a datasource read again after its
// schema changed is slow the same way.
func (s slowSource) SchemaVersion(ctx context.Context) (string, error) {
	return s.Source.(schemaVersioner).SchemaVersion(ctx)
}

// Two datasources never wait on each other: while a big one is still
// opening, a small one answers, and a call on the big one gets the typed,
// retryable DATASOURCE_INDEXING error after OpenWait instead of hanging
// (or a TIMEOUT blamed on a model). Once it is open, it answers too.
func TestSmallDatasourceAnswersWhileBigOneOpens(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	e, err := New(Options{
		Datasources: []DatasourceSpec{{ID: "big", Engine: "sqlite", Path: abs}, {ID: "small", Engine: "sqlite", Path: abs}},
		OpenWait:    time.Second,
		Open: func(ctx context.Context, spec DatasourceSpec) (Source, error) {
			src, err := openAdapter(ctx, spec)
			if err != nil || spec.ID != "big" {
				return src, err
			}
			return slowSource{src, release}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Close must not hang either: an open holding the set's lock would
	// block it for good
	t.Cleanup(func() { closeWithin(t, e, 30*time.Second) })
	ctx := context.Background()
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	go e.OpenDatasource(ctx, "big") // the server's background open
	big := make(chan error, 1)
	go func() {
		_, err := e.VisibleSnapshot(ctx, "big")
		big <- err
	}()
	select {
	case err = <-big:
	case <-time.After(30 * time.Second):
		t.Fatal("a call on the opening datasource waited for the open")
	}
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != CodeDatasourceIndexing || !ee.Retryable || ee.Hint == "" {
		t.Fatalf("call on the opening datasource: %v", err)
	}
	small := make(chan error, 1)
	go func() {
		if err := e.OpenDatasource(ctx, "small"); err != nil {
			small <- err
			return
		}
		_, err := e.VisibleSnapshot(ctx, "small")
		small <- err
	}()
	select {
	case err := <-small:
		if err != nil {
			t.Fatalf("small datasource: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the small datasource waited for the big one")
	}
	// Listing says the big one is still indexing (a host lists again
	// later), not that it is unavailable, and the small one is ready.
	// A caller that reports waits (an MCP client with a progress token)
	// lists at once too.
	for _, lctx := range []context.Context{ctx, WithWaitProgress(ctx, func(string, int, int) {})} {
		listed := make(chan []DatasourceInfo, 1)
		go func() { listed <- e.ListDatasources(lctx) }()
		status := map[string]string{}
		select {
		case infos := <-listed:
			for _, d := range infos {
				status[d.ID] = d.Status
			}
		case <-time.After(10 * time.Second):
			t.Fatal("list_datasources waited for the big datasource to open")
		}
		if status["big"] != "indexing" || status["small"] != "ready" {
			t.Errorf("list_datasources while big opens: %v, want big indexing and small ready", status)
		}
	}
	// A host that lists again while the big one is still opening, past
	// the wait, gets the listing at once, not after another full wait.
	start := time.Now()
	e.ListDatasources(ctx)
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("listing again while big opens took %v; the open is past its wait, so it should not wait again", took)
	}
	free()
	if err := e.OpenDatasource(ctx, "big"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.VisibleSnapshot(ctx, "big"); err != nil {
		t.Fatalf("big datasource once open: %v", err)
	}
}

// A restart does not rebuild the retrieval index: a second engine on the
// same storage reuses the stored index (and snapshot); a changed profile
// rebuilds it.
func TestRestartReusesStoredIndex(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	open := func(maxAge time.Duration) IndexReport {
		return restartOn(t, dir, DatasourceSpec{ID: "chinook", Engine: "sqlite", Path: abs}, maxAge)
	}
	if first := open(time.Hour); !first.IndexBuilt {
		t.Fatalf("first open did not build: %+v", first)
	}
	if second := open(time.Hour); second.IndexBuilt || second.Snapshot != SnapshotReused {
		t.Fatalf("restart rebuilt: %+v", second)
	}
}

// restartOn opens spec's datasource in a new engine on the state store
// and indexes kept in dir (a restart) and reports what the open did.
func restartOn(t *testing.T, dir string, spec DatasourceSpec, maxAge time.Duration) IndexReport {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{spec},
		Store: st, IndexDir: filepath.Join(dir, "indexes"), ProfileMaxAge: maxAge})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rep := e.Refresh(context.Background(), spec.ID)
	if rep.Error != "" || !rep.Indexed {
		t.Fatalf("refresh: %+v", rep)
	}
	return rep
}

// A request whose time ran out before the model was called (a slow
// datasource open) is not reported as a model timeout.
func TestTimeoutBeforeModelIsNotBlamedOnIt(t *testing.T) {
	e := chinookEngine(t, "")
	if err := e.OpenDatasource(context.Background(), "chinook"); err != nil {
		t.Fatal(err)
	}
	ds, err := e.datasource(context.Background(), "chinook")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err = e.planValidated(ctx, ds, "How many tracks are there?", "", "2026-01-15")
	ee := AsError(err)
	if ee == nil || ee.Code != CodeTimeout || strings.Contains(ee.Msg, "model call") {
		t.Fatalf("got %v", err)
	}
}

// closeWithin closes e, failing the test when that takes longer than d.
func closeWithin(t *testing.T, e *Engine, d time.Duration) {
	done := make(chan struct{})
	go func() { e.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Error("closing the engine hung")
	}
}
