package index

import (
	"slices"
	"testing"
)

// TestPeopleBridgeLabelWhenAskedWho: a question asking who ("who heads
// the Cedar ward") names the person by their role in another table
// (ward.head_id), so the table of people is kept only to join two others
// (a bridge). Its first and family name must still be kept: without them
// the planner can answer "who" with an id at best.
func TestPeopleBridgeLabelWhenAskedWho(t *testing.T) {
	ix := synthIndex(t, "labwork")
	tab := func(name string) int {
		for i, tb := range ix.snap.Tables {
			if tb.Name == name {
				return i
			}
		}
		t.Fatalf("no table %s", name)
		return -1
	}
	ward, clin, result := tab("ward"), tab("clinician"), tab("lab_result")
	for _, tc := range []struct {
		name    string
		asksWho bool
		want    bool
	}{
		{"asks who", true, true},
		{"asks for a count", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := plan{ix: ix, acc: ix.access(nil), b: Budget{}.withDefaults(), tun: DefaultTuning, asksWho: tc.asksWho,
				named: map[int]bool{}, namedCols: map[[2]int]bool{}, top: map[int]bool{}}
			p.count()
			keep := p.columns([]int{ward, clin, result}, map[int]bool{clin: true}, map[int]bool{}, 0)
			var got []string
			for k := range keep {
				if k[0] == clin {
					got = append(got, ix.snap.Tables[clin].Columns[k[1]].Name)
				}
			}
			for _, c := range []string{"first_name", "last_name"} {
				if slices.Contains(got, c) != tc.want {
					t.Errorf("clinician.%s kept = %v, want %v (kept %v)", c, !tc.want, tc.want, got)
				}
			}
		})
	}
}
