package engine

import (
	"time"

	"github.com/nl2sql/nl2sql/engine/result"
)

// The result of a run (engine/result) keeps its engine names: Ask, RunPlan
// and the other entry points return them.
type (
	// Result is the answer to one question; its JSON is the same on every
	// result path.
	Result = result.Result
	// Usage counts the model work behind a result.
	Usage = result.Usage
	// SubQuery is one datasource query of a result.
	SubQuery = result.SubQuery
	// Timings are wall-clock milliseconds per step.
	Timings = result.Timings
)

type stopwatch = result.Stopwatch

func newStopwatch() *stopwatch { return result.NewStopwatch() }

func ms(d time.Duration) float64 { return result.MS(d) }
