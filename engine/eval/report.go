package eval

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Case statuses.
const (
	StatusPass        = "pass"        // the plan's result matches the gold result
	StatusFail        = "fail"        // it ran, and the results differ
	StatusUnsupported = "unsupported" // the lifter refused a construct the plan language lacks
	StatusError       = "error"       // lifting, validation, rendering or a run failed
)

// Case is the outcome of one question. SQL is the renderer's output for
// the engine (never the gold text); Plan the lifted plan (canonical JSON).
type Case struct {
	ID     string `json:"id"`
	DBID   string `json:"db_id"`
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	Plan   any    `json:"plan,omitempty"`
	SQL    string `json:"sql,omitempty"`
	// PrepareMicros is the time lift + validate + render took, in µs (0
	// when lifting did not start).
	PrepareMicros float64 `json:"prepare_us,omitempty"`
	// PlanSource and Usage are set for planners with an Asker.
	PlanSource string    `json:"plan_source,omitempty"`
	Usage      *AskUsage `json:"usage,omitempty"`
}

// Counts tallies the cases by status.
type Counts struct {
	Pass        int `json:"pass"`
	Fail        int `json:"fail"`
	Unsupported int `json:"unsupported"`
	Error       int `json:"error"`
}

// Timing summarises lift + validate + render time per query, in µs.
type Timing struct {
	N        int     `json:"n"`
	MedianUS float64 `json:"median_us"`
	P95US    float64 `json:"p95_us"`
}

// Report is the result of Run.
type Report struct {
	Suite   string `json:"suite"`
	Engine  string `json:"engine"`
	Planner string `json:"planner"`
	Total   int    `json:"total"`
	Counts  Counts `json:"counts"`
	// ExecutionAccuracy is Counts.Pass / Total (0 for no questions).
	ExecutionAccuracy float64 `json:"execution_accuracy"`
	// Timings.Prepare covers lift + validate + render of every case that
	// got that far (a refused lift counts up to the refusal).
	Timings struct {
		Prepare Timing `json:"lift_validate_render"`
	} `json:"timings"`
	// Usage totals model calls and tokens and gives the latency per
	// question, for planners with an Asker (nil for the oracle).
	Usage *UsageSummary `json:"usage,omitempty"`
	Cases []Case        `json:"cases"`
}

func (r *Report) add(c Case) {
	r.Cases = append(r.Cases, c)
	r.Total++
	switch c.Status {
	case StatusPass:
		r.Counts.Pass++
	case StatusFail:
		r.Counts.Fail++
	case StatusUnsupported:
		r.Counts.Unsupported++
	default:
		r.Counts.Error++
	}
}

func (r *Report) finish(prep []time.Duration) {
	if r.Total > 0 {
		r.ExecutionAccuracy = float64(r.Counts.Pass) / float64(r.Total)
	}
	if len(prep) == 0 {
		return
	}
	us := make([]float64, len(prep))
	for i, d := range prep {
		us[i] = float64(d.Nanoseconds()) / 1e3
	}
	sort.Float64s(us)
	r.Timings.Prepare = Timing{N: len(us), MedianUS: percentile(us, 0.5), P95US: percentile(us, 0.95)}
}

// percentile of sorted xs by the nearest-rank method.
func percentile(xs []float64, p float64) float64 {
	k := int(p*float64(len(xs))+0.999999) - 1
	k = max(0, min(k, len(xs)-1))
	return xs[k]
}

var (
	quotedRe = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'[^']*'`)
	numberRe = regexp.MustCompile(`\b\d+\b`)
)

// reasonGroup is a reason with its particulars (quoted names, numbers)
// blanked, so that like failures group together.
func reasonGroup(status, reason string) string {
	g := quotedRe.ReplaceAllString(reason, "…")
	g = numberRe.ReplaceAllString(g, "N")
	if len(g) > 160 {
		g = g[:160] + "…"
	}
	return status + ": " + g
}

// Summary is a human-readable account: the figures, then every non-passing
// case's reason grouped (largest group first) with up to five case ids.
func (r *Report) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s, planner %s: %d questions; pass %d, fail %d, unsupported %d, error %d; execution accuracy %.4f\n",
		r.Suite, r.Engine, r.Planner, r.Total, r.Counts.Pass, r.Counts.Fail, r.Counts.Unsupported, r.Counts.Error, r.ExecutionAccuracy)
	if u := r.Usage; u != nil {
		fmt.Fprintf(&b, "model calls %d, input tokens %d, output tokens %d; latency per question median %.1f ms, p95 %.1f ms\n",
			u.ModelCalls, u.InputTokens, u.OutputTokens, u.LatencyMedianMS, u.LatencyP95MS)
	}
	if t := r.Timings.Prepare; t.N > 0 {
		fmt.Fprintf(&b, "lift+validate+render per query: median %.0f µs, p95 %.0f µs (%d queries)\n", t.MedianUS, t.P95US, t.N)
	}
	type group struct {
		key string
		ids []string
	}
	idx := map[string]*group{}
	var groups []*group
	for _, c := range r.Cases {
		if c.Status == StatusPass {
			continue
		}
		k := reasonGroup(c.Status, c.Reason)
		g := idx[k]
		if g == nil {
			g = &group{key: k}
			idx[k] = g
			groups = append(groups, g)
		}
		g.ids = append(g.ids, c.ID)
	}
	sort.SliceStable(groups, func(i, j int) bool { return len(groups[i].ids) > len(groups[j].ids) })
	if len(groups) > 0 {
		b.WriteString("not passing, grouped by reason:\n")
	}
	for _, g := range groups {
		ids := g.ids
		more := ""
		if len(ids) > 5 {
			ids, more = ids[:5], ", …"
		}
		fmt.Fprintf(&b, "%4d  %s  [%s%s]\n", len(g.ids), g.key, strings.Join(ids, ", "), more)
	}
	return b.String()
}
