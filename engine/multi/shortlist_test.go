package multi_test

import (
	"testing"

	"github.com/nl2sql/nl2sql/engine/hostplan"
	"github.com/nl2sql/nl2sql/engine/multi"
)

// A question that names what one datasource keeps as a table ("singers")
// must go to that datasource, even when another has a column whose name
// shares a word of the question ("total_spent" for "the total number"):
// counted alike, the two scored 3.4 and 2.5, no datasource led, and a host
// without a resolver model was handed both to choose from; weighted, the
// one with the table leads and is picked. A question about the other's
// column still goes there.
func TestShortlistWeighsTablesOverColumns(t *testing.T) {
	cands := []multi.Candidate{
		{ID: "concerts", Tables: []string{"concert", "singer", "singer_in_concert", "stadium"},
			Columns: []string{"Age", "Average", "Capacity", "Country", "Highest", "Is_male", "Location", "Lowest", "Name", "Song_Name", "Stadium_ID", "Singer_ID", "Year", "concert_ID", "concert_Name", "Theme"}},
		{ID: "museums", Tables: []string{"museum", "visit", "visitor"},
			Columns: []string{"Age", "Level_of_membership", "Museum_ID", "Name", "Num_of_Staff", "Open_Year", "Total_spent", "num_of_ticket", "visitor_ID"}},
		{ID: "airlines", Tables: []string{"airlines", "airports", "flights"},
			Columns: []string{"Abbreviation", "Airline", "AirportCode", "AirportName", "City", "Country", "DestAirport", "FlightNo", "SourceAirport", "uid"}},
	}
	for _, tc := range []struct{ question, want string }{
		{"What is the total number of singers?", "concerts"},
		{"How many flights land in Aberdeen?", "airlines"},
		{"What is the total spent by visitors with membership level 1?", "museums"},
	} {
		ranked := multi.Shortlist(tc.question, cands)
		scores := make([]float64, len(ranked))
		for i, c := range ranked {
			scores[i] = c.Score
		}
		if ranked[0].ID != tc.want || !hostplan.Leads(scores) {
			t.Errorf("%q: ranked %s first (scores %v, leads %v), want %s picked", tc.question, ranked[0].ID, scores, hostplan.Leads(scores), tc.want)
		}
	}
}
