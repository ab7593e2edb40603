package index

import (
	"context"
	"runtime/debug"
	"testing"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// gcPercent reads the GC percent without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// The guarantee: a build's heap grows by at most buildGCPercent of what it
// holds before the GC collects (the peak memory of a large catalog's first
// index), and the process's own setting is back when no build runs; a
// process that asked for less keeps it.
func TestBuildCollectsGarbageEarly(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	snap := smallSnapshot()
	var during []int
	opts := Options{Progress: func(string, int, int) { during = append(during, gcPercent()) }}
	ix, err := Build(context.Background(), snap, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if len(during) == 0 {
		t.Fatal("no progress reported")
	}
	for _, p := range during {
		if p != buildGCPercent {
			t.Fatalf("GC percent %d during a build, want %d", p, buildGCPercent)
		}
	}
	if p := gcPercent(); p != 100 {
		t.Errorf("GC percent %d after the build, want the process's 100", p)
	}
	ix, op, err := OpenOrBuild(context.Background(), t.TempDir(), snap, nil, opts)
	if err != nil || !op.Built {
		t.Fatalf("stored build: %v %+v", err, op)
	}
	ix.Close()
	if during[len(during)-1] != buildGCPercent || gcPercent() != 100 {
		t.Errorf("stored build: GC percent %d during, %d after", during[len(during)-1], gcPercent())
	}

	debug.SetGCPercent(10)
	during = nil
	ix, err = Build(context.Background(), snap, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if during[0] != 10 || gcPercent() != 10 {
		t.Errorf("a process at GOGC=10: %d during a build, %d after", during[0], gcPercent())
	}
}

// The guarantee: a build counts the whole schema's tokens (garbage that
// dies at once) before it tightens the GC, and keeps that count.
func TestBuildCountsTokensBeforeTighteningGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer func(f func(*schema.Snapshot) int) { schemaTokens = f }(schemaTokens)
	var during []int
	schemaTokens = func(s *schema.Snapshot) int {
		during = append(during, gcPercent())
		return schemactx.SchemaTokens(s)
	}
	snap := smallSnapshot()
	ix, err := Build(context.Background(), snap, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	stored, op, err := OpenOrBuild(context.Background(), t.TempDir(), snap, nil, Options{})
	if err != nil || !op.Built {
		t.Fatalf("stored build: %v %+v", err, op)
	}
	stored.Close()
	if len(during) != 2 || during[0] != countGCPercent || during[1] != countGCPercent || gcPercent() != 100 {
		t.Errorf("GC percents while counting: %v, want %d twice; after: %d, want 100", during, countGCPercent, gcPercent())
	}
	if want := schemactx.SchemaTokens(snap); ix.WholeTokens() != want || stored.WholeTokens() != want {
		t.Errorf("whole tokens %d and %d, want %d", ix.WholeTokens(), stored.WholeTokens(), want)
	}
}
