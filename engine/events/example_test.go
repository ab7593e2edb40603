package events_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nl2sql/nl2sql/engine/events"
)

func Example() {
	dir, _ := os.MkdirTemp("", "audit")
	defer os.RemoveAll(dir)
	audit, _ := events.OpenAudit(dir, nil, nil)
	bus := events.NewBus(nil, events.ObserverFunc(func(context.Context, events.Envelope) { panic("a broken observer") }), audit)
	bus.Publish(context.Background(), events.RunFinished{RunID: "r1", Kind: "ask", Status: "ok", RowCount: 3, DurationMS: 41})
	audit.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	b, _ := os.ReadFile(files[0])
	line := string(b)
	fmt.Println(strings.Count(line, "\n"), strings.Contains(line, `"run_id":"r1"`), strings.Contains(line, `"rows"`))
	// Output: 1 true false
}
