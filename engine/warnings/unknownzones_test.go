package warnings

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The count and its verb agree: "1 of the 4 distinct values … are none"
// read as a slip in the one sentence that says why rows are NULL.
func TestUnknownZoneCountAgrees(t *testing.T) {
	f := &planast.Func{Name: "AT_TIME_ZONE", Args: []planast.Expr{&planast.Column{Table: "b", Column: "starts_at"}, &planast.Column{Table: "l", Column: "timezone"}}}
	for _, c := range []struct {
		values []any
		want   string
	}{
		{[]any{"Europe/Berlln", "Europe/London", "Europe/Paris", "America/New_York"}, "1 of the 4 distinct values of locations.timezone is none"},
		{[]any{"Europe/Berlln", "+01:00", "Europe/Paris"}, "2 of the 3 distinct values of locations.timezone are none"},
	} {
		col := &schema.Column{Name: "timezone", Profile: &schema.ColumnProfile{SampleValues: c.values, AllValues: true}}
		if w := unknownZoneWarning(f, &schema.Table{Name: "locations"}, col); !strings.Contains(w, c.want) {
			t.Errorf("warning %q lacks %q", w, c.want)
		}
	}
}
