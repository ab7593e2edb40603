// Package dayfile appends JSON lines to one file per day from a bounded
// queue on a background goroutine, and keeps the files within an age and
// a size. A caller's Write never waits: when the queue is full (the disk
// is slow, the writer is stuck) the line is dropped and counted; when a
// write fails (a full disk, a read-only directory) the batch is dropped,
// counted and logged. Nothing a caller answers depends on the disk.
//
//	w := dayfile.Open(dir, "traces", dayfile.Options{MaxAge: 30 * 24 * time.Hour, MaxBytes: 1 << 30})
//	w.Write(time.Now(), line) // line ends in '\n'; appended to dir/traces-2026-01-15.jsonl
//	defer w.Close()           // flushes what is queued
package dayfile

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultQueue is how many lines may wait for the writer.
const DefaultQueue = 4096

// Options tune a Writer. Zero MaxAge or MaxBytes means no such bound.
type Options struct {
	MaxAge   time.Duration // files whose day is older are deleted
	MaxBytes int64         // the oldest files are deleted while the total is larger
	Queue    int           // lines waiting at most (DefaultQueue when 0)
	Logger   *slog.Logger
	// Code classifies a write error for the warning (STORE_FULL, …).
	Code func(error) string
	// Linger is how long the writer waits after a line for more before it
	// appends them as one batch (none when 0): under load one append and
	// one OnBatch per many lines instead of per line or two. A Flush ends
	// the wait.
	Linger time.Duration
	// OnBatch, when set, is called on the writer goroutine with each batch
	// after it is appended (a failed append passes the batch too).
	OnBatch func(lines [][]byte)
	// OnPrune, when set, is called on the writer goroutine with the age
	// cutoff each time retention runs (to prune copies kept elsewhere).
	OnPrune func(cutoff time.Time)
	// Open opens a day's file for appending; tests inject failures here.
	Open func(path string) (io.WriteCloser, error)
	// Now is the clock of retention (time.Now when nil).
	Now func() time.Time
}

type item struct {
	day   string
	line  []byte
	flush chan struct{}
}

// Writer is a background day-file appender; safe for concurrent use.
type Writer struct {
	dir, prefix string
	o           Options
	queue       chan item
	dropped     atomic.Int64
	done        chan struct{}
	mu          sync.RWMutex // held to send, taken exclusively to close
	closed      bool
}

// Open starts a writer into dir/prefix-YYYY-MM-DD.jsonl (dir created on
// first write). It prunes by age and size at start and on each new day.
func Open(dir, prefix string, o Options) *Writer {
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Code == nil {
		o.Code = func(error) string { return "STORE_UNAVAILABLE" }
	}
	if o.Open == nil {
		o.Open = func(p string) (io.WriteCloser, error) {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, err
			}
			return os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	w := &Writer{dir: dir, prefix: prefix, o: o, queue: make(chan item, o.Queue), done: make(chan struct{})}
	go w.run()
	return w
}

// Write queues line (which should end in '\n') for the file of t's UTC
// day. It never blocks: false means the line was dropped (queue full or
// writer closed) and counted.
func (w *Writer) Write(t time.Time, line []byte) bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.closed {
		w.dropped.Add(1)
		return false
	}
	select {
	case w.queue <- item{day: t.UTC().Format(time.DateOnly), line: line}:
		return true
	default:
		w.dropped.Add(1)
		return false
	}
}

// Dropped is how many lines were lost (queue full, writer closed or a
// failed write).
func (w *Writer) Dropped() int64 { return w.dropped.Load() }

// Flush waits until every line queued before it is written or dropped,
// or until timeout passes.
func (w *Writer) Flush(timeout time.Duration) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.closed {
		return
	}
	ch := make(chan struct{})
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case w.queue <- item{flush: ch}:
	case <-t.C:
		return
	}
	select {
	case <-ch:
	case <-t.C:
	}
}

