package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// topDB: visits per patient, where the third place is shared by three
// patients (4 visits each), and two patients spelled alike but for an
// accent ('Luis Costa', 'Luís Costa') are different people.
var topDB = []string{
	"CREATE TABLE patients (patient_id INTEGER PRIMARY KEY, full_name TEXT)",
	"INSERT INTO patients VALUES (1, 'Ana Silva'), (2, 'Bruno Reis'), (3, 'Eva Pereira'), (4, 'Luis Costa'), (5, 'Luís Costa'), (6, 'Rui Sousa')",
	"CREATE TABLE visits (id INTEGER PRIMARY KEY, patient_id INTEGER REFERENCES patients(patient_id))",
	"INSERT INTO visits (patient_id) VALUES (1),(1),(1),(1),(1),(1), (2),(2),(2),(2),(2), (3),(3),(3),(3), (4),(4),(4),(4), (5),(5),(5),(5), (6)",
}

func topPlan(limit int, withTies bool) []byte {
	return []byte(fmt.Sprintf(`{"select":[{"expr":{"kind":"column","table":"p","column":"full_name"},"alias":"patient"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"visits"}],`+
		`"from":[{"table":"visits","alias":"v"},{"table":"patients","alias":"p"}],"joins":[{"left":"v","right":"p","on":[{"left_column":"patient_id","right_column":"patient_id"}]}],`+
		`"group_by":[{"kind":"column","table":"p","column":"patient_id"},{"kind":"column","table":"p","column":"full_name"}],`+
		`"order_by":[{"expr":{"kind":"column","column":"visits"},"direction":"desc"}],"limit":%d,"with_ties":%v}`, limit, withTies))
}

// The threat: "the top 3 patients by visits" returns three rows where
// three patients share the third place; the answer names one of them,
// chosen by nothing, and the rows give no sign that two more exist. A
// limit that cut rows tying with the last kept one says so, with the
// with_ties fix and the count it would return; a limit that cut no tie
// says nothing.
func TestLimitThatCutsATieSaysSo(t *testing.T) {
	e := airEngine(t, sourcetest.TempDB(t, topDB...), nil)
	ctx := context.Background()
	res, err := e.RunPlan(ctx, "air", topPlan(3, false))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(res.Warnings, "the limit of 3 cut 2 more rows that tie"); w == "" || !strings.Contains(w, `"with_ties": true`) || !strings.Contains(w, "(5 rows)") {
		t.Errorf("top 3 with a three-way tie for third: warnings %q, want the 2 cut rows named with the with_ties fix", res.Warnings)
	}
	for _, limit := range []int{2, 6} { // no tie at the cut; fewer rows than the limit
		res, err := e.RunPlan(ctx, "air", topPlan(limit, false))
		if err != nil {
			t.Fatal(err)
		}
		if w := warningWith(res.Warnings, "cut"); w != "" {
			t.Errorf("top %d: %q, want no tie warning", limit, w)
		}
	}
	res, err = e.RunPlan(ctx, "air", topPlan(3, true))
	if err != nil || len(res.Rows) != 5 {
		t.Fatalf("with_ties: %v rows, %v; want the 5 rows", res, err)
	}
}

// The threat: grouping by a patient's key and name, a warning said that
// 'Luis Costa' and 'Luís Costa' were one value spelled two ways, split
// into two groups, and told the host to merge them: followed, it would
// add two people's visits together. Grouped by the table's key, each
// group is one row of it, and spellings are not merged; grouped by the
// name alone they still are named.
func TestGroupsByKeyAreNotCalledSpellings(t *testing.T) {
	e := airEngine(t, sourcetest.TempDB(t, topDB...), nil)
	res, err := e.RunPlan(context.Background(), "air", topPlan(10, false))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(res.Warnings, "spelling"); w != "" {
		t.Errorf("grouped by the key: %q, want no spelling warning", w)
	}
	byName := strings.Replace(string(topPlan(10, false)), `{"kind":"column","table":"p","column":"patient_id"},`, "", 1)
	res, err = e.RunPlan(context.Background(), "air", []byte(byName))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(res.Warnings, "spelling"); w == "" {
		t.Errorf("grouped by the name alone: warnings %q, want the spellings named", res.Warnings)
	}
}
