package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	_ "modernc.org/sqlite" // the writable driver, to build the synthetic databases

	"github.com/nl2sql/nl2sql/index/joins"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// synthCase is one question over a synthetic schema (testdata/synthetic)
// and what its answer needs, written from the threat it guards.
type synthCase struct {
	Schema   string   `json:"schema"`
	Threat   string   `json:"threat"`
	Question string   `json:"question"`
	Tables   []string `json:"tables"`
	Columns  []string `json:"columns"`
}

// synthCases are the cases of testdata/synthetic/cases.json.
func synthCases(t *testing.T) []synthCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "synthetic", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []synthCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// synthIndex builds the SQLite database of testdata/synthetic/<name>.sql,
// snapshots, profiles and indexes it with its values.
func synthIndex(t *testing.T, name string) *Index {
	t.Helper()
	ddl, err := os.ReadFile(filepath.Join("testdata", "synthetic", name+".sql"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name+".sqlite")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(ddl)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ctx := context.Background()
	src, err := sqlite.OpenSQLite(ctx, name, path, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	snap, err := src.Snapshot(ctx)
	if err == nil {
		err = src.Profile(ctx, snap)
	}
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Build(ctx, snap, nil, Options{Values: sourceValues(src)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// TestSyntheticSchemas: on schemas shaped like the ones retrieval misses
// (a person through a link table, link tables with no declared keys, a
// fact table named after neither its measures nor its grain, columns in
// short forms such as Fname and surname, a database with no rows whose
// keys are named without their key word), retrieval
// with the whole-schema rule off keeps every table and column the
// question's answer needs, while sending at most 60% of the schema's
// columns (a selection of everything would pass any recall check).
func TestSyntheticSchemas(t *testing.T) {
	cases := synthCases(t)
	ixs := map[string]*Index{}
	for _, c := range cases {
		ix := ixs[c.Schema]
		if ix == nil {
			ix = synthIndex(t, c.Schema)
			ixs[c.Schema] = ix
		}
		t.Run(c.Question, func(t *testing.T) { checkSynthCase(t, ix, c) })
	}
}

// checkSynthCase retrieves c's question from ix with the whole-schema
// rule off and checks that the selection keeps every table and column
// c's answer needs, within 60% of the schema's columns.
func checkSynthCase(t *testing.T, ix *Index, c synthCase) {
	t.Helper()
	sel, err := ix.Retrieve(context.Background(), c.Question, Budget{WholeSchemaTokens: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tables, cols []string
	for _, ts := range sel.Tables {
		tables = append(tables, ts.Name)
		for _, col := range ts.Columns {
			cols = append(cols, ts.Name+"."+col)
		}
	}
	for _, want := range c.Tables {
		if !slices.Contains(tables, want) {
			t.Errorf("table %s missing (%s); kept %v", want, c.Threat, tables)
		}
	}
	for _, want := range c.Columns {
		if !slices.Contains(cols, want) {
			t.Errorf("column %s missing (%s); kept %v", want, c.Threat, cols)
		}
	}
	all := 0
	for _, tb := range ix.snap.Tables {
		all += len(tb.Columns)
	}
	if share := float64(len(cols)) / float64(all); share > 0.6 {
		t.Errorf("kept %d of %d columns (share %.2f > 0.6)", len(cols), all, share)
	}
}

// TestSyntheticRulesWithoutRank: the columns a question names, spells
// out or implies, a named table's label and a year stored as a REAL are
// kept by rule, whatever their rank. On a schema as small as gallery the
// default rank cut (2·√d documents, a column per seed table) keeps most
// columns anyway and would hide a broken rule, while on a large schema
// such a column falls under the cut and the planner never sees it. So the
// gallery cases run here with no column kept by rank and no fill: each
// column they need must come from a rule.
func TestSyntheticRulesWithoutRank(t *testing.T) {
	cases := synthCases(t)
	for _, schema := range []string{"gallery", "orchard", "bursary", "labwork"} {
		ix := synthIndex(t, schema)
		ix.opts.Tuning = DefaultTuning
		ix.opts.Tuning.ColumnDocScale = 0
		ix.opts.Tuning.MinColumns = 0
		ix.opts.Tuning.FillShare = 0
		ix.opts.Tuning.FillColumns = 0
		n := 0
		for _, c := range cases {
			if c.Schema != schema {
				continue
			}
			n++
			t.Run(c.Question, func(t *testing.T) { checkSynthCase(t, ix, c) })
		}
		if n == 0 {
			t.Fatalf("no %s cases", schema)
		}
	}
}

// TestShortNamesAndUnprofiledYears: on a schema with no rows to profile,
// the question's "first name" reaches the column spelt Fname (a mention,
// not left to chance similarity), and a year the question names keeps
// the DATE columns it may filter, which no profile range can point to.
func TestShortNamesAndUnprofiledYears(t *testing.T) {
	ix := synthIndex(t, "districts_blank")
	acc := ix.access(nil)
	name := func(tc [2]int) string {
		tb := ix.snap.Tables[tc[0]]
		return tb.Name + "." + tb.Columns[tc[1]].Name
	}
	var mentions []string
	for _, r := range ix.mentionRank("the first name and last name of each teacher", acc.doc) {
		if d := ix.docs[r.doc]; d.col >= 0 {
			mentions = append(mentions, name([2]int{d.table, d.col}))
		}
	}
	for _, want := range []string{"teachers.Fname", "teachers.Lname"} {
		if !slices.Contains(mentions, want) {
			t.Errorf("mentions %v lack %s", mentions, want)
		}
	}
	var years []string
	for _, k := range ix.yearColumns("hired after 2010", func(int, int) bool { return true }) {
		years = append(years, name(k))
	}
	for _, want := range []string{"schools.OpenDate", "schools.ClosedDate", "teachers.HireDate", "test_scores.TestYear"} {
		if !slices.Contains(years, want) {
			t.Errorf("year columns %v lack %s", years, want)
		}
	}
	if slices.Contains(years, "teachers.Salary") || len(ix.yearColumns("hired lately", func(int, int) bool { return true })) > 0 {
		t.Errorf("year columns %v: a salary, or a question with no year", years)
	}
}

// TestLinkTableBetweenKeptTables: a person and an account both join their
// region, so expansion connects them through it, but the question's
// relation (who holds which account) is the holder link table's; it must
// be kept, or the planner joins people to every account of their region.
func TestLinkTableBetweenKeptTables(t *testing.T) {
	tb := func(name string, pk string, cols ...string) schema.Table {
		t := schema.Table{Schema: "main", Name: name, Kind: schema.KindTable, PrimaryKey: []string{pk}}
		for _, c := range append([]string{pk}, cols...) {
			t.Columns = append(t.Columns, schema.Column{Name: c, Type: planast.TypeInteger})
		}
		return t
	}
	fk := func(col, ref string) schema.ForeignKey {
		return schema.ForeignKey{Columns: []string{col}, RefSchema: "main", RefTable: ref, RefColumns: []string{ref + "_id"}}
	}
	snap := &schema.Snapshot{Tables: []schema.Table{
		tb("account", "account_id", "region_id", "opened"),
		tb("holder", "holder_id", "person_id", "account_id", "role"),
		tb("person", "person_id", "region_id", "born"),
		tb("region", "region_id", "label"),
	}}
	snap.Tables[0].ForeignKeys = []schema.ForeignKey{fk("region_id", "region")}
	snap.Tables[1].ForeignKeys = []schema.ForeignKey{fk("person_id", "person"), fk("account_id", "account")}
	snap.Tables[2].ForeignKeys = []schema.ForeignKey{fk("region_id", "region")}
	ix, err := Build(context.Background(), snap, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	p := plan{ix: ix, acc: ix.access(nil), b: Budget{}.withDefaults()}
	kept, bridge := joins.Expand(ix.graph, []int{2, 3, 0}, p.acc.table, 8)
	kept = p.links(kept, bridge)
	if !slices.Contains(kept, 1) || !bridge[1] {
		t.Errorf("kept %v (bridges %v): the holder link table is missing", kept, bridge)
	}
	// Tables already joined directly need no link table.
	kept, bridge = joins.Expand(ix.graph, []int{0, 3}, p.acc.table, 8)
	if kept = p.links(kept, bridge); slices.Contains(kept, 1) {
		t.Errorf("kept %v: a link table between tables joined directly", kept)
	}
}

// TestNamedColumns: the columns a question names are found by their
// words, stop words ("other" of other_details) and key words aside, or
// implied (youngest → age); a key word names only with the rest of the
// name ("the ids of the painters": painter_id, not sale_id),
// and a name whose words the question uses only in part names nothing.
func TestNamedColumns(t *testing.T) {
	ix := synthIndex(t, "gallery")
	acc := ix.access(nil)
	named := func(q string) []string {
		var out []string
		for k := range ix.namedColumns(questionWords(q), acc) {
			tb := ix.snap.Tables[k[0]]
			out = append(out, tb.Name+"."+tb.Columns[k[1]].Name)
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		q           string
		want, unwan []string
	}{
		{"Show the details of every sale", []string{"sale.other_details"}, nil},
		{"Who is the youngest painter?", []string{"painter.age"}, []string{"painter.full_name"}},
		{"List the ids of the painters", []string{"painter.painter_id"}, []string{"gallery.gallery_id", "sale.sale_id"}},
		{"What is the price of the opening?", nil, []string{"exhibition.opening_date"}},
	} {
		got := named(c.q)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: named %v lack %s", c.q, got, w)
			}
		}
		for _, w := range c.unwan {
			if slices.Contains(got, w) {
				t.Errorf("%q: named %v hold %s", c.q, got, w)
			}
		}
	}
}

// TestLabelIsThePlainName: a table of cards has asciiName and faceName
// before name; a question about a card is answered by its name, and a
// planner shown asciiName alone filters or shows the wrong column. The
// plain "name" (or "title") is the label; a suffixed one only when there
// is none.
func TestLabelIsThePlainName(t *testing.T) {
	tb := func(name string, cols ...string) schema.Table {
		t := schema.Table{Schema: "main", Name: name, Kind: schema.KindTable, PrimaryKey: []string{"id"}}
		for _, c := range append([]string{"id"}, cols...) {
			t.Columns = append(t.Columns, schema.Column{Name: c, Type: planast.TypeText})
		}
		return t
	}
	snap := &schema.Snapshot{Tables: []schema.Table{
		tb("cards", "asciiName", "faceName", "name", "power"),
		tb("songs", "artist", "song_title", "length"),
	}}
	ix, err := Build(context.Background(), snap, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	p := plan{ix: ix, acc: ix.access(nil), b: Budget{}.withDefaults()}
	for _, c := range []struct {
		table int
		want  string
	}{{0, "name"}, {1, "song_title"}} {
		got := p.labelColumn(c.table)
		if got < 0 || snap.Tables[c.table].Columns[got].Name != c.want {
			t.Errorf("label of %s: column %d, want %s", snap.Tables[c.table].Name, got, c.want)
		}
	}
}

// TestWholeSelectionKeepsCodesAndRanges: a schema sent whole shows the
// columns outside the question's focus by name and type to save tokens,
// but a status code's few values and a number's range stay. Without them
// a planner summed a PENDING grant as money received and counted awards
// of 0 as funded: nothing in the context said either exists.
func TestWholeSelectionKeepsCodesAndRanges(t *testing.T) {
	ix := synthIndex(t, "grants")
	sel, err := ix.Retrieve(context.Background(), "Which researchers work in Physics?", Budget{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sel.Whole || len(sel.Focus) == 0 {
		t.Fatalf("want a whole selection with a focus, got whole=%v focus=%v", sel.Whole, sel.Focus)
	}
	for _, f := range sel.Focus {
		if f.Name == "grant_award" && slices.Contains(f.Columns, "status_cd") {
			t.Fatalf("status_cd is in the focus %v: the case tests a column outside it", sel.Focus)
		}
	}
	got := schemactx.SchemaContext(sel.Filter(ix.snap))
	for _, want := range []string{`status_cd text values ["ACTIVE","CLOSED","PENDING"]`, "award_amt decimal range [0,1450000]"} {
		if !strings.Contains(got, want) {
			t.Errorf("context lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"Dark matter maps"`) {
		t.Errorf("a title outside the focus is listed (names per row are not codes):\n%s", got)
	}
}

// TestPeopleNameTheirCountryColumn: "Mexican shippers" spells neither
// "country" nor the code the column stores ('MX'), so neither a name nor
// a value match kept the column, and a planner shown no country column
// could not filter by it. A country's people name its country column,
// whatever its rank.
func TestPeopleNameTheirCountryColumn(t *testing.T) {
	ix := synthIndex(t, "freight")
	acc := ix.access(nil)
	named := ix.namedColumns(questionWords("How much freight did Mexican shippers book in 2024?"), acc)
	for k := range named {
		if tb := ix.snap.Tables[k[0]]; tb.Name == "shipper" && tb.Columns[k[1]].Name == "country_code" {
			return
		}
	}
	t.Errorf("named columns %v lack shipper.country_code", named)
}

// TestEverydayWordsNameTheSchemasColumns: people say "boss", "VAT",
// "salesperson" and "airline" where schemas write reports_to, tax_amount,
// staff and carrier; no stem or n-gram joins them, and a planner shown
// no such column answered without it (a VAT total of nothing, a boss
// guessed from a name).
func TestEverydayWordsNameTheSchemasColumns(t *testing.T) {
	ix := synthIndex(t, "office")
	acc := ix.access(nil)
	for q, want := range map[string]string{
		"Show the VAT of each staff member":        "sales.tax_amount",
		"Who is Ben Cole's boss?":                  "staff.reports_to",
		"Which airline shipped the most sales?":    "carriers.carrier_name",
		"Which salesperson sold the most in 2024?": "staff.staff_id",
	} {
		var got []string
		for k := range ix.namedColumns(questionWords(q), acc) {
			tb := ix.snap.Tables[k[0]]
			got = append(got, tb.Name+"."+tb.Columns[k[1]].Name)
		}
		if !slices.Contains(got, want) {
			t.Errorf("%q: named columns %v lack %s", q, got, want)
		}
	}
}
