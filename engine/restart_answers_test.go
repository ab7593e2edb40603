package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/nl2sql/nl2sql/internal/store"
)

// A restart serves what a fresh build serves: the context handed to the
// host for each question (tables, columns, values found, join paths) is
// byte-identical whether the datasource was built now in memory, built
// and stored, or opened from storage after a restart without
// re-profiling or re-indexing. A restart that served a stale or
// differently decoded snapshot or index would answer other questions than
// the fresh process does.
func TestRestartAnswersAsAFreshBuild(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	spec := DatasourceSpec{ID: "chinook", Engine: "sqlite", Path: abs}
	qs := []string{"Which artist has the most tracks sold?", "How many Heavy Metal tracks are there?",
		"customers in the USA by city", "total invoiced to Berlin in 2012", "employees who report to Nancy"}
	contexts := func(opts Options) ([]byte, IndexReport) {
		t.Helper()
		opts.Datasources, opts.Today, opts.Open = []DatasourceSpec{spec}, func() string { return "2026-01-15" }, openAdapter
		e, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		rep := e.Refresh(context.Background(), spec.ID)
		if rep.Error != "" {
			t.Fatalf("refresh: %+v", rep)
		}
		var out []byte
		for _, q := range qs {
			res, err := e.Ask(context.Background(), AskRequest{Question: q, Datasource: spec.ID})
			if err != nil || res.HostPlan == nil {
				t.Fatalf("%q: %v %+v", q, err, res)
			}
			hp := *res.HostPlan
			hp.TraceID = ""
			j, err := json.Marshal(hp)
			if err != nil {
				t.Fatal(err)
			}
			out = append(append(out, j...), '\n')
		}
		return out, rep
	}
	fresh, _ := contexts(Options{})
	if !bytes.Contains(fresh, []byte(`"InvoiceLine"`)) || !bytes.Contains(fresh, []byte("Heavy Metal")) {
		t.Fatalf("a fresh build's contexts lack the tables and values asked about:\n%s", fresh)
	}
	dir := t.TempDir()
	stored := func() Options {
		st, err := store.Open(context.Background(), filepath.Join(dir, "state"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return Options{Store: st, IndexDir: filepath.Join(dir, "indexes")}
	}
	built, first := contexts(stored())
	restarted, second := contexts(stored())
	if !first.IndexBuilt || second.IndexBuilt || second.Snapshot != SnapshotReused {
		t.Fatalf("the restart was not served from storage: first %+v, second %+v", first, second)
	}
	for name, got := range map[string][]byte{"built and stored": built, "restarted": restarted} {
		if !bytes.Equal(got, fresh) {
			t.Errorf("%s: host contexts differ from a fresh build's:\n%s\nwant\n%s", name, got, fresh)
		}
	}
}
