package index

import (
	"runtime/debug"
	"sync"
)

// A build allocates gigabytes that die young (bleve's analysis and
// segments, a batch at a time) over a live heap of the snapshot, the
// vectors and the value documents (about 80 MB for 2,000 tables of 20
// columns). Go's default GC lets the heap grow to twice the live heap
// before it collects, so a first build's heap peaked at twice what it
// holds. While a build runs (and reads back what it stored) the GC
// collects when the heap has grown by buildGCPercent instead: a
// 2,000-table first index peaked at 287-311 MB RSS instead of 402 MB
// (25: 308, 20: 303), for more GC work: 30-35 s of user CPU instead of
// 17-20 s on a loaded two-core machine. A lower GOGC the process runs
// with, or GOGC=off, is left as it is.
const buildGCPercent = 15

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
