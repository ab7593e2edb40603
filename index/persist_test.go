package index

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/index/values"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// selections renders what a set of questions retrieves, values included.
func selections(t *testing.T, ix *Index, snap *schema.Snapshot) []byte {
	t.Helper()
	var out []byte
	for _, q := range []string{"which artist has the most tracks sold", "How many Heavy Metal tracks are there?",
		"customers in the usa", "invoices billed to Berlin"} {
		sel, err := ix.Retrieve(context.Background(), q, retrieveOnly, nil)
		if err != nil {
			t.Fatal(err)
		}
		j, _ := json.Marshal(sel)
		out = append(append(out, j...), schemactx.SchemaContext(sel.Filter(snap))...)
	}
	return out
}

func openOrBuild(t *testing.T, dir string, snap *schema.Snapshot, opts Options) (*Index, Opened) {
	t.Helper()
	ix, op, err := OpenOrBuild(context.Background(), dir, snap, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix, op
}

// A restart must not rebuild: the second open of an unchanged snapshot
// reads the stored index (no value fetched from the database) and
// retrieves byte-identically to the index built in memory.
func TestStoredIndexIsReusedAndRetrievesAlike(t *testing.T) {
	snap, src := chinookSnapshot(t)
	dir := t.TempDir()
	var fetches int
	counting := values.Source(fetchCounter{sourceValues(src), &fetches})
	_, first := openOrBuild(t, dir, snap, Options{Values: counting})
	if !first.Built {
		t.Fatal("first open did not build")
	}
	built := fetches
	reopened, second := openOrBuild(t, dir, snap, Options{Values: counting})
	if second.Built || second.Rebuilt != "" {
		t.Fatalf("second open of an unchanged snapshot rebuilt: %+v", second)
	}
	if fetches != built {
		t.Errorf("reopening fetched values %d times", fetches-built)
	}
	mem, err := Build(context.Background(), snap, nil, Options{Values: sourceValues(src)})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	if a, b := selections(t, mem, snap), selections(t, reopened, snap); !bytes.Equal(a, b) {
		t.Errorf("stored index retrieves differently:\n%s\n%s", a, b)
	}
	if reopened.WholeTokens() != mem.WholeTokens() {
		t.Errorf("whole tokens %d, want %d", reopened.WholeTokens(), mem.WholeTokens())
	}
}

type fetchCounter struct {
	values.Source
	n *int
}

func (c fetchCounter) DistinctValues(ctx context.Context, s, t, col string, limit int) ([]string, error) {
	*c.n++
	return c.Source.DistinctValues(ctx, s, t, col, limit)
}

// A changed schema is rebuilt, and the old index is removed once the new
// one is stored.
func TestChangedSchemaRebuilds(t *testing.T) {
	snap, src := chinookSnapshot(t)
	dir := t.TempDir()
	_, a := openOrBuild(t, dir, snap, Options{Values: sourceValues(src)})
	changed, _ := chinookSnapshot(t)
	changed.Tables = changed.Tables[1:]
	_, b := openOrBuild(t, dir, changed, Options{Values: sourceValues(src)})
	if !b.Built || b.Path == a.Path {
		t.Fatalf("changed schema: %+v after %+v", b, a)
	}
	if _, err := os.Stat(a.Path); !os.IsNotExist(err) {
		t.Errorf("old index left behind: %v", err)
	}
	// a changed profile is a changed snapshot too
	reprofiled, _ := chinookSnapshot(t)
	reprofiled.Tables = reprofiled.Tables[1:]
	reprofiled.Tables[0].Columns[0].Profile.DistinctCount++
	if _, c := openOrBuild(t, dir, reprofiled, Options{Values: sourceValues(src)}); !c.Built {
		t.Error("changed profile reused the index")
	}
}

// A build killed half-way leaves a temporary directory; the stored index
// stays the one opened, and nothing is rebuilt.
func TestKilledBuildLeavesStoredIndexUsable(t *testing.T) {
	snap, src := chinookSnapshot(t)
	dir := t.TempDir()
	_, a := openOrBuild(t, dir, snap, Options{Values: sourceValues(src)})
	key := filepath.Base(a.Path)
	partial := filepath.Join(dir, buildPrefix+key+"-dead")
	if err := os.MkdirAll(filepath.Join(partial, textDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(partial, dataFile), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, b := openOrBuild(t, dir, snap, Options{Values: sourceValues(src)})
	if b.Built || b.Path != a.Path {
		t.Fatalf("after a killed build: %+v", b)
	}
	if sel, err := ix.Retrieve(context.Background(), "tracks of an album", retrieveOnly, nil); err != nil || len(sel.Tables) == 0 {
		t.Fatalf("stored index unusable: %v %+v", err, sel)
	}
}

// A stored index that was damaged (a torn data file, a missing bleve
// segment) is rebuilt with the reason said, never served.
func TestCorruptStoredIndexIsRebuilt(t *testing.T) {
	snap, src := chinookSnapshot(t)
	for _, damage := range []struct {
		name string
		do   func(dir string) error
	}{
		{"torn data", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, dataFile), []byte("torn"), 0o644)
		}},
		// one flipped bit near the end (inside the stored numbers) leaves
		// the format readable: only the checksum tells the ranking would
		// be wrong
		{"flipped bit", func(dir string) error {
			b, err := os.ReadFile(filepath.Join(dir, dataFile))
			if err != nil {
				return err
			}
			b[len(b)-3] ^= 0x10
			return os.WriteFile(filepath.Join(dir, dataFile), b, 0o644)
		}},
		{"missing text index", func(dir string) error { return os.RemoveAll(filepath.Join(dir, textDir)) }},
		{"bad meta", func(dir string) error { return os.WriteFile(filepath.Join(dir, metaFile), []byte("{"), 0o644) }},
	} {
		t.Run(damage.name, func(t *testing.T) {
			dir := t.TempDir()
			ix, a := openOrBuild(t, dir, snap, Options{Values: sourceValues(src)})
			ix.Close()
			if err := damage.do(a.Path); err != nil {
				t.Fatal(err)
			}
			ix, b := openOrBuild(t, dir, snap, Options{Values: sourceValues(src)})
			if !b.Built || b.Rebuilt == "" {
				t.Fatalf("damaged index: %+v", b)
			}
			if sel, err := ix.Retrieve(context.Background(), "tracks of an album", retrieveOnly, nil); err != nil || len(sel.Tables) == 0 {
				t.Fatalf("rebuilt index unusable: %v", err)
			}
		})
	}
}
