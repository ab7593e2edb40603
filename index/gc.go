package index

import (
	"runtime/debug"
	"sync"
)

// A build allocates about a gigabyte that dies young (bleve's analysis
// and segments, a batch at a time) over a live heap of the snapshot, the
// vectors and the value documents (about 80-100 MB for 2,000 tables of 20
// columns). Go's default GC lets the heap grow to twice the live heap
// before it collects, so a first build's heap peaked at twice what it
// holds. While a build runs (and reads back what it stored) the GC
// collects when the heap has grown by buildGCPercent instead. A
// 2,000-table first index (scripts/bigcatalog) peaked at 283-296 MB RSS
// (median 289) for 15-18 s of user CPU (median 17.5) on a shared
// two-core machine; the default GC peaked at 370-380 MB, 15 took 18-23 s
// and 35 peaked at up to 301-318 MB. (Before the build allocated a third
// less, 15 was needed for 299 MB and cost 24-35 s.) The GC work is about
// what the build allocates divided by this percent, so allocating less
// is what lets it rise. A lower GOGC the process runs with, or GOGC=off,
// is left as it is.
const buildGCPercent = 25

var buildGC struct {
	mu     sync.Mutex
	builds int // builds running
	prev   int // the GC percent before the first of them
}

// tightGC lowers the GC percent to buildGCPercent for a build; the
// returned function restores it once no build runs.
func tightGC() (release func()) {
	g := &buildGC
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.builds == 0 {
		g.prev = debug.SetGCPercent(buildGCPercent)
		if g.prev < buildGCPercent {
			debug.SetGCPercent(g.prev) // the process asked for less garbage, or for no GC (-1)
		}
	}
	g.builds++
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			if g.builds--; g.builds == 0 {
				debug.SetGCPercent(g.prev)
			}
		})
	}
}
