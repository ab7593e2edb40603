package scope_test

import (
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: a role granted a view by name reads it while the tables it
// reads stay hidden; the view's definition names them, and their
// columns, so showing it would tell the role what its policy hides. A
// definition is shown only when a role of the caller reads the view and
// everything it reads whole (views through views too); otherwise it is
// withheld, saying so, and the view's Reads keep only what the caller
// sees.
func TestFilterSnapshotWithholdsDefinitionsNamingHiddenTables(t *testing.T) {
	_, pol := loadPolicy(t, `
datasources:
  - {id: fleet, engine: sqlite, path: CHINOOK}
roles:
  all:
    allow: [fleet]
  board:
    allow: [fleet.main.driver_km, fleet.main.drivers]
  nokm:
    allow: [fleet, fleet.main.driver_km]
    deny: [fleet.main.trips.km]
  summary:
    allow: [fleet.main.km_summary, fleet.main.drivers]
  depot:
    allow: [fleet, fleet.main.driver_km]
    row_filters:
      - {table: fleet.main.trips, where: "driver_id = :me"}
  notrips:
    allow: [fleet, fleet.main.km_summary]
    deny: [fleet.main.trips]
users:
  - {name: ada, roles: [all]}
  - {name: bea, roles: [board]}
  - {name: cem, roles: [nokm]}
  - {name: dov, roles: [summary]}
  - {name: eli, roles: [board, all]}
  - {name: fay, roles: [depot], attributes: {me: 1}}
  - {name: gus, roles: [notrips]}
`)
	col := func(n string) schema.Column { return schema.Column{Name: n, Type: planast.TypeInteger} }
	rel := func(n string) schema.Relation { return schema.Relation{Schema: "main", Name: n} }
	snap := &schema.Snapshot{Datasource: "fleet", Dialect: schema.DialectSQLite, Tables: []schema.Table{
		{Schema: "main", Name: "driver_km", Kind: schema.KindView, Columns: []schema.Column{col("driver_id"), col("km")},
			Reads: []schema.Relation{rel("drivers"), rel("trips")}, Definition: "SELECT d.id AS driver_id, SUM(t.km) AS km FROM trips t JOIN drivers d ON d.id = t.driver_id GROUP BY d.id"},
		{Schema: "main", Name: "drivers", Kind: schema.KindTable, Columns: []schema.Column{col("id")}},
		{Schema: "main", Name: "km_summary", Kind: schema.KindView, Columns: []schema.Column{col("km")},
			Reads: []schema.Relation{rel("driver_km")}, Definition: "SELECT SUM(km) AS km FROM driver_km"},
		{Schema: "main", Name: "trips", Kind: schema.KindTable, Columns: []schema.Column{col("id"), col("driver_id"), col("km")}},
	}}
	pol.SetViews("fleet", snap)
	for _, c := range []struct {
		user, view string
		shown      bool
		reads      []schema.Relation
	}{
		{"ada", "driver_km", true, []schema.Relation{rel("drivers"), rel("trips")}},
		{"bea", "driver_km", false, []schema.Relation{rel("drivers")}},               // trips hidden
		{"cem", "driver_km", false, []schema.Relation{rel("drivers"), rel("trips")}}, // a column of trips hidden
		{"dov", "km_summary", false, nil},                                            // driver_km is hidden from dov
		{"eli", "driver_km", true, []schema.Relation{rel("drivers"), rel("trips")}},  // one of eli's roles reads it all
		{"fay", "driver_km", false, []schema.Relation{rel("drivers"), rel("trips")}}, // trips through a row filter
		{"gus", "km_summary", false, nil},                                            // allowed, driver_km is hidden by what it reads
	} {
		got := user(t, pol, c.user).FilterSnapshot(snap)
		v, _ := got.Lookup("", c.view)
		if v == nil {
			t.Fatalf("%s does not see %s", c.user, c.view)
		}
		if (v.Definition != "") != c.shown || v.DefinitionWithheld == c.shown {
			t.Errorf("%s: %s definition %q, withheld %t; want shown %t", c.user, c.view, v.Definition, v.DefinitionWithheld, c.shown)
		}
		if len(v.Reads) != len(c.reads) || len(c.reads) > 0 && v.Reads[len(v.Reads)-1] != c.reads[len(c.reads)-1] {
			t.Errorf("%s: %s reads %v, want %v", c.user, c.view, v.Reads, c.reads)
		}
	}
	// the snapshot itself keeps its definitions (the engine's copy)
	if snap.Tables[0].Definition == "" || snap.Tables[0].DefinitionWithheld || len(snap.Tables[0].Reads) != 2 {
		t.Errorf("FilterSnapshot changed its input: %+v", snap.Tables[0])
	}
}
