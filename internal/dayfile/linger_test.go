package dayfile

import (
	"sync"
	"testing"
	"time"
)

// Lines written close together are appended as one batch (one append, one
// state-store transaction instead of one per line), but a reader that
// flushes (trace show after an answer) must not wait out the linger.
func TestLingerBatchesAndFlushEndsIt(t *testing.T) {
	var mu sync.Mutex
	var batches []int
	w := Open(t.TempDir(), "traces", Options{Linger: time.Minute, OnBatch: func(lines [][]byte) {
		mu.Lock()
		batches = append(batches, len(lines))
		mu.Unlock()
	}})
	defer w.Close()
	now := time.Now()
	for range 3 {
		if !w.Write(now, []byte("{}\n")) {
			t.Fatal("a line was dropped")
		}
	}
	start := time.Now()
	w.Flush(10 * time.Second)
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("Flush waited %v for the linger", el)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(batches) != 1 || batches[0] != 3 {
		t.Errorf("batches %v, want one of 3 lines", batches)
	}
}
