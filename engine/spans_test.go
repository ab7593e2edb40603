package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// recordSpans gives e an SDK tracer provider that keeps every ended span.
func recordSpans(e *Engine) *tracetest.SpanRecorder {
	rec := tracetest.NewSpanRecorder()
	e.opts.TracerProvider = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	e.tracer = e.opts.TracerProvider.Tracer(tracerName)
	return rec
}

// checkOneTrace requires spans to be one trace with one root named root,
// every other span's parent among them, and returns the count of each
// span name and each name's parent names.
func checkOneTrace(t *testing.T, spans []sdktrace.ReadOnlySpan, root string) (count map[string]int, parentOf map[string][]string) {
	t.Helper()
	byID := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		byID[s.SpanContext().SpanID().String()] = s
	}
	count, parentOf = map[string]int{}, map[string][]string{}
	roots := 0
	for _, s := range spans {
		count[s.Name()]++
		if s.SpanContext().TraceID() != spans[0].SpanContext().TraceID() {
			t.Errorf("span %s is in another trace", s.Name())
		}
		if !s.Parent().IsValid() {
			roots++
			if s.Name() != root {
				t.Errorf("root %q, want %q", s.Name(), root)
			}
			continue
		}
		p, ok := byID[s.Parent().SpanID().String()]
		if !ok {
			t.Errorf("span %s has its parent outside the trace", s.Name())
			continue
		}
		parentOf[s.Name()] = append(parentOf[s.Name()], p.Name())
	}
	if roots != 1 {
		t.Errorf("%d roots", roots)
	}
	return count, parentOf
}

// A question over two datasources is one trace even though its sub-queries
// run concurrently: each sub-query's planning call and database query nest
// under that sub-query, and the DuckDB combination under the execute step.
// Without a tool call's span (a CLI command) the engine's run is the root.
func TestSpansDecompositionOneTrace(t *testing.T) {
	e, _ := multiEngine(t)
	rec := recordSpans(e)
	if _, err := e.Ask(context.Background(), AskRequest{Question: q1}); err != nil {
		t.Fatal(err)
	}
	count, parentOf := checkOneTrace(t, rec.Ended(), "ask")
	if count["subquery"] != 2 || count["SELECT chinook"] != 1 || count["SELECT targets"] != 1 || count["combine"] != 1 {
		t.Errorf("span counts %v", count)
	}
	for _, name := range []string{"SELECT chinook", "SELECT targets"} {
		if strings.Join(parentOf[name], ",") != "execute" {
			t.Errorf("%s under %v", name, parentOf[name])
		}
	}
	if strings.Join(parentOf["execute"], ",") != "subquery,subquery" && strings.Join(parentOf["execute"], ",") != "subquery,subquery,ask" {
		t.Errorf("execute under %v", parentOf["execute"])
	}
	if strings.Join(parentOf["combine"], ",") != "execute" {
		t.Errorf("combine under %v", parentOf["combine"])
	}
}

// Test-time scaling's candidates are planned and run concurrently; their
// model calls and queries all stay in the request's trace, under the plan
// step.
func TestSpansScalingCandidatesOneTrace(t *testing.T) {
	e := scaleEngine(t, sevenCandidates(true, 0), nil, t.TempDir())
	rec := recordSpans(e)
	if _, err := e.Ask(context.Background(), AskRequest{Question: scaleQ}); err != nil {
		t.Fatal(err)
	}
	count, parentOf := checkOneTrace(t, rec.Ended(), "ask")
	chats := 0
	for name, n := range count {
		if strings.HasPrefix(name, "chat") {
			chats += n
			for _, p := range parentOf[name] {
				if p != "plan" {
					t.Errorf("%s under %s", name, p)
				}
			}
		}
	}
	// 7 candidates + 1 repair attempt + 3 selector pairs; each of the 6
	// candidates that validate runs once, and the winner is not run again
	// but with with_ties, once, to learn whether its limit cut a tie
	if chats != 11 || count["SELECT chinook"] != 7 {
		t.Errorf("%d model calls, counts %v", chats, count)
	}
}

// The trace of one question, as engine/doc.go shows it: the run is the
// root, the steps follow one another under it, and the model call, the
// validation and the query sit inside their steps. Attributes name the
// datasource and count rows; none carries the SQL or a value.
func TestSpansAskTree(t *testing.T) {
	e := chinookEngine(t, "")
	rec := recordSpans(e)
	if _, err := e.Ask(context.Background(), AskRequest{Question: "Which artist has released the most albums?"}); err != nil {
		t.Fatal(err)
	}
	spans := slices.Clone(rec.Ended())
	slices.SortStableFunc(spans, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
	checkOneTrace(t, spans, "ask")
	depth := map[string]int{}
	var b strings.Builder
	for _, s := range spans {
		d := 0
		if s.Parent().IsValid() {
			d = depth[s.Parent().SpanID().String()] + 1
		}
		depth[s.SpanContext().SpanID().String()] = d
		b.WriteString(strings.Repeat("  ", d) + s.Name() + "\n")
		for _, kv := range s.Attributes() {
			if v := kv.Value.Emit(); strings.Contains(v, "FROM") || strings.Contains(v, "Iron Maiden") {
				t.Errorf("%s: attribute %s = %q", s.Name(), kv.Key, v)
			}
		}
	}
	// the answer step checks the top 1 for a tie it cut: one more query
	want := "ask\n  resolve\n  retrieve\n  plan\n    chat recording\n    validate\n  render\n  execute\n    SELECT chinook\n  answer\n    validate\n    SELECT chinook\n"
	if b.String() != want {
		t.Errorf("tree:\n%s\nwant:\n%s", b.String(), want)
	}
}
