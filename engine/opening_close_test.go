package engine

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/store"
)

// gatedSource is a datasource whose introspection reports that it started
// and then blocks until release is closed, whatever its context says: an
// open caught mid-way by a shutdown.
type gatedSource struct {
	Source
	started chan<- struct{}
	release <-chan struct{}
}

func (s gatedSource) Snapshot(ctx context.Context) (*schema.Snapshot, error) {
	s.started <- struct{}{}
	<-s.release
	return s.Source.Snapshot(context.WithoutCancel(ctx))
}

// A server stopped seconds after it started (stdin closed, Ctrl-C) must
// stop its background open before the state store closes: Close returns
// only once the open has ended, and the cancelled open reports no store
// faults ("state store unreadable", "cannot store the schema snapshot")
// that would alarm a person about a healthy store.
func TestCloseStopsAnOpenBeforeTheStoreCloses(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	started, release := make(chan struct{}, 1), make(chan struct{})
	e, err := New(Options{
		Datasources: []DatasourceSpec{{ID: "db", Engine: "sqlite", Path: abs}},
		Store:       st, IndexDir: filepath.Join(dir, "indexes"),
		Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		Open: func(ctx context.Context, spec DatasourceSpec) (Source, error) {
			src, err := openAdapter(ctx, spec)
			if err != nil {
				return nil, err
			}
			return gatedSource{src, started, release}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	opened := make(chan error, 1)
	go func() { opened <- e.OpenDatasource(context.Background(), "db") }() // serve's background open
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the open never started")
	}
	closed := make(chan struct{})
	go func() {
		e.Close()
		running := e.sources.Running()
		if running != 0 {
			t.Errorf("Close returned while %d open(s) still ran", running)
		}
		st.Close() // what the app does right after
		close(closed)
	}()
	time.Sleep(100 * time.Millisecond)
	close(release)
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close never returned")
	}
	if err := <-opened; err == nil {
		t.Error("an open cancelled by Close reports success")
	}
	for _, warn := range []string{"state store unreadable", "cannot store the schema snapshot", "profiling failed"} {
		if strings.Contains(logs.String(), warn) {
			t.Errorf("a cancelled open logged %q:\n%s", warn, logs.String())
		}
	}
}
