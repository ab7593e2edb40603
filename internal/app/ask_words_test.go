package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// bikeshareStmts is a small bike-sharing database: riders, stations,
// trips with a distance in km.
var bikeshareStmts = []string{
	"CREATE TABLE riders (rider_id INTEGER PRIMARY KEY, full_name TEXT, joined_at TEXT)",
	"INSERT INTO riders VALUES (1, 'Zoë Ångström', '2024-01-03'), (2, 'Ann Lee', '2024-02-01')",
	"CREATE TABLE stations (station_id INTEGER PRIMARY KEY, name TEXT, city TEXT)",
	"INSERT INTO stations VALUES (1, 'Bellevue', 'Zurich'), (2, 'Oerlikon', 'Zurich')",
	"CREATE TABLE trips (trip_id INTEGER PRIMARY KEY, rider_id INTEGER REFERENCES riders(rider_id), start_station INTEGER REFERENCES stations(station_id), started_at TEXT, distance_km REAL, fare REAL, status TEXT)",
	"INSERT INTO trips VALUES (1, 1, 1, '2024-06-01 08:00', 3.2, 4.0, 'done'), (2, 2, 2, '2024-06-02 09:00', 5.5, 6.2, 'done'), (3, 1, 2, '2024-06-03 09:00', 0.4, 1.0, 'done')",
}

// openConfig writes nl2sql.yaml (and curated.yaml when curated is not
// "") in a temporary directory and opens it.
func openConfig(t *testing.T, datasources, curated string) *App {
	t.Helper()
	dir := t.TempDir()
	cfg := "storage: {path: " + filepath.Join(dir, "state") + "}\ndatasources:\n" + datasources
	if curated != "" {
		if err := os.WriteFile(filepath.Join(dir, "curated.yaml"), []byte(curated), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg += "curated: " + filepath.Join(dir, "curated.yaml") + "\n"
	}
	path := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Open(path, quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// The threat: a reviewed query written for "Which trips were longer than
// 4 km?" is not offered when the question writes its distance with a
// decimal point or comma, or glues the unit on, so the host plans it
// anew (or is told "longer" may not be stored); worse, it is offered
// with km 4 for "4.5km". The query is offered, with the distance as
// written, and no word of the question is called unstored.
func TestVerifiedQueryOfferedForDecimalNumbers(t *testing.T) {
	db := sourcetest.TempDB(t, bikeshareStmts...)
	a := openConfig(t, fmt.Sprintf("  - {id: bikes, engine: sqlite, path: %q}\n", db), `verified_queries:
  - id: trips_longer_than
    datasource: bikes
    description: Trips longer than a distance in km
    questions: ["Which trips were longer than 4 km?"]
    sql: SELECT trip_id, distance_km FROM trips WHERE distance_km > :km ORDER BY trip_id
    params:
      - {name: km, type: number, required: true, example: 4}
`)
	for _, c := range []struct{ question, km string }{
		{"Which trips were longer than 4.5 km?", "4.5"},
		{"Which trips were longer than 0.5 km?", "0.5"},
		{"Which trips were longer than 4,5 km?", "4.5"},
		{"Which trips were longer than 4.5km?", "4.5"},
		{"Which trips were longer than 10 km?", "10"},
		{"Which trips were longer than 1,200 km?", "1200"},
	} {
		res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: c.question})
		if err != nil || res.HostPlan == nil {
			t.Fatalf("%q: %v %+v", c.question, err, res)
		}
		hp := res.HostPlan
		if len(hp.VerifiedQueries) == 0 || hp.VerifiedQueries[0].ID != "trips_longer_than" {
			t.Errorf("%q: verified queries %+v, want trips_longer_than", c.question, hp.VerifiedQueries)
			continue
		}
		args, _ := json.Marshal(hp.VerifiedQueries[0].Call.Arguments)
		if want := `{"id":"trips_longer_than","params":{"km":` + c.km + `}}`; string(args) != want || len(hp.VerifiedQueries[0].Call.Missing) > 0 {
			t.Errorf("%q: call %s missing %v, want %s", c.question, args, hp.VerifiedQueries[0].Call.Missing, want)
		}
		if len(hp.Unmatched) > 0 {
			t.Errorf("%q: unmatched %v, want none (longer compares distance_km)", c.question, hp.Unmatched)
		}
	}
}

// The threat: with two datasources, a question neither holds a word of
// ("weather") was handed over as if it matched, the host told that the
// schema context "matches the question's other words" (there were none,
// and no context), or one unrelated datasource was picked whole because a
// track is called "Today"; the host plans over data that cannot answer.
// As with one datasource, the result says nothing matched; a question one
// of them matches is still planned there.
func TestNoDatasourceMatchesTheQuestion(t *testing.T) {
	db := sourcetest.TempDB(t, bikeshareStmts...)
	chinook, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	a := openConfig(t, fmt.Sprintf("  - {id: bikeshare, engine: sqlite, path: %q}\n  - {id: chinook, engine: sqlite, path: %q}\n", db, chinook), "")
	for _, c := range []struct {
		question string
		noMatch  bool
		pick     string
	}{
		{"weather", true, ""},
		{"What is the weather today?", true, ""},
		{"Will the weather be sunny tomorrow?", true, ""},
		{"How many tracks are in the Rock genre?", false, "chinook"},
		{"Which trips were longer than 4 km?", false, "bikeshare"},
	} {
		res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: c.question})
		if err != nil || res.HostPlan == nil {
			t.Fatalf("%q: %v %+v", c.question, err, res)
		}
		hp := res.HostPlan
		if hp.NoMatch != c.noMatch || strings.Contains(hp.Next, "may not hold the answer") != c.noMatch {
			t.Errorf("%q: no_match %v, next %q; want no_match %v said so", c.question, hp.NoMatch, hp.Next, c.noMatch)
		}
		if c.noMatch && (len(hp.Unmatched) > 0 || hp.Datasource != "" || strings.Contains(hp.Next, "other words") || strings.Contains(hp.Next, "Several datasources may hold")) {
			t.Errorf("%q: datasource %q, unmatched %v, next %q: want no pick, no unmatched words and no other words", c.question, hp.Datasource, hp.Unmatched, hp.Next)
		}
		if !c.noMatch && hp.Datasource != c.pick {
			t.Errorf("%q: picked %q, want %q", c.question, hp.Datasource, c.pick)
		}
	}
	// a datasource named by the caller that holds nothing of the
	// question: no hint to combine its rows with another's
	res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: "weather", Datasource: "chinook"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("weather on chinook: %v %+v", err, res)
	}
	if hp := res.HostPlan; !hp.NoMatch || strings.Contains(hp.Next, "run_combined_plan") || strings.Contains(hp.Next, "other words") {
		t.Errorf("weather on chinook: no_match %v, next %q: want no_match and no combining", hp.NoMatch, hp.Next)
	}
}

