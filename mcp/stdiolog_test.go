package mcp

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// The threat: a burst of concurrent calls over stdio, every one answered,
// wrote ERROR lines to stderr ("Tool call queue full, processing
// synchronously"), with a second "msg" key and an embedded newline: an
// operator watching errors chased a failure that never happened. That
// note is a debug record; a real error of mcp-go's stays an error, its
// text under "detail" on one line.
func TestStdioLogSaysErrorsOnlyOfErrors(t *testing.T) {
	var buf bytes.Buffer
	w := slogWriter{slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))}
	w.Write([]byte("Tool call queue full, processing synchronously\n"))
	if buf.Len() != 0 {
		t.Errorf("a full queue, every call answered, logged at Info or above: %q", buf.String())
	}
	w.Write([]byte("Error writing response: broken pipe\n"))
	got := buf.String()
	if !strings.Contains(got, "level=ERROR") || !strings.Contains(got, `detail="Error writing response: broken pipe"`) ||
		strings.Count(got, "msg=") != 1 || strings.Count(got, "\n") != 1 {
		t.Errorf("an error of mcp-go's logged as %q, want one ERROR line with its text under detail", got)
	}
}
