package store

import (
	"testing"
	"time"
)

func TestSchemaFingerprint(t *testing.T) {
	base := chinook(t)
	moreRows := withRowCount(t, base, "Invoice", 413)
	noProfile := clone(t, base)
	for i := range noProfile.Tables {
		noProfile.Tables[i].RowCount = nil
		for j := range noProfile.Tables[i].Columns {
			noProfile.Tables[i].Columns[j].Profile = nil
		}
	}
	renamed := clone(t, base)
	renamed.Tables[0].Columns[1].Name = "Name"

	before := mustJSON(t, base)
	sf := SchemaFingerprint(base)
	if string(mustJSON(t, base)) != string(before) {
		t.Fatal("SchemaFingerprint changed its argument")
	}
	cases := []struct {
		name        string
		got         string
		sameSchema  bool
		sameVersion bool
	}{
		{"row counts changed", SchemaFingerprint(moreRows), true, moreRows.Fingerprint() == base.Fingerprint()},
		{"profile removed", SchemaFingerprint(noProfile), true, noProfile.Fingerprint() == base.Fingerprint()},
		{"column renamed", SchemaFingerprint(renamed), false, renamed.Fingerprint() == base.Fingerprint()},
	}
	for _, c := range cases {
		if (c.got == sf) != c.sameSchema {
			t.Errorf("%s: same schema = %v, want %v", c.name, c.got == sf, c.sameSchema)
		}
		if c.sameVersion {
			t.Errorf("%s: Fingerprint did not change", c.name)
		}
	}
	if SchemaFingerprint(noProfile) != noProfile.Fingerprint() {
		t.Error("an unprofiled snapshot's SchemaFingerprint is not its Fingerprint")
	}
	if SchemaFingerprint(nil) != "" {
		t.Error("nil")
	}
}

func TestRowCounts(t *testing.T) {
	rc := RowCounts(chinook(t))
	if len(rc) != 11 || rc["main.Album"] != 347 || rc["main.Track"] != 3503 {
		t.Errorf("RowCounts = %v", rc)
	}
	if RowCountsHash(nil) != RowCountsHash(map[string]int64{}) || len(RowCounts(nil)) != 0 {
		t.Error("nil counts")
	}
	a := RowCountsHash(map[string]int64{"main.a": 1, "main.b": 2})
	b := RowCountsHash(map[string]int64{"main.b": 2, "main.a": 1})
	if a != b {
		t.Error("hash depends on insertion order")
	}
}

func TestNeedsProfile(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	snap := chinook(t)
	counts := RowCounts(snap)
	meta := &SnapshotMeta{RowCountsHash: RowCountsHash(counts), ProfiledAt: now.Add(-time.Hour)}
	changed := RowCounts(snap)
	changed["main.Invoice"]++
	missing := RowCounts(snap)
	delete(missing, "main.Track")
	extra := RowCounts(snap)
	extra["main.NewTable"] = 0
	unprofiled := *meta
	unprofiled.ProfiledAt = time.Time{}
	future := *meta
	future.ProfiledAt = now.Add(time.Hour)
	day := 24 * time.Hour

	cases := []struct {
		name   string
		meta   *SnapshotMeta
		counts map[string]int64
		maxAge time.Duration
		want   bool
	}{
		{"nothing stored", nil, counts, day, true},
		{"stored without a profile", &unprofiled, counts, day, true},
		{"fresh, same counts", meta, counts, day, false},
		{"fresh, counts not taken", meta, nil, day, false},
		{"a row count changed", meta, changed, day, true},
		{"a table is missing from the counts", meta, missing, day, true},
		{"a table was added", meta, extra, day, true},
		{"older than maxAge", meta, counts, 30 * time.Minute, true},
		{"exactly maxAge old", meta, counts, time.Hour, false},
		{"maxAge off", meta, counts, 0, false},
		{"profiled in the future", &future, counts, time.Minute, false},
		{"old and changed", meta, changed, time.Minute, true},
	}
	for _, c := range cases {
		if got := NeedsProfile(c.meta, c.counts, c.maxAge, now); got != c.want {
			t.Errorf("%s: NeedsProfile = %v, want %v", c.name, got, c.want)
		}
	}
}
