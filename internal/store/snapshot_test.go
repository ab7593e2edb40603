package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/schema"
)

func TestPutSnapshot(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		type step struct {
			snap        func(t *testing.T) *schema.Snapshot
			created     bool
			sameVersion int // index of an earlier step whose version this one must equal; -1 none
		}
		base := func(t *testing.T) *schema.Snapshot { return chinook(t) }
		moreRows := func(t *testing.T) *schema.Snapshot { return withRowCount(t, chinook(t), "Invoice", 413) }
		otherSchema := func(t *testing.T) *schema.Snapshot {
			c := chinook(t)
			c.Tables = c.Tables[1:]
			return c
		}
		reversed := func(t *testing.T) *schema.Snapshot {
			c := chinook(t)
			slices.Reverse(c.Tables)
			return c
		}
		other := func(t *testing.T) *schema.Snapshot { return small("other") }
		cases := []struct {
			name  string
			steps []step
			rows  int // snapshot rows at the end
			head  int // step whose version each datasource's head must be (chinook)
		}{
			{"same snapshot twice", []step{{base, true, -1}, {base, false, 0}}, 1, 0},
			{"tables in another order", []step{{base, true, -1}, {reversed, false, 0}}, 1, 0},
			{"profile changed, schema same", []step{{base, true, -1}, {moreRows, true, -1}}, 2, 1},
			{"schema changed and changed back", []step{{base, true, -1}, {otherSchema, true, -1}, {base, false, 0}}, 2, 2},
			{"another datasource", []step{{base, true, -1}, {other, true, -1}, {base, false, 0}}, 2, 0},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				ctx := context.Background()
				clk := newClock()
				s := open(t, WithClock(clk.Now))
				versions := make([]string, len(c.steps))
				for i, st := range c.steps {
					clk.Advance(time.Minute)
					snap := st.snap(t)
					v, created, err := s.PutSnapshot(ctx, snap)
					if err != nil {
						t.Fatalf("step %d: %v", i, err)
					}
					versions[i] = v
					if v != snap.Fingerprint() {
						t.Errorf("step %d: version %s, Fingerprint %s", i, v, snap.Fingerprint())
					}
					if created != st.created {
						t.Errorf("step %d: created = %v, want %v", i, created, st.created)
					}
					if st.sameVersion >= 0 && v != versions[st.sameVersion] {
						t.Errorf("step %d: version differs from step %d's", i, st.sameVersion)
					}
					if st.sameVersion < 0 && slices.Contains(versions[:i], v) {
						t.Errorf("step %d: version repeats an earlier one", i)
					}
				}
				if n := count(t, s, `SELECT count(*) FROM snapshots`); n != c.rows {
					t.Errorf("%d snapshot rows, want %d", n, c.rows)
				}
				_, meta, err := s.LatestSnapshot(ctx, "chinook")
				if err != nil {
					t.Fatal(err)
				}
				if meta.Version != versions[c.head] {
					t.Errorf("head %s, want step %d's %s", meta.Version, c.head, versions[c.head])
				}
				if err := s.Check(ctx); err != nil {
					t.Error(err)
				}
			})
		}
	})
}

