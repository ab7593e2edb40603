package evalret

import (
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"time"
)

// measure runs f and returns its wall time in milliseconds and the peak of
// the live heap objects above the level before it (after a GC), in MiB,
// sampled every millisecond from runtime/metrics.
func measure(f func() error) (ms, peakMB float64, err error) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	var peak uint64
	var mu sync.Mutex
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			v := read()
			mu.Lock()
			peak = max(peak, v)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	err = f()
	ms = float64(time.Since(start).Microseconds()) / 1000
	close(done)
	wg.Wait()
	peak = max(peak, read())
	if peak > base {
		peakMB = float64(peak-base) / (1 << 20)
	}
	return ms, peakMB, err
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
