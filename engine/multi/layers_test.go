package multi

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/nl2sql/nl2sql/duckcompute"
)

// Threat: the layers of a decomposition come out in map order, so the same
// question runs its sub-queries and combine groups in a different order
// from run to run (different trace ids, different combination SQL, results
// that are not byte-identical). With twelve sub-queries and six groups in
// a layer, an unsorted layer is sorted by chance with probability below
// 1/10⁸ per run, and the test makes fifty runs over shuffled inputs: a
// regression fails every time, not now and then.
func TestDecompositionLayersDeterministic(t *testing.T) {
	var subs []Sub
	for i := range 12 {
		subs = append(subs, Sub{ID: fmt.Sprintf("sq_%02d", i)})
	}
	groups := map[string]duckcompute.Group{}
	inputs := map[string][]string{}
	for i := range 6 {
		id := fmt.Sprintf("cg_%02d", i)
		groups[id] = duckcompute.Group{Name: id}
		inputs[id] = []string{subs[2*i+1].ID, subs[2*i].ID}
	}
	groups["cg_top"] = duckcompute.Group{Name: "cg_top"}
	inputs["cg_top"] = []string{"cg_05", "cg_00", "cg_03"}

	var first string
	rng := rand.New(rand.NewPCG(1, 2))
	for run := range 50 {
		shuffled := append([]Sub(nil), subs...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		c := &checker{}
		layers, order, ok := c.layers(shuffled, groups, inputs)
		if !ok || len(layers) != 3 || len(layers[0]) != 12 || len(layers[1]) != 6 || len(layers[2]) != 1 {
			t.Fatalf("run %d: layers %v (%v)", run, layers, c.issues)
		}
		for i, l := range layers {
			if !sort.StringsAreSorted(l) {
				t.Fatalf("run %d: layer %d not sorted: %v", run, i, l)
			}
		}
		var names []string
		for _, g := range order {
			names = append(names, g.Name)
		}
		if !sort.StringsAreSorted(names[:6]) || names[6] != "cg_top" {
			t.Fatalf("run %d: groups in order %v", run, names)
		}
		b, _ := json.Marshal(layers)
		if run == 0 {
			first = string(b)
		} else if string(b) != first {
			t.Fatalf("run %d: layers %s, first run %s", run, b, first)
		}
	}
}
