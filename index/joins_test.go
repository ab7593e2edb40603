package index

import (
	"reflect"
	"slices"
	"testing"

	"github.com/nl2sql/nl2sql/index/joins"
)

// TestExpandChinook: joining Artist and InvoiceLine takes Album and Track
// (Artist ← Album ← Track ← InvoiceLine).
func TestExpandChinook(t *testing.T) {
	ix, snap := chinook(t)
	pos := map[string]int{}
	for i, tb := range snap.Tables {
		pos[tb.Name] = i
	}
	kept, bridge := joins.Expand(ix.graph, []int{pos["Artist"], pos["InvoiceLine"]}, slices.Repeat([]bool{true}, len(snap.Tables)), 8)
	var names []string
	for _, k := range kept {
		names = append(names, snap.Tables[k].Name)
	}
	slices.Sort(names)
	if want := []string{"Album", "Artist", "InvoiceLine", "Track"}; !reflect.DeepEqual(names, want) {
		t.Errorf("kept %v, want %v", names, want)
	}
	if !bridge[pos["Album"]] || !bridge[pos["Track"]] || bridge[pos["Artist"]] {
		t.Errorf("bridges = %v", bridge)
	}
}
