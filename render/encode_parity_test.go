package render_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// plainQuery is planast.Query without its MarshalJSON: what encoding/json
// writes from the struct's tags and the nodes' methods.
type plainQuery planast.Query

// encodesAsReflection checks planast.Query's MarshalJSON against
// encoding/json's reflection at every query level of q.
func encodesAsReflection(t *testing.T, id string, q *planast.Query) {
	t.Helper()
	planast.Inspect(q, func(n planast.Node) bool {
		sub, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		raw, err := sub.MarshalJSON()
		// MarshalJSON writes < > & as themselves (planast.JSON), and
		// encoding/json escapes them as it compacts: the same bytes once
		// escaped
		var esc bytes.Buffer
		json.HTMLEscape(&esc, raw)
		got := esc.Bytes()
		want, werr := json.Marshal((*plainQuery)(sub))
		if err != nil || werr != nil || !bytes.Equal(got, want) || !bytes.Equal(sub.Canonical(), want) {
			t.Fatalf("%s: MarshalJSON wrote\n%s (%v)\nencoding/json writes\n%s (%v)", id, got, err, want, werr)
		}
		return true
	})
}

// TestPlansEncodeAsReflectionDoes compares planast.Query's MarshalJSON
// with encoding/json's reflection on the golden, corpus, seed and hostile
// plans and on every gold query of the Spider and BIRD sets lifted into a
// plan, each before and after validation (which sets what the encoding
// carries of its findings).
func TestPlansEncodeAsReflectionDoes(t *testing.T) {
	for _, p := range goldenPlans(t) {
		encodesAsReflection(t, "golden "+p.name, p.v.Plan)
	}
	docs := corpusPlans(t)
	for name, data := range seedPlans(t) {
		docs["seed "+name] = data
	}
	decoded := 0
	for name, data := range docs {
		q, err := planast.Decode(data, planast.DefaultLimits)
		if err != nil {
			continue
		}
		decoded++
		encodesAsReflection(t, name, q)
		if v, err := validate.Plan(q, fuzzCatalog, fuzzOpts); err == nil {
			encodesAsReflection(t, name+" (validated)", v.Plan)
		}
	}
	if decoded < 20 {
		t.Fatalf("only %d corpus plans decoded", decoded)
	}
	for _, s := range goldSuites(t) {
		compared := 0
		s.lift(t, func(id string, snap *schema.Snapshot, plan *planast.Query) {
			encodesAsReflection(t, id, plan)
			if v, err := validate.Plan(plan, snap, validate.Options{}); err == nil {
				encodesAsReflection(t, id+" (validated)", v.Plan)
			}
			compared++
		})
		if compared < 100 {
			t.Fatalf("%s: only %d plans compared", s.suite, compared)
		}
		t.Logf("%s: %d lifted plans compared", s.suite, compared)
	}
}