func TestSnapshotMeta(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		clk := newClock()
		s := open(t, WithClock(clk.Now))
		snap := chinook(t)
		t0 := clk.Now()
		v, _, err := s.PutSnapshot(ctx, snap)
		if err != nil {
			t.Fatal(err)
		}
		want := SnapshotMeta{Datasource: "chinook", Version: v, SchemaHash: SchemaFingerprint(snap),
			RowCountsHash: RowCountsHash(RowCounts(snap)), CreatedAt: t0, ProfiledAt: t0}
		for _, get := range []func() (*schema.Snapshot, *SnapshotMeta, error){
			func() (*schema.Snapshot, *SnapshotMeta, error) { return s.LatestSnapshot(ctx, "chinook") },
			func() (*schema.Snapshot, *SnapshotMeta, error) { return s.Snapshot(ctx, "chinook", v) },
		} {
			_, meta, err := get()
			if err != nil {
				t.Fatal(err)
			}
			if *meta != want {
				t.Errorf("meta %+v\nwant %+v", *meta, want)
			}
		}

		// An unchanged re-put writes nothing: not even ProfiledAt.
		clk.Advance(time.Hour)
		if _, created, _ := s.PutSnapshot(ctx, snap); created {
			t.Error("created on re-put")
		}
		if _, meta, _ := s.LatestSnapshot(ctx, "chinook"); meta.ProfiledAt != t0 {
			t.Errorf("ProfiledAt moved to %v on an unchanged re-put", meta.ProfiledAt)
		}
		// MarkProfiled records a confirming re-profile.
		t1 := clk.Now()
		if err := s.MarkProfiled(ctx, "chinook", v, t1); err != nil {
			t.Fatal(err)
		}
		if _, meta, _ := s.LatestSnapshot(ctx, "chinook"); meta.ProfiledAt != t1 || meta.CreatedAt != t0 {
			t.Errorf("after MarkProfiled: %+v", meta)
		}
		if err := s.MarkProfiled(ctx, "chinook", "nope", t1); !errors.Is(err, ErrNotFound) {
			t.Errorf("MarkProfiled of an unknown version: %v", err)
		}

		// A schema that changes and changes back: no new row, but the head
		// moves back and the re-put profile counts as taken now.
		clk.Advance(time.Hour)
		if _, _, err := s.PutSnapshot(ctx, withRowCount(t, snap, "Album", 1)); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Hour)
		t2 := clk.Now()
		if _, created, err := s.PutSnapshot(ctx, snap); err != nil || created {
			t.Fatalf("back: created=%v err=%v", created, err)
		}
		if _, meta, _ := s.LatestSnapshot(ctx, "chinook"); meta.Version != v || meta.ProfiledAt != t2 || meta.CreatedAt != t0 {
			t.Errorf("after changing back: %+v", meta)
		}

		// Without a profile, ProfiledAt is zero.
		bare := &schema.Snapshot{Datasource: "plain", Dialect: "sqlite", Tables: []schema.Table{{Schema: "main", Name: "t", Kind: "table"}}}
		if _, _, err := s.PutSnapshot(ctx, bare); err != nil {
			t.Fatal(err)
		}
		if _, meta, _ := s.LatestSnapshot(ctx, "plain"); !meta.ProfiledAt.IsZero() {
			t.Errorf("unprofiled ProfiledAt = %v", meta.ProfiledAt)
		}
	})
}

// TestSnapshotDeterminism: the JSON of a stored and re-read snapshot is
// byte-identical to the original's.
func TestSnapshotDeterminism(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		for _, snap := range []*schema.Snapshot{small("small"), chinook(t)} {
			t.Run(snap.Datasource, func(t *testing.T) {
				s := open(t)
				orig := mustJSON(t, snap)
				v, _, err := s.PutSnapshot(ctx, snap)
				if err != nil {
					t.Fatal(err)
				}
				latest, _, err := s.LatestSnapshot(ctx, snap.Datasource)
				if err != nil {
					t.Fatal(err)
				}
				byVersion, _, err := s.Snapshot(ctx, snap.Datasource, v)
				if err != nil {
					t.Fatal(err)
				}
				for _, got := range []*schema.Snapshot{latest, byVersion} {
					if b := mustJSON(t, got); !bytes.Equal(b, orig) {
						t.Errorf("re-read JSON differs:\n%s\n%s", orig, b)
					}
					if got.Fingerprint() != v {
						t.Errorf("re-read Fingerprint %s, version %s", got.Fingerprint(), v)
					}
				}
				if !bytes.Equal(mustJSON(t, snap), orig) {
					t.Error("PutSnapshot changed its argument")
				}
			})
		}
		// Chinook (already in the result encoding) comes back deep-equal.
		s := open(t)
		snap := chinook(t)
		s.PutSnapshot(ctx, snap)
		got, _, _ := s.LatestSnapshot(ctx, "chinook")
		if !reflect.DeepEqual(got, snap) {
			t.Error("Chinook re-read is not deep-equal")
		}
		for _, v := range got.Tables[0].Columns[0].Profile.SampleValues {
			if _, ok := v.(int64); !ok {
				t.Errorf("sample %v is %T, want int64", v, v)
			}
		}
	})
}

