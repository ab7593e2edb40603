package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The trace index reads id and created_at from a line's head (see
// traces.traceHead): a Trace must keep them as its first two fields.
func TestTraceLineStartsWithIDAndTime(t *testing.T) {
	b, err := json.Marshal(Trace{ID: "tr_1", CreatedAt: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC), Question: "q"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), `{"id":"tr_1","created_at":"2026-03-04T05:06:07Z",`) {
		t.Errorf("a trace line starts %.80s", b)
	}
}
