package events

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Envelope is a published event with its name and time.
type Envelope struct {
	Name  string
	Time  time.Time
	Event Event
}

// Observer watches events. Observe must not block (queue and return); an
// observer that panics is logged once per event name and skipped, and the
// run goes on (observers fail open).
type Observer interface {
	Observe(ctx context.Context, ev Envelope)
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(ctx context.Context, ev Envelope)

// Observe calls f.
func (f ObserverFunc) Observe(ctx context.Context, ev Envelope) { f(ctx, ev) }

// Bus delivers catalogued events to observers, synchronously and in
// registration order. A nil *Bus drops everything. Safe for concurrent use.
type Bus struct {
	observers []Observer
	log       *slog.Logger
	// Strict makes Publish panic on an uncatalogued event (tests); otherwise
	// such an event is logged and dropped.
	Strict bool
	now    func() time.Time
	warned sync.Map // "observer index/event name" → struct{}
}

// NewBus returns a bus delivering to observers; logger nil means
// slog.Default().
func NewBus(logger *slog.Logger, observers ...Observer) *Bus {
	if logger == nil {
		logger = slog.Default()
	}
	return &Bus{observers: observers, log: logger, now: time.Now}
}

// Publish delivers e to every observer. It never fails the caller: a
// panicking observer is skipped.
func (b *Bus) Publish(ctx context.Context, e Event) {
	if b == nil {
		return
	}
	if why := check(e); why != "" {
		if b.Strict {
			panic("events: " + why)
		}
		b.log.Error("event dropped", "why", why)
		return
	}
	env := Envelope{Name: e.EventName(), Time: b.now().UTC(), Event: e}
	for i, o := range b.observers {
		b.deliver(ctx, i, o, env)
	}
}

func (b *Bus) deliver(ctx context.Context, i int, o Observer, env Envelope) {
	defer func() {
		if v := recover(); v != nil {
			key := fmt.Sprintf("%d/%s", i, env.Name)
			if _, seen := b.warned.LoadOrStore(key, struct{}{}); !seen {
				b.log.Error("event observer panicked; skipped (logged once per event)", "observer", fmt.Sprintf("%T", o), "event", env.Name, "panic", fmt.Sprint(v))
			}
		}
	}()
	o.Observe(ctx, env)
}

// CallerSafe reports whether an event may be shown to the caller.
func CallerSafe(name string) bool { return Catalogue[name].CallerSafe }
