package joins

import (
	"reflect"
	"slices"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// chain builds the graph 0-1-2-3-4 plus 0-5-4 (a second, longer route).
func chain() [][]Edge {
	g := make([][]Edge, 6)
	for _, p := range [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 5}, {5, 4}} {
		addEdge(g, p[0], p[1], []string{"a"}, []string{"b"}, false)
	}
	return g
}

func allOK(n int) []bool {
	ok := make([]bool, n)
	for i := range ok {
		ok[i] = true
	}
	return ok
}

func TestExpand(t *testing.T) {
	tests := []struct {
		name      string
		seeds     []int
		ok        []bool
		max       int
		kept      []int
		bridges   []int
		unbridged []int
	}{
		{"adjacent", []int{0, 1}, allOK(6), 8, []int{0, 1}, nil, nil},
		{"two bridges", []int{1, 3}, allOK(6), 8, []int{1, 3, 2}, []int{2}, nil},
		{"short route wins", []int{0, 4}, allOK(6), 8, []int{0, 4, 5}, []int{5}, nil},
		{"denied bridge avoided", []int{0, 4}, []bool{true, true, true, true, true, false}, 8, []int{0, 4}, nil, nil},
		{"seed already a bridge", []int{0, 4, 5}, allOK(6), 8, []int{0, 4, 5}, nil, []int{5}},
		{"budget skips a seed", []int{1, 3, 0}, allOK(6), 2, []int{1, 0}, nil, nil},
	}
	for _, tt := range tests {
		kept, bridge := Expand(chain(), tt.seeds, tt.ok, tt.max)
		if !reflect.DeepEqual(kept, tt.kept) {
			t.Errorf("%s: kept = %v, want %v", tt.name, kept, tt.kept)
		}
		for _, b := range tt.bridges {
			if !bridge[b] {
				t.Errorf("%s: %d not a bridge", tt.name, b)
			}
		}
		for _, b := range tt.unbridged {
			if bridge[b] {
				t.Errorf("%s: seed %d marked bridge", tt.name, b)
			}
		}
	}
}

func TestInferredKeys(t *testing.T) {
	tb := func(name string, cols ...string) schema.Table {
		t := schema.Table{Schema: "main", Name: name, Kind: schema.KindTable}
		for _, c := range cols {
			typ := planast.TypeInteger
			if c == "code" || c == "setCode" || c == "name" {
				typ = planast.TypeText
			}
			t.Columns = append(t.Columns, schema.Column{Name: c, Type: typ})
		}
		return t
	}
	snap := &schema.Snapshot{Tables: []schema.Table{
		tb("cards", "id", "name", "setCode"),
		tb("major", "major_id", "name"),
		tb("member", "member_id", "link_to_major"),
		tb("races", "raceId", "name"),
		tb("results", "resultId", "raceId", "driverStandingsId"),
		tb("sets", "id", "code"),
	}}
	g, keys, inferred := Graph(snap)
	if !inferred {
		t.Fatal("no declared keys, want inferred")
	}
	var gotKeys []string
	for i, ks := range keys {
		for _, k := range ks {
			gotKeys = append(gotKeys, snap.Tables[i].Name+"."+snap.Tables[i].Columns[k].Name)
		}
	}
	if want := []string{"cards.id", "major.major_id", "member.member_id", "races.raceId", "results.resultId", "sets.id"}; !reflect.DeepEqual(gotKeys, want) {
		t.Errorf("keys = %v, want %v", gotKeys, want)
	}
	var edges []string
	for i := range g {
		for _, e := range g[i] {
			if i < e.To {
				edges = append(edges, snap.Tables[i].Name+"."+e.Cols[0]+"="+snap.Tables[e.To].Name+"."+e.RefCols[0])
			}
		}
	}
	slices.Sort(edges)
	want := []string{
		"cards.setCode=sets.code",             // reference by name, remaining "code"
		"major.major_id=member.link_to_major", // link words
		"races.raceId=results.raceId",         // same name
	}
	if !reflect.DeepEqual(edges, want) {
		t.Errorf("edges = %v, want %v", edges, want)
	}
	ref := Referencing(snap, g, keys)
	if !ref[4][1] || ref[3][0] || !ref[2][1] {
		t.Errorf("referencing = %v", ref)
	}
	// Declared keys switch inference off for the tables they touch; the
	// tables no declared key touches still get their links inferred.
	snap.Tables[4].ForeignKeys = []schema.ForeignKey{{Columns: []string{"raceId"}, RefSchema: "main", RefTable: "races", RefColumns: []string{"raceId"}}}
	if g, _, inferred := Graph(snap); inferred || len(g[3]) != 1 || len(g[4]) != 1 || g[4][0].Inferred || len(g[0]) != 1 || !g[0][0].Inferred {
		t.Errorf("declared: inferred=%v graph=%v", inferred, g)
	}
	// A key named as another table's key without its key word joins it.
	snap = &schema.Snapshot{Tables: []schema.Table{tb("outlets", "StoreCode", "name"), tb("sales", "saleId", "store", "total")}}
	snap.Tables[0].PrimaryKey = []string{"StoreCode"}
	snap.Tables[0].Columns[0].Type = planast.TypeText
	snap.Tables[1].Columns[1].Type = planast.TypeText
	if g, _, _ := Graph(snap); len(g[1]) != 1 || g[1][0].Cols[0] != "store" || g[1][0].RefCols[0] != "StoreCode" {
		t.Errorf("key without its key word: graph=%v", g)
	}
	// A key shortened in the referencing name ("res_id", "advisor_res_id"
	// for researcher_id) joins the one table whose key reads so; a short
	// form two keys share ("pro_id": product_id, project_id) joins none.
	snap = &schema.Snapshot{Tables: []schema.Table{
		tb("researchers", "researcher_id", "name"), tb("students", "student_id", "advisor_res_id"),
		tb("staffing", "res_id", "pro_id"), tb("products", "product_id"), tb("projects", "project_id")}}
	g, _, _ = Graph(snap)
	edges = edges[:0]
	for i := range g {
		for _, e := range g[i] {
			if i < e.To {
				edges = append(edges, snap.Tables[i].Name+"."+e.Cols[0]+"="+snap.Tables[e.To].Name+"."+e.RefCols[0])
			}
		}
	}
	slices.Sort(edges)
	if want := []string{"researchers.researcher_id=staffing.res_id", "researchers.researcher_id=students.advisor_res_id"}; !reflect.DeepEqual(edges, want) {
		t.Errorf("shortened keys: edges = %v, want %v", edges, want)
	}
}
