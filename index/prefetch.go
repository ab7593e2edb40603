package index

import (
	"path/filepath"
	"sync"
)

// A restart of a large catalog reads two things from disk before its
// first answer: the stored snapshot (from the state store) and the stored
// retrieval index. The index's key needs only the snapshot's fingerprint,
// which the state store records apart from the snapshot itself, so the
// index can be read on another core while the snapshot is decoded;
// OpenOrBuild then only checks it against the snapshot (pending.attach).

// Prefetch is a stored index being read ahead of its snapshot.
type Prefetch struct {
	dir, key string
	done     chan struct{}
	mu       sync.Mutex
	p        *pending // nil once taken or discarded, or when reading failed
}

// StartPrefetch starts reading, in the background, the index that
// OpenOrBuild(dir, snap, emb, opts) would open for a snapshot whose
// fingerprint is opts.Fingerprint. It returns nil when opts.Fingerprint
// is "". Pass it to OpenOrBuild as Options.Prefetched, and Discard it
// when OpenOrBuild is not called (Discard after OpenOrBuild does nothing).
func StartPrefetch(dir string, emb Embedder, opts Options) *Prefetch {
	if opts.Fingerprint == "" {
		return nil
	}
	if emb == nil {
		emb = NGram{}
	}
	key := IndexKey(nil, emb, opts)
	f := &Prefetch{dir: dir, key: key, done: make(chan struct{})}
	go func() {
		defer close(f.done)
		p, err := readPending(filepath.Join(dir, key), key)
		if err == nil {
			f.mu.Lock()
			f.p = p
			f.mu.Unlock()
		}
	}()
	return f
}

// take waits for the read and returns the pending index when it is the
// one OpenOrBuild wants (same directory and key), else discards it and
// returns nil.
func (f *Prefetch) take(dir, key string) *pending {
	if f == nil {
		return nil
	}
	<-f.done
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.p
	f.p = nil
	if p != nil && (f.dir != dir || f.key != key) {
		p.close()
		return nil
	}
	return p
}

// Discard waits for the read and releases what it opened, unless
// OpenOrBuild took it.
func (f *Prefetch) Discard() {
	if p := f.take("", ""); p != nil {
		p.close()
	}
}
