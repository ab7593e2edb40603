package render

import "testing"

// The GRANT a refusal suggests is copied as it is: a role PostgreSQL
// would fold to lower case or could not read unquoted (ReportReader,
// etl-bot) must be quoted, or the grant goes to another role or fails.
func TestGranteeIsWrittenAsGrantTakesIt(t *testing.T) {
	for role, want := range map[string]string{
		"nc32_reader":  "nc32_reader",
		"_r$1":         "_r$1",
		"ReportReader": `"ReportReader"`,
		"etl-bot":      `"etl-bot"`,
		"1st":          `"1st"`,
		`a"b`:          `"a""b"`,
	} {
		if got := GrantName(role); got != want {
			t.Errorf("GrantName(%q) = %s, want %s", role, got, want)
		}
	}
}
