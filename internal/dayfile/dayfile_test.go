package dayfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stuck is a file whose writes block until release is closed.
type stuck struct{ release chan struct{} }

func (s stuck) Write(p []byte) (int, error) { <-s.release; return len(p), nil }
func (s stuck) Close() error                { return nil }

// A writer stuck on the disk never makes a caller wait: lines beyond the
// queue are dropped and counted at once.
func TestWriteNeverBlocksWhenTheDiskIsStuck(t *testing.T) {
	release := make(chan struct{})
	w := Open(t.TempDir(), "traces", Options{Queue: 4, Open: func(string) (io.WriteCloser, error) { return stuck{release}, nil }})
	start := time.Now()
	for range 100 {
		w.Write(time.Now(), []byte("{}\n"))
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("100 writes took %v with the disk stuck", d)
	}
	if w.Dropped() < 90 {
		t.Errorf("dropped %d of 100 with a queue of 4", w.Dropped())
	}
	close(release)
	w.Close()
}

// A failing disk (full) loses the lines, counted, and later lines are
// written once the disk recovers.
func TestWriteErrorIsCountedAndRecovers(t *testing.T) {
	dir := t.TempDir()
	fail := true
	w := Open(dir, "traces", Options{Open: func(p string) (io.WriteCloser, error) {
		if fail {
			return nil, &os.PathError{Op: "open", Path: p, Err: syscall.ENOSPC}
		}
		return os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	}})
	w.Write(time.Now(), []byte("{\"a\":1}\n"))
	w.Flush(time.Second)
	if w.Dropped() != 1 {
		t.Fatalf("dropped = %d, want 1", w.Dropped())
	}
	fail = false
	w.Write(time.Now(), []byte("{\"a\":2}\n"))
	w.Close()
	files, _ := Files(dir, "traces")
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	if b, _ := os.ReadFile(files[0]); string(b) != "{\"a\":2}\n" {
		t.Errorf("file holds %q", b)
	}
}

// Retention deletes day files older than MaxAge, then the oldest while
// the total is over MaxBytes; the newest stays.
func TestRetentionByAgeAndSize(t *testing.T) {
	now := time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name     string
		maxAge   time.Duration
		maxBytes int64
		want     []string
	}{
		{"age", 5 * 24 * time.Hour, 0, []string{"2026-03-20", "2026-03-18", "2026-03-16"}},
		{"size", 0, 250, []string{"2026-03-20", "2026-03-18"}},
		{"none", 0, 0, []string{"2026-03-20", "2026-03-18", "2026-03-16", "2026-03-01", "2025-12-31"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, d := range []string{"2025-12-31", "2026-03-01", "2026-03-16", "2026-03-18", "2026-03-20"} {
				if err := os.WriteFile(filepath.Join(dir, "traces-"+d+".jsonl"), []byte(strings.Repeat("x", 100)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			os.WriteFile(filepath.Join(dir, "other.json"), []byte("keep"), 0o644)
			var cutoff time.Time
			w := Open(dir, "traces", Options{MaxAge: c.maxAge, MaxBytes: c.maxBytes, Now: func() time.Time { return now },
				OnPrune: func(t time.Time) { cutoff = t }})
			w.Close()
			files, _ := Files(dir, "traces")
			var got []string
			for _, f := range files {
				got = append(got, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "traces-"), ".jsonl"))
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("kept %v, want %v", got, c.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "other.json")); errors.Is(err, os.ErrNotExist) {
				t.Error("retention deleted a file that is not a day file")
			}
			if c.maxAge > 0 && !cutoff.Equal(now.Add(-c.maxAge)) {
				t.Errorf("OnPrune cutoff = %v", cutoff)
			}
		})
	}
}
