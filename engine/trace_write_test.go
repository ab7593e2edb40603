package engine

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

type blockedFile struct{ release chan struct{} }

func (b blockedFile) Write(p []byte) (int, error) { <-b.release; return len(p), nil }
func (b blockedFile) Close() error                { return nil }

// Answers never wait for the trace disk: with the trace writer stuck on a
// write, and with every trace write failing (a full disk), questions are
// still answered and the lost traces are counted.
func TestTracesNeverStallOrFailAnswers(t *testing.T) {
	cases := []struct {
		name string
		open func(release chan struct{}) func(string) (io.WriteCloser, error)
	}{
		{"writer stuck", func(release chan struct{}) func(string) (io.WriteCloser, error) {
			return func(string) (io.WriteCloser, error) { return blockedFile{release}, nil }
		}},
		{"disk full", func(chan struct{}) func(string) (io.WriteCloser, error) {
			return func(p string) (io.WriteCloser, error) {
				return nil, &os.PathError{Op: "open", Path: p, Err: syscall.ENOSPC}
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := chinookEngine(t, "")
			release := make(chan struct{})
			defer close(release)
			e.opts.TraceDir, e.opts.traceOpen, e.opts.TraceRetention.Queue = t.TempDir(), c.open(release), 1
			e.traces = e.openTraces()
			// the writer gathers lines for traces.Linger before it writes, so
			// ask until a lost trace is counted
			deadline := time.Now().Add(10 * time.Second)
			for i := 0; e.TracesDropped() == 0 && time.Now().Before(deadline); i++ {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				_, err := e.Ask(ctx, AskRequest{Question: "Which media type has the most tracks?"})
				cancel()
				if err != nil {
					t.Fatalf("ask %d: %v", i, err)
				}
			}
			if e.TracesDropped() == 0 {
				t.Error("no lost trace was counted")
			}
		})
	}
	// the real disk refusing: TraceDir under a regular file
	e := chinookEngine(t, "")
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	e.opts.TraceDir = filepath.Join(file, "traces")
	e.traces = e.openTraces()
	if _, err := e.Ask(context.Background(), AskRequest{Question: "Which media type has the most tracks?"}); err != nil {
		t.Fatalf("ask with an unwritable trace directory: %v", err)
	}
	e.FlushTraces()
	if e.TracesDropped() != 1 {
		t.Errorf("dropped = %d, want 1", e.TracesDropped())
	}
}
