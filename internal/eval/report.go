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
	// StatusRuns: it ran on a database with no rows (BIRD's schema-only
	// files), so both results are empty and say nothing about accuracy.
	StatusRuns = "runs"
)

// Match kinds of a passing case.
const (
	MatchExact = "exact" // the rows match by the comparison rules, no tie allowance
	// MatchTie: the rows differ, but the gold rows are another valid answer
	// of the plan because ORDER BY keys tie (at any depth) or a LIMIT
	// without ORDER BY may keep any rows. The field's official evaluators
	// count these as failures.
	MatchTie = "tie"
)

// Case is the outcome of one question. SQL is the renderer's output for
// the engine (never the gold text); Plan the lifted plan (canonical JSON).
type Case struct {
	ID       string `json:"id"`
	DBID     string `json:"db_id"`
	Question string `json:"question"`
	GoldSQL  string `json:"gold_sql"`
	Status   string `json:"status"`
	// Match is MatchExact or MatchTie for a passing case.
	Match  string `json:"match,omitempty"`
	Reason string `json:"reason,omitempty"`
	Plan   any    `json:"plan,omitempty"`
	// SQL is the predicted SQL: what ran on the engine.
	SQL string `json:"sql,omitempty"`
	// Rowless: the question's database has no rows (see StatusRuns).
	Rowless bool `json:"rowless,omitempty"`
	// PrepareMicros is the time lift + validate + render took, in µs (0
	// when lifting did not start).
	PrepareMicros float64 `json:"prepare_us,omitempty"`
	// PlanSource and Usage are set for planners with an Asker.
	PlanSource string    `json:"plan_source,omitempty"`
	Usage      *AskUsage `json:"usage,omitempty"`
}

// Counts tallies the cases by status.
type Counts struct {
	Pass        int `json:"pass"`         // Exact + TieAccepted
	Exact       int `json:"exact"`        // passes with no tie allowance
	TieAccepted int `json:"tie_accepted"` // passes only because ORDER BY keys tie
	Fail        int `json:"fail"`
	Unsupported int `json:"unsupported"`
	Error       int `json:"error"`
	Runs        int `json:"runs"` // ran on a database with no rows
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
	// Compared counts the questions whose database has rows: the
	// denominator of the accuracies. Questions on a database with no rows
	// (Rowless) are reported as runs.
	Compared int `json:"compared"`
	Rowless  int `json:"rowless"`
	// ExecutionAccuracy is Counts.Exact / Compared, with no tie allowance
	// (comparable with the benchmarks' official evaluators);
	// AccuracyWithTies is Counts.Pass / Compared. Both are null when no
	// question could be compared.
	ExecutionAccuracy *float64 `json:"execution_accuracy"`
	AccuracyWithTies  *float64 `json:"accuracy_with_ties"`
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
	if c.Status == StatusRuns || c.Rowless {
		r.Rowless++
	} else {
		r.Compared++
	}
	switch c.Status {
	case StatusPass:
		r.Counts.Pass++
		if c.Match == MatchTie {
			r.Counts.TieAccepted++
		} else {
			r.Counts.Exact++
		}
	case StatusRuns:
		r.Counts.Runs++
	case StatusFail:
		r.Counts.Fail++
	case StatusUnsupported:
		r.Counts.Unsupported++
	default:
		r.Counts.Error++
	}
}

func (r *Report) finish(prep []time.Duration) {
	if r.Compared > 0 {
		ea := float64(r.Counts.Exact) / float64(r.Compared)
		wt := float64(r.Counts.Pass) / float64(r.Compared)
		r.ExecutionAccuracy, r.AccuracyWithTies = &ea, &wt
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
	fmt.Fprintf(&b, "%s on %s, planner %s: %d questions; pass %d (exact %d, tie-accepted %d), fail %d, unsupported %d, error %d\n",
		r.Suite, r.Engine, r.Planner, r.Total, r.Counts.Pass, r.Counts.Exact, r.Counts.TieAccepted, r.Counts.Fail, r.Counts.Unsupported, r.Counts.Error)
	if r.ExecutionAccuracy != nil {
		fmt.Fprintf(&b, "execution accuracy %.4f (exact passes %d / %d, no tie allowance: comparable with the official evaluator); with tie allowance %.4f (%d / %d)\n",
			*r.ExecutionAccuracy, r.Counts.Exact, r.Compared, *r.AccuracyWithTies, r.Counts.Pass, r.Compared)
	} else {
		b.WriteString("execution accuracy n/a: no question has a database with rows\n")
	}
	if r.Rowless > 0 {
		fmt.Fprintf(&b, "%d questions on databases with no rows (schema only): %d ran; reported as runs, not execution accuracy\n", r.Rowless, r.Counts.Runs)
	}
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
		if c.Status == StatusPass || c.Status == StatusRuns {
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
