package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

const genreTracksPlan = `{"select":[{"expr":{"kind":"column","table":"g","column":"Name"},"alias":"genre"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"tracks"}],` +
	`"from":[{"table":"Genre","alias":"g"},{"table":"Track","alias":"t"}],"joins":[{"left":"g","right":"t","on":[{"left_column":"GenreId","right_column":"GenreId"}]}],` +
	`"group_by":[{"kind":"column","table":"g","column":"GenreId"}],"order_by":[{"expr":{"kind":"column","column":"tracks"},"direction":"desc"}],"limit":3}`

// The same question split over two datasources: genres in one, tracks
// counted in the other, joined by the combination.
const genreTracksCombined = `{"sources":[` +
	`{"name":"a","datasource":"one","plan":{"select":[{"expr":{"kind":"column","table":"g","column":"GenreId"},"alias":"id"},{"expr":{"kind":"column","table":"g","column":"Name"},"alias":"name"}],"from":[{"table":"Genre","alias":"g"}]}},` +
	`{"name":"b","datasource":"two","plan":{"select":[{"expr":{"kind":"column","table":"t","column":"GenreId"},"alias":"gid"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"Track","alias":"t"}],"group_by":[{"kind":"column","table":"t","column":"GenreId"}]}}],` +
	`"combine":{"select":[{"expr":{"kind":"column","table":"a","column":"name"},"alias":"genre"},{"expr":{"kind":"column","table":"b","column":"n"},"alias":"tracks"}],"from":[{"table":"a","alias":"a"},{"table":"b","alias":"b"}],` +
	`"joins":[{"left":"a","right":"b","on":[{"left_column":"id","right_column":"gid"}]}],"order_by":[{"expr":{"kind":"column","column":"tracks"},"direction":"desc"}],"limit":3}}`

// A host's tool call saved to a file (run_plan's or run_combined_plan's
// arguments, as a transcript or trace holds them) runs from a shell as it
// is: refusing it for its wrapper ("unknown field datasource") left the
// user to unwrap it by hand, and a plan across datasources had no command
// at all. The rows must be the ones the plain plan gives.
func TestPlanRunTakesToolArguments(t *testing.T) {
	dir := t.TempDir()
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	state := filepath.Join(dir, "state")
	src, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	db2 := filepath.Join(dir, "copy.sqlite") // one database is refused as two
	if err := os.WriteFile(db2, src, 0o600); err != nil {
		t.Fatal(err)
	}
	rowsOf := func(args ...string) [][]any {
		t.Helper()
		out, err := runCLI(append([]string{"plan", "run", "--storage", state, "--json"}, args...)...)
		if err != nil {
			t.Fatalf("plan run %v: %v\n%s", args[len(args)-1][:40], err, out)
		}
		var r struct {
			Rows [][]any `json:"rows"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Rows) == 0 {
			t.Fatalf("plan run: %v %.300s", err, out)
		}
		return r.Rows
	}
	want := rowsOf("--db", "one="+db, genreTracksPlan)
	wrapped := rowsOf("--db", "one="+db, "--db", "two="+db2, `{"datasource":"one","plan":`+genreTracksPlan+`}`)
	quoted, _ := json.Marshal(genreTracksPlan) // a host that sent the plan as a string
	asString := rowsOf("--db", "one="+db, `{"plan":`+string(quoted)+`}`)
	combined := rowsOf("--db", "one="+db, "--db", "two="+db2, genreTracksCombined)
	flagged := rowsOf("--db", "one="+db, "--db", "two="+db2, "--datasource", "two", genreTracksPlan)
	for name, got := range map[string][][]any{"a plan with --datasource": flagged, "run_plan's arguments": wrapped, "a plan sent as a string": asString, "run_combined_plan's arguments": combined} {
		if !slices.EqualFunc(got, want, func(a, b []any) bool { return slices.Equal(a, b) }) {
			t.Errorf("%s: rows %v, want %v", name, got, want)
		}
	}

	for _, c := range []struct {
		name, flagDS, doc, says string
	}{
		{"disagreeing datasources", "two", `{"datasource":"one","plan":` + genreTracksPlan + `}`, "disagree"},
		{"a key beside plan", "", `{"plan":` + genreTracksPlan + `,"select":[]}`, `"select" beside "plan"`},
		{"--datasource with a combined plan", "one", genreTracksCombined, "does not apply"},
		{"a key beside sources", "", strings.Replace(genreTracksCombined, `"combine"`, `"combined"`, 1), `no key "combined"`},
	} {
		args := []string{"plan", "run", "--storage", state, "--db", "one=" + db, "--db", "two=" + db2}
		if c.flagDS != "" {
			args = append(args, "--datasource", c.flagDS)
		}
		_, err := runCLI(append(args, c.doc)...)
		var ee *engine.Error
		if !errors.As(err, &ee) || ee.Code != engine.CodeInvalidRequest || !strings.Contains(ee.Msg, c.says) || ee.Hint == "" {
			t.Errorf("%s: %v, want INVALID_REQUEST saying %q with a hint", c.name, err, c.says)
		}
	}
	file := filepath.Join(dir, "combined.json")
	os.WriteFile(file, []byte(genreTracksCombined), 0o600)
	_, err = runCLI("plan", "check", "--storage", state, "--db", "one="+db, file)
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Code != engine.CodeInvalidRequest || !strings.Contains(ee.Hint, "plan run") {
		t.Errorf("plan check of a combined plan: %v, want INVALID_REQUEST pointing at plan run", err)
	}
}

// A command that reads no datasource, given --config or --db, says why
// the flag does not apply and where a datasource is read, instead of a
// bare "unknown flag" (`schema guide --config` puzzled a newcomer who
// expected a guide for their database). A misspelt flag stays unknown.
func TestSourcelessCommandsSayWhyTheyTakeNoConfig(t *testing.T) {
	for _, args := range [][]string{
		{"schema", "guide", "--config", "x.yaml"},
		{"schema", "plan", "--db=x.sqlite"},
		{"version", "--datasource", "d"},
	} {
		_, err := runCLI(args...)
		var ee *engine.Error
		if !errors.As(err, &ee) || ee.Code != engine.CodeInvalidRequest || !strings.Contains(ee.Msg, "reads no datasource") || !strings.Contains(ee.Hint, "schema show") {
			t.Errorf("%v: %v, want INVALID_REQUEST saying it reads no datasource", args, err)
		}
	}
	// a command that reads its datasource from a config file only is not
	// said to read none
	_, err := runCLI("semantic", "suggest", "--db", "x.sqlite", "--datasource", "x")
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Code != engine.CodeInvalidRequest || strings.Contains(ee.Msg, "reads no datasource") || !strings.Contains(ee.Msg, "--config only") {
		t.Errorf("semantic suggest --db: %v, want it said to read its datasource from --config only", err)
	}
	if _, err := runCLI("schema", "guide", "--configx", "x"); err == nil || !strings.Contains(err.Error(), "unknown flag: --configx") {
		t.Errorf("a misspelt flag: %v", err)
	}
}
