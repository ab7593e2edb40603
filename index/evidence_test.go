package index

import (
	"context"
	"slices"
	"testing"
)

// TestAccountedQuestionKeepsOnlyEvidencedTables: a question every weighed
// word of which the schema's own words account for ("the budget of the
// Spring Gala": a column and a stored value of event) names all the
// tables it needs. The best ⌈0.4·n⌉ tables and the fill would add tables
// no word asks for (bookings, expenses, sponsorships of the event), which
// crowd the planner's context with columns it must read past. A question
// that leaves a word unaccounted ("hosted": the venue) still gets the
// count of best tables, which is what finds a table said in other words.
// An accounted question that evidences no table still keeps its best.
func TestAccountedQuestionKeepsOnlyEvidencedTables(t *testing.T) {
	ix := synthIndex(t, "club")
	for _, tc := range []struct {
		question string
		tables   []string // exactly these when only is set, else at least
		only     bool
		columns  []string
	}{
		{"What is the budget of the Spring Gala?", []string{"event"}, true, []string{"event.budget", "event.title"}},
		{"What are the names of the people who went to the Spring Gala?", []string{"attendance", "event", "person"}, true, []string{"person.first_name", "person.last_name"}},
		{"Which city hosted the Spring Gala?", []string{"event", "venue"}, false, []string{"venue.city", "event.title"}},
		// a bare label evidences no table: the best one still seeds, or
		// the planner gets no table at all
		{"List the names.", nil, false, nil},
	} {
		t.Run(tc.question, func(t *testing.T) {
			sel, err := ix.Retrieve(context.Background(), tc.question, Budget{WholeSchemaTokens: -1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var tables, cols []string
			for _, ts := range sel.Tables {
				tables = append(tables, ts.Name)
				for _, c := range ts.Columns {
					cols = append(cols, ts.Name+"."+c)
				}
			}
			slices.Sort(tables)
			if len(tables) == 0 {
				t.Error("no table kept")
			}
			if tc.only && !slices.Equal(tables, tc.tables) {
				t.Errorf("tables %v, want exactly %v", tables, tc.tables)
			}
			for _, want := range tc.tables {
				if !slices.Contains(tables, want) {
					t.Errorf("table %s missing; kept %v", want, tables)
				}
			}
			for _, want := range tc.columns {
				if !slices.Contains(cols, want) {
					t.Errorf("column %s missing; kept %v", want, cols)
				}
			}
		})
	}
}

// TestEvidenced: the tables an accounted question may seed beyond its
// best. Each row is a way a question points at a table without naming
// it, which the seeds would lose (a named key's table: "the head of the
// ward" is a clinician; a year's table; the people a question asks who
// of), or a named column that points at none (a bare "title" every
// table has; a key that speaks for the table it joins, not its own).
func TestEvidenced(t *testing.T) {
	club, lab := synthIndex(t, "club"), synthIndex(t, "labwork")
	col := func(ix *Index, table, column string) [2]int {
		for ti, tb := range ix.snap.Tables {
			for ci, c := range tb.Columns {
				if tb.Name == table && c.Name == column {
					return [2]int{ti, ci}
				}
			}
		}
		t.Fatalf("no column %s.%s", table, column)
		return [2]int{}
	}
	set := func(ks ...[2]int) map[[2]int]bool {
		m := map[[2]int]bool{}
		for _, k := range ks {
			m[k] = true
		}
		return m
	}
	for _, tc := range []struct {
		name      string
		ix        *Index
		namedCols map[[2]int]bool
		valueCols map[[2]int]bool
		yearCols  map[[2]int]bool
		named     string
		asksWho   bool
		want      []string
	}{
		{name: "named key evidences the table it joins, not its own", ix: lab, namedCols: set(col(lab, "ward", "head_id")), want: []string{"clinician"}},
		{name: "own column", ix: club, namedCols: set(col(club, "event", "budget")), want: []string{"event"}},
		{name: "bare label evidences nothing", ix: club, namedCols: set(col(club, "event", "title"), col(club, "department", "title"))},
		{name: "stored value", ix: club, valueCols: set(col(club, "event", "title")), want: []string{"event"}},
		{name: "year", ix: club, yearCols: set(col(club, "sponsorship", "signed_on")), want: []string{"sponsorship"}},
		{name: "named table", ix: club, named: "venue", want: []string{"venue"}},
		{name: "asks who: the tables of people", ix: club, asksWho: true, want: []string{"person"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := plan{ix: tc.ix, acc: tc.ix.access(nil), named: map[int]bool{}, namedCols: tc.namedCols, valueCols: tc.valueCols, yearCols: tc.yearCols, asksWho: tc.asksWho}
			for ti, tb := range tc.ix.snap.Tables {
				p.named[ti] = tb.Name == tc.named
			}
			var got []string
			for ti := range p.evidenced() {
				got = append(got, tc.ix.snap.Tables[ti].Name)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("evidenced %v, want %v", got, tc.want)
			}
		})
	}
}
