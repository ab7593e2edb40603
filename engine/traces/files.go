package traces

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"time"

	"github.com/nl2sql/nl2sql/internal/dayfile"
	"github.com/nl2sql/nl2sql/internal/store"
)

// Retention bounds the trace files (config keys
// storage.traces.max_age_days and max_mb); zero fields mean no bound.
type Retention struct {
	MaxAge   time.Duration
	MaxBytes int64
	// Queue is how many traces may wait for the writer (dayfile's default
	// when 0); more are dropped and counted, never waited for.
	Queue int
}

// FilePrefix names the day files: dir/traces-YYYY-MM-DD.jsonl, one
// compact JSON trace per line.
const FilePrefix = "traces"

// Linger is how long the trace writer gathers traces into one append and
// one state-store transaction: a transaction per trace or two was a tenth
// of a run_plan's CPU under load. Readers that need the traces of answered
// requests flush the writer, which ends the wait.
const Linger = 20 * time.Millisecond

// IndexTimeout bounds indexing one batch of traces in the state store.
const IndexTimeout = 2 * time.Second

// Index is the state store's trace index (internal/store: PutTraces),
// kept only in a store other replicas read (Shared): a store in this
// server's own storage path would hold a second copy of the day files,
// outside their size bound, for nobody, at a cost on every request.
type Index interface {
	PutTraces(ctx context.Context, traces []store.TraceEntry) error
	Shared() bool
}

// Pruner is the state store's trace index retention.
type Pruner interface {
	PruneTraces(ctx context.Context, cutoff time.Time) (int, error)
}

// Open starts the background writer of the trace files under dir, which
// indexes every batch in st when st is an Index (and prunes it when st is
// a Pruner). open, when set, replaces opening a day file (tests inject
// failures and stalls).
func Open(dir string, r Retention, st any, log *slog.Logger, open func(path string) (io.WriteCloser, error)) *dayfile.Writer {
	w := writer{st: st, log: log}
	return dayfile.Open(dir, FilePrefix, dayfile.Options{MaxAge: r.MaxAge, MaxBytes: r.MaxBytes,
		Queue: r.Queue, Logger: log, Code: StorageCode, OnBatch: w.index, OnPrune: w.prune, Open: open,
		Linger: Linger})
}

type writer struct {
	st  any
	log *slog.Logger
}

// index puts a batch of traces (compact JSON lines) in the state store's
// trace index in one transaction, so that with a shared store
// (PostgreSQL) any replica finds a trace another served (see
// app.ReadTrace). It runs on the trace writer's goroutine; a failure is
// logged with its storage code and no request is affected.
func (w writer) index(lines [][]byte) {
	ix, ok := w.st.(Index)
	if !ok || ix == nil || !ix.Shared() {
		return
	}
	rows := make([]store.TraceEntry, 0, len(lines))
	for _, l := range lines {
		id, created, ok := traceHead(l)
		if !ok {
			continue
		}
		rows = append(rows, store.TraceEntry{ID: id, CreatedAt: created, Summary: bytes.TrimSpace(l)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), IndexTimeout)
	defer cancel()
	if err := ix.PutTraces(ctx, rows); err != nil {
		code := "STORE_UNAVAILABLE"
		var se *store.Error
		if errors.As(err, &se) {
			code = se.Code
		}
		w.log.Warn("cannot index traces in the state store", "code", code, "traces", len(rows), "err", err)
	}
}

// prune drops index rows older than the files' age bound.
func (w writer) prune(cutoff time.Time) {
	p, ok := w.st.(Pruner)
	if !ok || p == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), IndexTimeout)
	defer cancel()
	if _, err := p.PruneTraces(ctx, cutoff); err != nil {
		w.log.Warn("cannot prune the trace index", "err", err)
	}
}

var idRe = regexp.MustCompile(`^[0-9a-f]{32}$`)

// ValidID reports whether id is a trace id: 32 hex characters.
func ValidID(id string) bool { return idRe.MatchString(id) }

// Find returns the JSON of trace id stored under dir: from the day files
// (newest first), or an ID.json file of the earlier one-file-per-trace
// layout. A missing trace is an error wrapping os.ErrNotExist.
func Find(dir, id string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dir, id+".json"))
	if !errors.Is(err, os.ErrNotExist) {
		return b, err
	}
	files, err := dayfile.Files(dir, FilePrefix)
	if err != nil {
		return nil, err
	}
	head := []byte(`{"id":"` + id + `"`)
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		r := bufio.NewReaderSize(f, 1<<16)
		for {
			line, rerr := r.ReadBytes('\n')
			if bytes.HasPrefix(line, head) {
				f.Close()
				return line, nil
			}
			if rerr != nil {
				break
			}
		}
		f.Close()
	}
	return nil, os.ErrNotExist
}

// StorageCode classifies a file-system error under storage.path with the
// state store's codes, so every storage warning carries one.
func StorageCode(err error) string {
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return "STORE_FULL"
	case errors.Is(err, syscall.EROFS), errors.Is(err, fs.ErrPermission):
		return "STORE_READ_ONLY"
	}
	return "STORE_UNAVAILABLE"
}

// traceHead reads a trace line's id and created_at. The engine writes
// them first (Trace's field order), so they are read from the line's head
// without decoding the rest; a line written otherwise is decoded whole.
func traceHead(line []byte) (id string, created time.Time, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err == nil && tok == json.Delim('{') {
		if k, err := dec.Token(); err == nil && k == "id" && dec.Decode(&id) == nil {
			if k, err := dec.Token(); err == nil && k == "created_at" && dec.Decode(&created) == nil {
				return id, created, true
			}
		}
	}
	var head struct {
		ID        string    `json:"id"`
		CreatedAt time.Time `json:"created_at"`
	}
	if json.Unmarshal(line, &head) != nil {
		return "", time.Time{}, false
	}
	return head.ID, head.CreatedAt, true
}
