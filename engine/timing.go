package engine

import (
	"crypto/rand"
	"encoding/hex"
	"math"
	"time"
)

// Timings are wall-clock milliseconds per step, rounded to microseconds.
// They are the only part of a Result (with TraceID) that differs between
// two runs on the same inputs and recordings.
type Timings struct {
	Resolve  float64 `json:"resolve_ms"`
	Retrieve float64 `json:"retrieve_ms"`
	Plan     float64 `json:"plan_ms"`
	Render   float64 `json:"render_ms"`
	// Execute is the query's time; for a scaled answer, the candidates'
	// queries (inside Plan, as Model is).
	Execute float64 `json:"execute_ms"`
	Answer  float64 `json:"answer_ms"`
	// Model is the time spent waiting for model calls (inside Plan).
	Model float64 `json:"model_ms"`
	Total float64 `json:"total_ms"`
}

// Overhead is the engine's own time: total minus model and execution.
func (t Timings) Overhead() float64 { return t.Total - t.Model - t.Execute }

func ms(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}

// stopwatch times consecutive steps.
type stopwatch struct {
	start, last time.Time
}

func newStopwatch() *stopwatch {
	now := time.Now()
	return &stopwatch{start: now, last: now}
}

// lap returns the milliseconds since the previous lap.
func (s *stopwatch) lap() float64 {
	now := time.Now()
	d := now.Sub(s.last)
	s.last = now
	return ms(d)
}

func (s *stopwatch) total() float64 { return ms(time.Since(s.start)) }

// newTraceID returns a random 16-byte hex id: unique per run, never derived
// from the question (two runs of one question have two traces).
func newTraceID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
