package opening

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
)

// fakeOpens hands out numbered values; an open blocks until gate gives
// way and fails while fail is set. released lists what was released.
type fakeOpens struct {
	mu       sync.Mutex
	n        int
	fail     bool
	gate     chan struct{}
	released []int
}

func (f *fakeOpens) open(ctx context.Context, id string) (*int, error) {
	f.mu.Lock()
	gate := f.gate
	f.mu.Unlock()
	if gate != nil {
		<-gate
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail {
		return nil, errors.New("the database is down")
	}
	f.n++
	v := f.n
	return &v, nil
}

func (f *fakeOpens) release(v *int) {
	f.mu.Lock()
	f.released = append(f.released, *v)
	f.mu.Unlock()
}

func (f *fakeOpens) set(change func()) {
	f.mu.Lock()
	change()
	f.mu.Unlock()
}

func (f *fakeOpens) opened() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

func (f *fakeOpens) releasedNow() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]int(nil), f.released...)
}

// The threat: reading a changed schema again takes the datasource away
// from the calls meanwhile (they fail, or wait behind the re-read), closes
// it under a query still running on it, or, when the re-read fails,
// leaves nothing to answer with.
func TestRenewKeepsAnsweringUntilTheNewValueIsReady(t *testing.T) {
	defer func(d time.Duration) { RetireAfter = d }(RetireAfter)
	RetireAfter = time.Hour
	f := &fakeOpens{}
	s := New(f.open, f.release)
	ctx := context.Background()
	first, err := s.Await(ctx, "db", time.Second)
	if err != nil || *first != 1 {
		t.Fatalf("first open: %v %v", first, err)
	}

	gate := make(chan struct{})
	f.set(func() { f.gate = gate })
	got, err := s.Renew(ctx, "db", 10*time.Millisecond) // the re-read is slow
	if err != nil || got != first {
		t.Fatalf("a slow renewal: got %v, %v; want the opened value", got, err)
	}
	if !s.Renewing("db") {
		t.Fatal("Renewing is false while the renewal runs")
	}
	if v, err := s.Await(ctx, "db", time.Second); err != nil || v != first {
		t.Fatalf("a call during the renewal: %v, %v; want the opened value at once", v, err)
	}
	if v, _ := s.Renew(ctx, "db", 10*time.Millisecond); v != first { // joins, never doubles
		t.Fatal("a second renewal during the first did not answer with the opened value")
	}
	close(gate)
	f.set(func() { f.gate = nil })
	deadline := time.Now().Add(5 * time.Second)
	for s.Renewing("db") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	second, _ := s.Ready("db")
	if *second != 2 || f.opened() != 2 {
		t.Fatalf("renewed: value %d after %d opens, want value 2 from one renewal", *second, f.opened())
	}
	if v, _ := s.Await(ctx, "db", time.Second); v != second {
		t.Fatal("the renewed value does not answer")
	}
	if r := f.releasedNow(); len(r) != 0 {
		t.Fatalf("released %v at once; a query may still run on it", r)
	}

	f.set(func() { f.fail = true })
	var re *RenewError
	if v, err := s.Renew(ctx, "db", 5*time.Second); !errors.As(err, &re) || v != second {
		t.Fatalf("a failed renewal: %v, %v; want the value it would have replaced and why the renewal failed", v, err)
	}
	if v, ok := s.Ready("db"); !ok || v != second {
		t.Fatal("a failed renewal dropped the opened value")
	}

	if got := s.Close(); got["db"] != second {
		t.Fatalf("Close handed back %v", got)
	}
	if r := f.releasedNow(); len(r) != 1 || r[0] != 1 {
		t.Fatalf("released %v at Close, want the replaced value 1", r)
	}
}

// A replaced value is released once its grace is over.
func TestRenewReleasesTheReplacedValueLater(t *testing.T) {
	defer func(d time.Duration) { RetireAfter = d }(RetireAfter)
	RetireAfter = 50 * time.Millisecond
	f := &fakeOpens{}
	s := New(f.open, f.release)
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	if _, err := s.Await(ctx, "db", time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Renew(ctx, "db", 5*time.Second); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(f.releasedNow()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if r := f.releasedNow(); len(r) != 1 || r[0] != 1 {
		t.Fatalf("released %v, want the replaced value 1", r)
	}
}

// The threat: a database server that accepts connections and never
// answers made every open time out after 10 s, and every call meanwhile
// said "still being opened (opening, 1s so far)" for minutes: the host
// retried forever, and why it failed was only in the server's log. Once an
// open has failed, a call that stops waiting for the next attempt is told
// that failure, retryable; a success forgets it.
func TestAFailedOpenIsToldWhileTheNextOneRuns(t *testing.T) {
	f := &fakeOpens{fail: true}
	s := New(f.open, f.release)
	defer s.Close()
	ctx := context.Background()
	if _, err := s.Await(ctx, "pg", time.Second); err == nil || !strings.Contains(err.Error(), "the database is down") {
		t.Fatalf("the first open: %v, want its failure", err)
	}
	gate := make(chan struct{})
	f.set(func() { f.gate = gate })
	_, err := s.Await(ctx, "pg", 20*time.Millisecond)
	var fe *fault.Error
	if !errors.As(err, &fe) || !fe.Retryable || fe.Code == CodeIndexing || !strings.Contains(fe.Msg, "the database is down") || !strings.Contains(fe.Msg, "another attempt is running") {
		t.Errorf("a call while the next attempt runs: %v, want the last failure, retryable", err)
	}
	f.set(func() { f.fail = false })
	close(gate)
	if v, err := s.Await(ctx, "pg", time.Second); err != nil || v == nil {
		t.Fatalf("the attempt that succeeds: %v", err)
	}
	s.Drop("pg")
	f.set(func() { f.gate = make(chan struct{}) })
	if _, err := s.Await(ctx, "pg", 20*time.Millisecond); !errors.As(err, &fe) || fe.Code != CodeIndexing {
		t.Errorf("after a success the failure is forgotten: %v, want the indexing error", err)
	}
	close(f.gate)
}
