package index

import (
	"context"
	"slices"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// fleetSnapshot is a small naval schema: battle ← ship ← death, with a
// ship table of many attributes, the shape of a schema whose tables a
// question names by name.
func fleetSnapshot() *schema.Snapshot {
	col := func(name string, typ planast.Type) schema.Column { return schema.Column{Name: name, Type: typ} }
	fk := func(c, table string) schema.ForeignKey {
		return schema.ForeignKey{Columns: []string{c}, RefSchema: "main", RefTable: table, RefColumns: []string{"id"}}
	}
	return &schema.Snapshot{Datasource: "fleet", Dialect: schema.DialectSQLite, Tables: []schema.Table{
		{Schema: "main", Name: "battle", Kind: schema.KindTable, PrimaryKey: []string{"id"}, Columns: []schema.Column{
			col("id", planast.TypeInteger), col("name", planast.TypeText), col("date", planast.TypeText),
			col("commander", planast.TypeText), col("result", planast.TypeText)}},
		{Schema: "main", Name: "ship", Kind: schema.KindTable, PrimaryKey: []string{"id"}, Columns: []schema.Column{
			col("id", planast.TypeInteger), col("lost_in_battle", planast.TypeInteger), col("name", planast.TypeText),
			col("tonnage", planast.TypeInteger), col("ship_type", planast.TypeText), col("location", planast.TypeText),
			col("disposition_of_ship", planast.TypeText)},
			ForeignKeys: []schema.ForeignKey{fk("lost_in_battle", "battle")}},
		{Schema: "main", Name: "death", Kind: schema.KindTable, PrimaryKey: []string{"id"}, Columns: []schema.Column{
			col("id", planast.TypeInteger), col("caused_by_ship_id", planast.TypeInteger), col("note", planast.TypeText),
			col("killed", planast.TypeInteger), col("injured", planast.TypeInteger)},
			ForeignKeys: []schema.ForeignKey{fk("caused_by_ship_id", "ship")}},
	}}
}

// TestNamedAttributesNotPaddedByTableName: a question that says in the
// schema's words all it asks for ("the tonnage of each ship") gets the
// columns it names, the keys and the table's label, not every column of
// the table its name ranks: on a small schema those would be most of the
// table, tokens the planner reads for nothing and columns it may pick by
// mistake. A question with a word no name accounts for keeps the ranked
// columns, which are then what may hold that word's meaning.
func TestNamedAttributesNotPaddedByTableName(t *testing.T) {
	ix, err := Build(context.Background(), fleetSnapshot(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	shipCols := func(q string) []string {
		sel, err := ix.Retrieve(context.Background(), q, retrieveOnly, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, ts := range sel.Tables {
			if ts.Name == "ship" {
				return ts.Columns
			}
		}
		t.Fatalf("%q: ship not retrieved: %v", q, tableNames(sel))
		return nil
	}
	named := shipCols("What is the tonnage of each ship?")
	if !slices.Contains(named, "tonnage") {
		t.Errorf("named attribute tonnage not kept: %v", named)
	}
	// keys, label, tonnage and the table's one least column
	if len(named) > 4 {
		t.Errorf("a question naming one attribute of ship kept %d of its 7 columns: %v", len(named), named)
	}
	vague := shipCols("What is the tonnage of each ship that sank in calm seas?")
	if len(vague) <= len(named) {
		t.Errorf("a question with words no name accounts for kept no ranked columns: %v (named only: %v)", vague, named)
	}
}

// TestAccounted: which questions say all they ask for in the schema's
// words (a named table, a named or implied column, a stored value).
func TestAccounted(t *testing.T) {
	ix, err := Build(context.Background(), fleetSnapshot(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	acc := ix.access(nil)
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"What is the tonnage of each ship?", true},
		{"List the name and result of each battle.", true},
		{"How many ships were lost in battle?", true},
		{"Which battles did the admiral win?", false}, // admiral: no name holds it
		{"Show everything.", false},                   // no weighed word: nothing named
	} {
		named := ix.namedColumns(questionWords(tc.q), acc)
		if got := ix.accounted(tc.q, ix.namedTables(tc.q, acc), named, nil); got != tc.want {
			t.Errorf("accounted(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}
