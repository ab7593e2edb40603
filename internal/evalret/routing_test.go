package evalret

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/nl2sql/nl2sql/engine/multi"
)

// Routing ranks every question of a split against all the suite's
// databases (not only its own half's), and a wrong pick, which answers from
// the wrong data, stays rare: on Spider's tuning half the ranking is what
// was tuned on, so its floor is near the measured 0.99.
func TestSpiderRouting(t *testing.T) {
	dir := sharedDir(t)
	rep, err := Routing(context.Background(), Config{Dataset: "spider", Split: SplitTuning, Cases: true,
		Questions: filepath.Join(dir, "eval", "spider", "dev.json"), DBRoot: filepath.Join(dir, "eval", "spider", "database")})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("spider routing (tuning): %d questions, top1 %.3f picked %.3f right %.3f offered %.3f", rep.Questions, rep.Top1, rep.Picked, rep.PickedRight, rep.Offered)
	if rep.Datasources != 11 || rep.Questions < 300 || len(rep.Cases) != rep.Questions {
		t.Fatalf("%d questions (%d cases) over %d datasources, want about 360 over all 11", rep.Questions, len(rep.Cases), rep.Datasources)
	}
	for _, c := range rep.Cases {
		if HalfOf(c.DB) != SplitTuning || len(c.Ranked) != min(rep.Datasources, multi.MaxCandidates) {
			t.Fatalf("case %+v: not of the tuning half, or not the shortlist of every datasource", c)
		}
	}
	if rep.Top1 < 0.98 || rep.PickedRight < 0.99 || rep.Picked < 0.9 {
		t.Errorf("routing below its floor: %+v", *rep)
	}
}