// Close writes what is queued and stops the writer.
func (w *Writer) Close() error {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		close(w.queue)
	}
	w.mu.Unlock()
	<-w.done
	if n := w.Dropped(); n > 0 {
		w.o.Logger.Warn("lines lost (queue full or write failed)", "file", w.prefix, "lost", n)
	}
	return nil
}

func (w *Writer) run() {
	defer close(w.done)
	var f io.WriteCloser
	day := ""
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	w.prune()
	var batch [][]byte
	var buf []byte
	for it := range w.queue {
		// take what else is queued now, up to a day change or a flush
		items := []item{it}
		var linger *time.Timer
		if w.o.Linger > 0 {
			linger = time.NewTimer(w.o.Linger)
		}
	more:
		for len(items) < 512 && items[len(items)-1].flush == nil {
			select {
			case next, ok := <-w.queue:
				if !ok {
					break more
				}
				items = append(items, next)
				continue
			default:
			}
			if linger == nil {
				break
			}
			select {
			case next, ok := <-w.queue:
				if !ok {
					break more
				}
				items = append(items, next)
			case <-linger.C:
				break more
			}
		}
		if linger != nil {
			linger.Stop()
		}
		for i := 0; i < len(items); {
			if items[i].flush != nil {
				close(items[i].flush)
				i++
				continue
			}
			d := items[i].day
			batch, buf = batch[:0], buf[:0]
			for ; i < len(items) && items[i].flush == nil && items[i].day == d; i++ {
				batch = append(batch, items[i].line)
				buf = append(buf, items[i].line...)
			}
			if d != day {
				if f != nil {
					f.Close()
					f = nil
				}
				day = d
				w.prune()
			}
			var err error
			if f == nil {
				f, err = w.o.Open(filepath.Join(w.dir, w.prefix+"-"+d+".jsonl"))
				if err != nil {
					f = nil
				}
			}
			if err == nil {
				_, err = f.Write(buf)
			}
			if err != nil {
				w.dropped.Add(int64(len(batch)))
				w.o.Logger.Warn("lines not written", "file", w.prefix, "code", w.o.Code(err), "lines", len(batch), "err", err)
				if f != nil {
					f.Close()
					f = nil
				}
			}
			if w.o.OnBatch != nil {
				w.o.OnBatch(batch)
			}
		}
	}
}

// Files lists dir's day files of prefix, newest day first.
func Files(dir, prefix string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if _, ok := fileDay(e.Name(), prefix); ok && e.Type().IsRegular() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out, nil
}

func fileDay(name, prefix string) (time.Time, bool) {
	d, ok := strings.CutPrefix(name, prefix+"-")
	if !ok {
		return time.Time{}, false
	}
	d, ok = strings.CutSuffix(d, ".jsonl")
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.DateOnly, d)
	return t, err == nil
}

// prune deletes day files older than MaxAge, then the oldest while the
// total exceeds MaxBytes (the newest file is kept: it is being written).
func (w *Writer) prune() {
	if w.o.MaxAge <= 0 && w.o.MaxBytes <= 0 {
		return
	}
	files, err := Files(w.dir, w.prefix)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			w.o.Logger.Warn("cannot list files for retention", "file", w.prefix, "err", err)
		}
		return
	}
	cutoff := w.o.Now().UTC().Add(-w.o.MaxAge)
	if w.o.MaxAge > 0 && w.o.OnPrune != nil {
		defer w.o.OnPrune(cutoff)
	}
	var total int64
	for i, p := range files { // newest first
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		day, _ := fileDay(filepath.Base(p), w.prefix)
		old := w.o.MaxAge > 0 && day.Add(24*time.Hour).Before(cutoff)
		big := w.o.MaxBytes > 0 && i > 0 && total+st.Size() > w.o.MaxBytes
		if old || big {
			if err := os.Remove(p); err != nil {
				w.o.Logger.Warn("cannot delete an old file", "path", p, "err", err)
			}
			continue
		}
		total += st.Size()
	}
}

// String names the writer's files, for logs.
func (w *Writer) String() string { return fmt.Sprintf("%s/%s-*.jsonl", w.dir, w.prefix) }
