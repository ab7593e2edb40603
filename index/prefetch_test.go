package index

import (
	"bytes"
	"context"
	"testing"
)

// A restart reads the stored index while the snapshot is decoded: the
// index read ahead for the recorded version is the one served when the
// snapshot is that version, and retrieves exactly as one opened after
// it. When the snapshot turns out to be another (the database changed
// after the version was recorded), the index read ahead is never served:
// the changed snapshot gets its own index.
func TestPrefetchedIndexServesOnlyItsOwnSnapshot(t *testing.T) {
	ctx := context.Background()
	snap, src := chinookSnapshot(t)
	dir := t.TempDir()
	opts := Options{Values: sourceValues(src)}
	stored, _ := openOrBuild(t, dir, snap, opts)

	ahead := opts
	ahead.Fingerprint = snap.Fingerprint()
	ahead.Prefetched = StartPrefetch(dir, nil, ahead)
	if ahead.Prefetched == nil {
		t.Fatal("no prefetch for a known fingerprint")
	}
	ix, op, err := OpenOrBuild(ctx, dir, snap, nil, ahead)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if op.Built || op.Rebuilt != "" {
		t.Fatalf("the prefetched index was not used: %+v", op)
	}
	if a, b := selections(t, stored, snap), selections(t, ix, snap); !bytes.Equal(a, b) {
		t.Errorf("the prefetched index retrieves differently:\n%s\n%s", a, b)
	}
	ahead.Prefetched.Discard() // after OpenOrBuild took it: nothing to release

	changed, _ := chinookSnapshot(t) // same tables and columns, another profile
	changed.Tables[0].Columns[0].Profile.DistinctCount++
	stale := opts
	stale.Fingerprint = snap.Fingerprint() // what was recorded before the change
	pre := StartPrefetch(dir, nil, stale)
	now := opts
	now.Prefetched = pre
	cx, cop, err := OpenOrBuild(ctx, dir, changed, nil, now)
	if err != nil {
		t.Fatal(err)
	}
	defer cx.Close()
	if !cop.Built {
		t.Fatalf("a changed snapshot was served the index read ahead for the old one: %+v", cop)
	}
	if cx.Snapshot() != changed {
		t.Fatal("the index is not the changed snapshot's")
	}
	if sel, err := cx.Retrieve(ctx, "tracks of an album", retrieveOnly, nil); err != nil || len(sel.Tables) == 0 {
		t.Fatalf("index of the changed snapshot unusable: %v %+v", err, sel)
	}
	if StartPrefetch(dir, nil, opts) != nil {
		t.Error("a prefetch without a fingerprint cannot know its key and must not start")
	}
}
