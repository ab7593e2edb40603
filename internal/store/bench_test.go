package store

import (
	"context"
	"strconv"
	"testing"
)

// BenchmarkPutSnapshot times PutSnapshot on Chinook's profiled snapshot
// (11 tables, 64 columns, ~28 KB of JSON):
//
//	go test -run '^$' -bench PutSnapshot -benchmem ./internal/store
//
// first: a new version each time (the datasource name differs), so each
// iteration hashes, inserts and commits; unchanged: the same snapshot
// again, which hashes and reads the head only. fingerprint is the hash
// alone, and latest a LatestSnapshot read, for scale.
func BenchmarkPutSnapshot(b *testing.B) {
	ctx := context.Background()
	base := chinook(b)
	b.Run("first", func(b *testing.B) {
		s := open(b)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			c := *base
			c.Datasource = "chinook-" + strconv.Itoa(i)
			if _, created, err := s.PutSnapshot(ctx, &c); err != nil || !created {
				b.Fatal(created, err)
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		s := open(b)
		if _, _, err := s.PutSnapshot(ctx, base); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, created, err := s.PutSnapshot(ctx, base); err != nil || created {
				b.Fatal(created, err)
			}
		}
	})
	b.Run("fingerprint", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = base.Fingerprint()
		}
	})
	b.Run("latest", func(b *testing.B) {
		s := open(b)
		if _, _, err := s.PutSnapshot(ctx, base); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := s.LatestSnapshot(ctx, "chinook"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