func TestSnapshotErrors(t *testing.T) {
	ctx := context.Background()
	s := open(t, WithDisplayPath("data/state"))
	for _, snap := range []*schema.Snapshot{nil, {Dialect: "sqlite"}} {
		if _, _, err := s.PutSnapshot(ctx, snap); codeOfErr(t, err) != CodeInvalid {
			t.Errorf("PutSnapshot(%v) = %v", snap, err)
		}
	}
	if _, _, err := s.LatestSnapshot(ctx, "none"); !errors.Is(err, ErrNotFound) ||
		!strings.Contains(err.Error(), `no snapshot of datasource "none" is stored in data/state/state.db`) {
		t.Errorf("LatestSnapshot(none) = %v", err)
	}
	if _, _, err := s.Snapshot(ctx, "none", "abc"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Snapshot(none) = %v", err)
	}
	v, _, err := s.PutSnapshot(ctx, small("x"))
	if err != nil {
		t.Fatal(err)
	}
	// A body changed behind the store's back no longer hashes to its
	// version: CodeCorrupt, from reads and from Check.
	if _, err := s.db.Exec(`UPDATE snapshots SET body = replace(body, '"t"', '"u"')`); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Snapshot(ctx, "x", v); codeOfErr(t, err) != CodeCorrupt {
		t.Errorf("tampered read: %v", err)
	}
	if err := s.Check(ctx); codeOfErr(t, err) != CodeCorrupt {
		t.Errorf("Check of a tampered store: %v", err)
	}
}

// TestUnchangedPutTakesNoLock: with another connection holding the write
// lock, an unchanged re-put still succeeds (it writes nothing), and a new
// snapshot fails with CodeBusy once the busy timeout passes.
func TestUnchangedPutTakesNoLock(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir, WithBusyTimeout(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.PutSnapshot(ctx, small("x")); err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite", dsn(filepath.Join(dir, FileName), time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.BeginTx(ctx, nil) // BEGIN IMMEDIATE: holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, created, err := s.PutSnapshot(ctx, small("x")); err != nil || created {
		t.Errorf("unchanged re-put under a held lock: created=%v err=%v", created, err)
	}
	_, _, err = s.PutSnapshot(ctx, small("y"))
	if codeOfErr(t, err) != CodeBusy {
		t.Errorf("new snapshot under a held lock: %v", err)
	}
}

func TestPutSnapshotConcurrentGoroutines(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		s := open(t)
		if created := putConcurrently(t, []*Store{s}, 16); created != 1 {
			t.Errorf("%d puts reported created, want 1", created)
		}
		if n := count(t, s, `SELECT count(*) FROM snapshots`); n != 1 {
			t.Errorf("%d rows", n)
		}
	})
}

func TestCanonicalJSONIsFingerprinted(t *testing.T) {
	for _, snap := range []*schema.Snapshot{small("a"), chinook(t), {Datasource: "empty"}} {
		if got := hashHex(canonicalJSON(snap)); got != snap.Fingerprint() {
			t.Errorf("%s: hash of canonicalJSON %s, Fingerprint %s", snap.Datasource, got, snap.Fingerprint())
		}
	}
	var m map[string]any
	if err := json.Unmarshal(canonicalJSON(chinook(t)), &m); err != nil {
		t.Fatal(err)
	}
}

// putConcurrently puts Chinook's snapshot n times at once, spread over
// stores, and returns how many puts reported created.
func putConcurrently(t *testing.T, stores []*Store, n int) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	created := 0
	for i := range n {
		wg.Go(func() {
			_, c, err := stores[i%len(stores)].PutSnapshot(context.Background(), chinook(t))
			if err != nil {
				t.Error(err)
			}
			if c {
				mu.Lock()
				created++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return created
}
