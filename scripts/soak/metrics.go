package main

import (
	"net/http"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// runtimeStats are a replica's Go runtime figures from its /metrics
// (the Prometheus Go collector): goroutines and the live heap after the
// last GC (go_gc_heap_live_bytes, which mcp.NewMetrics exposes).
type runtimeStats struct {
	goroutines int64
	heapLive   int64
	ok         bool
}

// scrape reads go_goroutines and go_gc_heap_live_bytes from base's
// /metrics with prometheus/common's text parser.
func scrape(base string) runtimeStats {
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(base + "/metrics")
	if err != nil {
		return runtimeStats{}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return runtimeStats{}
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		return runtimeStats{}
	}
	gauge := func(name string) (int64, bool) {
		f, ok := fams[name]
		if !ok || len(f.GetMetric()) == 0 || f.GetMetric()[0].GetGauge() == nil {
			return 0, false
		}
		return int64(f.GetMetric()[0].GetGauge().GetValue()), true
	}
	g, ok1 := gauge("go_goroutines")
	h, ok2 := gauge("go_gc_heap_live_bytes")
	return runtimeStats{goroutines: g, heapLive: h, ok: ok1 && ok2}
}

// scrapeAll sums the runtime figures of the replicas still running.
func scrapeAll(servers []*server) runtimeStats {
	sum := runtimeStats{ok: true}
	for _, sv := range servers {
		if sv.cmd == nil {
			continue
		}
		s := scrape(sv.base)
		sum.goroutines += s.goroutines
		sum.heapLive += s.heapLive
		sum.ok = sum.ok && s.ok
	}
	return sum
}
