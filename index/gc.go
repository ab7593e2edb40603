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
// 2,000-table first index (scripts/bigcatalog) peaked at 282-307 MB RSS
// (median 291 over 6 runs) for 16-21 s of user CPU (median 17.4) on a
// shared two-core machine, whose load moves both; the default GC peaked
// at 370-380 MB, 15 took 18-23 s and 35 peaked at up to 301-318 MB.
// (Before the build allocated a third less, 15 was needed for 275-303 MB
// and cost 23-35 s.) The GC work is about what the build allocates
// divided by this percent, so allocating less is what lets it rise. A
// lower GOGC the process runs with, or GOGC=off, is left as it is.
const buildGCPercent = 25

// countGCPercent is the GC percent while a build's callers count the
// whole schema's tokens (wholeTokens in build.go), before the build: that
// garbage dies at once over the small heap of the snapshot, so it costs
// little even collected at 50; at the default 100 that phase set the
// build's peak (121 MB of heap, where the build itself stays under 115).
const countGCPercent = 50

// gcHolds are the builds and token counts running, and the process's
// own GC percent from before the first of them.
type gcHolds struct {
	mu     sync.Mutex
	builds int // builds running
	counts int // token counts running (countGC)
	prev   int
}

var buildGC gcHolds

// tightGC lowers the GC percent to buildGCPercent for a build; the
// returned function restores it once no build runs.
func tightGC() (release func()) { return buildGC.hold(&buildGC.builds) }

// countGC lowers the GC percent to countGCPercent (while no build runs)
// for counting a schema's tokens; the returned function restores it.
func countGC() (release func()) { return buildGC.hold(&buildGC.counts) }

// hold counts one more holder in n (builds or counts) until the returned
// function is called.
func (g *gcHolds) hold(n *int) (release func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.builds+g.counts == 0 {
		g.prev = debug.SetGCPercent(100)
		debug.SetGCPercent(g.prev)
	}
	*n++
	g.set()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			*n--
			g.set()
		})
	}
}

// set applies the tightest holder's percent, or the process's own when
// nothing holds or when it asked for less garbage, or for no GC (-1).
func (g *gcHolds) set() {
	p := g.prev
	switch {
	case g.builds > 0:
		p = buildGCPercent
	case g.counts > 0:
		p = countGCPercent
	}
	if g.prev < p {
		p = g.prev
	}
	debug.SetGCPercent(p)
}
