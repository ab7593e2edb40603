package events

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// Every catalogued type's JSON fields are exactly its catalogue entry and
// its EventName is its key.
func TestCatalogueMatchesTypes(t *testing.T) {
	for name, spec := range Catalogue {
		if got := JSONFields(spec.Type); !slices.Equal(got, spec.Fields) {
			t.Errorf("%s: fields %v, catalogue %v", name, got, spec.Fields)
		}
		ev := reflect.New(spec.Type).Elem().Interface().(Event)
		if ev.EventName() != name {
			t.Errorf("%s: EventName %q", name, ev.EventName())
		}
	}
}

// rowsLike are field names that would carry data values, keys or secrets.
var rowsLike = regexp.MustCompile(`(?i)^(rows?|values?|samples?|data|args|params|parameters|result|answer|key|secret|token|prompt|messages|sql)$|_(rows|values|key|secret|token)$`)

// No event type has a rows-like field, nor a field of an open type (any,
// maps, slices of anything but strings) that could smuggle values in.
func TestNoRowsLikeFields(t *testing.T) {
	for name, spec := range Catalogue {
		for f := range spec.Type.Fields() {
			json := JSONFields(reflect.StructOf([]reflect.StructField{f}))[0]
			if rowsLike.MatchString(json) {
				t.Errorf("%s.%s: a rows-like field", name, json)
			}
			switch k := f.Type.Kind(); {
			case k == reflect.Interface, k == reflect.Map:
				t.Errorf("%s.%s: open type %s", name, json, f.Type)
			case k == reflect.Slice && f.Type.Elem().Kind() != reflect.String:
				t.Errorf("%s.%s: slice of %s", name, json, f.Type.Elem())
			}
		}
	}
}

type uncatalogued struct{ RunID string }

func (uncatalogued) EventName() string { return "run.secret" }

// extraField has a catalogued name but a field the catalogue lacks.
type extraField struct {
	RunID string `json:"run_id"`
	Step  string `json:"step"`
	Rows  [][]any
}

func (extraField) EventName() string { return NameStepStarted }

// Publishing an uncatalogued event or one with an extra field fails in
// strict mode (tests) and is dropped otherwise.
func TestPublishRefusesUncatalogued(t *testing.T) {
	for _, ev := range []Event{uncatalogued{"r"}, extraField{RunID: "r"}} {
		var seen int
		b := NewBus(nil, ObserverFunc(func(context.Context, Envelope) { seen++ }))
		b.Strict = true
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%T: strict publish did not fail", ev)
				}
			}()
			b.Publish(context.Background(), ev)
		}()
		b.Strict = false
		b.Publish(context.Background(), ev)
		if seen != 0 {
			t.Errorf("%T reached an observer", ev)
		}
	}
}

// An observer that panics is skipped; the next one still sees the event.
func TestPanickingObserverSkipped(t *testing.T) {
	var seen int
	b := NewBus(nil, ObserverFunc(func(context.Context, Envelope) { panic("boom") }), ObserverFunc(func(context.Context, Envelope) { seen++ }))
	for range 3 {
		b.Publish(context.Background(), StepStarted{RunID: "r", Step: "plan"})
	}
	if seen != 3 {
		t.Errorf("second observer saw %d of 3", seen)
	}
}

// A full audit queue drops and counts lines; it never blocks.
func TestAuditDropsWhenFull(t *testing.T) {
	a := &Audit{queue: make(chan Envelope, 1), done: make(chan struct{})}
	close(a.done)
	ev := Envelope{Name: NameRunFinished, Time: time.Now(), Event: RunFinished{RunID: "r"}}
	start := time.Now()
	for range 10 {
		a.Observe(context.Background(), ev)
	}
	if a.Dropped() != 9 || time.Since(start) > time.Second {
		t.Errorf("dropped %d in %v", a.Dropped(), time.Since(start))
	}
}

// The OpenTelemetry observer records metrics under the MCP and GenAI
// semantic-convention names, every run kind with its tool's name.
func TestOTelNames(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	o, err := NewOTel(mp)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBus(nil, o)
	ctx := context.Background()
	b.Publish(ctx, ModelCall{RunID: "r", Step: "plan", Provider: "openai", Model: "gpt-4.1", InputTokens: 100, OutputTokens: 20, DurationMS: 12})
	for _, kind := range []string{"ask", "explain", "verified", "run_plan"} {
		b.Publish(ctx, RunFinished{RunID: "r", Kind: kind, Status: "ok", DurationMS: 30, RowCount: 3})
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	var metrics []string
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			metrics = append(metrics, m.Name)
		}
	}
	slices.Sort(metrics)
	want := "gen_ai.client.operation.duration,gen_ai.client.token.usage,mcp.server.operation.duration,nl2sql.runs"
	if strings.Join(metrics, ",") != want {
		t.Errorf("metrics %v", metrics)
	}
	var tools []string
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if h, ok := m.Data.(metricdata.Histogram[float64]); ok && m.Name == "mcp.server.operation.duration" {
				for _, dp := range h.DataPoints {
					v, _ := dp.Attributes.Value("gen_ai.tool.name")
					tools = append(tools, v.AsString())
				}
			}
		}
	}
	slices.Sort(tools)
	if strings.Join(tools, ",") != "ask,explain_plan,run_plan,run_verified_query" {
		t.Errorf("tool names %q", tools)
	}
}

// Every finished run is one audit line carrying its time, its event name and
// its fields, readable as soon as the writer has caught up (not held in a
// buffer until the process stops, where a crash would lose it).
func TestAuditLinesWrittenWhenQueueDrains(t *testing.T) {
	dir := t.TempDir()
	a, err := OpenAudit(dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	at := time.Date(2026, 3, 4, 5, 6, 7, 8e6, time.UTC)
	const n = 40
	for i := range n {
		a.Observe(context.Background(), Envelope{Name: NameRunFinished, Time: at,
			Event: RunFinished{RunID: fmt.Sprintf("r%d", i), Kind: "run_plan", Status: "ok", RowCount: i}})
	}
	var lines []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(filepath.Join(dir, "audit-2026-03-04.jsonl"))
		if lines = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"); len(lines) == n {
			break
		}
	}
	if len(lines) != n {
		t.Fatalf("%d audit lines readable before close, want %d", len(lines), n)
	}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", i, err, l)
		}
		if m["time"] != "2026-03-04T05:06:07.008Z" || m["event"] != NameRunFinished || m["run_id"] != fmt.Sprintf("r%d", i) ||
			m["row_count"] != float64(i) || m["status"] != "ok" {
			t.Errorf("line %d: %s", i, l)
		}
	}
}
