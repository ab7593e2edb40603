// Package indexing opens a datasource's retrieval index (package index)
// when it opens: the stored one, kept per datasource under a directory
// and keyed by the snapshot's fingerprint, the embedder and the index
// options, or a new one built from the snapshot and the stored text
// values it reads read-only; and it starts reading the stored index while
// the snapshot loads (Prefetch), so a restart with an unchanged snapshot
// reads instead of building.
//
// It owns where indexes are stored, the embedder's default and the
// fallbacks: an index that cannot be stored is built in memory, one that
// cannot be built leaves the datasource without an index (the whole
// schema is sent), and both are logged. It never retrieves for a
// question, applies access rules or loads a snapshot: the engine does,
// and hands it the opened source and snapshot.
//
// Worked example (engine/engine.go, on a datasource's first use):
//
//	b := indexing.Builder{Dir: "/var/lib/nl2sql/indexes", Log: log} // Embedder nil: index.NGram
//	pre := b.Prefetch(ctx, src, loader.Recorded(ctx, src))           // reads ahead while profiling
//	defer pre.Discard()
//	snap, _, fingerprint, _, _ := loader.Load(ctx, src)
//	idx, built := b.Open(ctx, src, snap, fingerprint, pre)
//	// first start: built = true, the index is written to
//	//   /var/lib/nl2sql/indexes/chinook/…
//	// a restart with the same snapshot: built = false, the stored index
//	// is read (engine.IndexReport.IndexBuilt says which)
package indexing
