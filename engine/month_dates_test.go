package engine

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// monthDatesDB airs cartoons on dates written with the month's name, as a
// spreadsheet exports them, beside a rating written "1.5/4" that is no
// date at all.
var monthDatesDB = []string{
	"CREATE TABLE cartoon (id INTEGER PRIMARY KEY, title TEXT, aired TEXT, rating TEXT)",
	"INSERT INTO cartoon VALUES (1, 'Fangs', 'November21,2008', '1.5/4'), (2, 'Beetle', 'February27,2009', '2.1/5')," +
		" (3, 'Mask', 'April10,2009', '1.8/4'), (4, 'Menace', 'December12,2008', '1.2/3')",
}

// The threat: "the most recent cartoon" ordered by a text column of dates
// written with the month's name comes back as November 2008 ('November'
// sorts after 'February'), a wrong row the plan's check called valid with
// no word. Ordering by such a column and MAX of it must say the text is
// not ordered by date and how to read it as one; a rating such as "1.5/4"
// is no date, and the schema must not call it one.
func TestTextDatesWithMonthNamesAreNamed(t *testing.T) {
	for _, en := range everyEngine(monthDatesDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			latest := runAir(t, e, `{"select":[{"expr":{"kind":"column","table":"c","column":"title"}}],"from":[{"table":"cartoon","alias":"c"}],"order_by":[{"expr":{"kind":"column","table":"c","column":"aired"},"direction":"desc"}],"limit":1}`)
			if w := warningWith(latest.Warnings, "order_by on c.aired"); !strings.Contains(w, "month's name") || !strings.Contains(w, "not the earliest or the latest") {
				t.Errorf("order_by on month-name dates: rows %v, warnings %q", latest.Rows, latest.Warnings)
			}
			most := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"MAX","args":[{"kind":"column","table":"c","column":"aired"}]},"alias":"x"}],"from":[{"table":"cartoon","alias":"c"}]}`)
			if w := warningWith(most.Warnings, "MAX(c.aired) compares text"); !strings.Contains(w, "month's name") {
				t.Errorf("MAX of month-name dates: rows %v, warnings %q", most.Rows, most.Warnings)
			}
			for _, tb := range airSnapshot(t, e).Tables {
				for _, c := range tb.Columns {
					if _, ok := c.Profile.CastNull(planast.CastDate); ok && c.Name == "rating" {
						t.Errorf("the rating column is profiled as dates: %+v", c.Profile.CastNulls)
					}
				}
			}
		})
	}
}
