package traces

import (
	"testing"
	"time"
)

// The trace index reads a trace's id and creation time from the line's
// head: for lines as the engine encodes them, and for lines whose keys
// come in another order, it reads what decoding the whole line reads.
func TestTraceHeadReadsWhatTheLineSays(t *testing.T) {
	created := time.Date(2026, 3, 4, 5, 6, 7, 891011121, time.UTC)
	// as the engine writes a trace (TestTraceLineStartsWithIDAndTime keeps
	// its field order), and with the keys in another order
	written := []byte(`{"id":"tr_\"x\"","created_at":"2026-03-04T05:06:07.891011121Z","question":"q","model_calls":[]}`)
	for _, line := range [][]byte{written, []byte(`{"question":"q","created_at":"2026-03-04T05:06:07.891011121Z","id":"tr_\"x\""}`)} {
		id, at, ok := traceHead(line)
		if !ok || id != `tr_"x"` || !at.Equal(created) {
			t.Errorf("%s: read (%q, %v, %v), want (%q, %v)", line, id, at, ok, `tr_"x"`, created)
		}
	}
	if _, _, ok := traceHead([]byte(`not json`)); ok {
		t.Error("a line that is not JSON was read")
	}
}