// The threat: a host told to "say so rather than answer" of a verb or an
// adjective nothing spells ("refunded") refuses a question a column of
// another name answers; told nothing of a noun nothing holds ("lanes"),
// it answers without the fact. The first is to be looked for in the
// schema, the second said.
func TestUnmatchedNoteWeighsTheWord(t *testing.T) {
	db := sourcetest.TempDB(t, bikeshareStmts...)
	a := openConfig(t, fmt.Sprintf("  - {id: bikes, engine: sqlite, path: %q}\n", db), "")
	for _, c := range []struct {
		question, word string
		fact           bool
	}{
		{"How many kilometres of bike lanes does each station have?", `"lanes"`, true},
		{"Which riders gave a reason for each trip?", `"reason"`, true},
		{"Which trips were refunded?", `"refunded"`, false},
		{"Which trips were shared by riders?", `"shared"`, false},
	} {
		res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: c.question})
		if err != nil || res.HostPlan == nil {
			t.Fatalf("%q: %v %+v", c.question, err, res)
		}
		next := res.HostPlan.Next
		if !strings.Contains(next, c.word) || !strings.Contains(next, "synonym") {
			t.Errorf("%q: next %q: want %s named and a synonym looked for", c.question, next, c.word)
		}
		if said := strings.Contains(next, "say so rather than answer"); said != c.fact {
			t.Errorf("%q: next %q: say so %v, want %v", c.question, next, said, c.fact)
		}
	}
}
