package multi

import "testing"

// The fold a host pastes into both plans must read every key its example
// writes: a prefix of letters with any separator between it and the
// digits, a space inside too (TRIM keeps it), and a bare example names no
// prefix.
func TestDigitsFixReadsTheExamplesPrefix(t *testing.T) {
	for _, c := range []struct {
		example any
		want    string
	}{
		{"SHP-000123", "CAST(REPLACE(REPLACE(UPPER(TRIM(x)), 'SHP', ''), '-', '') AS INTEGER) (one REPLACE for each prefix the keys write)"},
		{" mrn 00032", "CAST(REPLACE(REPLACE(UPPER(TRIM(x)), 'MRN', ''), ' ', '') AS INTEGER) (one REPLACE for each prefix the keys write)"},
		{"shp000123", "CAST(REPLACE(UPPER(TRIM(x)), 'SHP', '') AS INTEGER) (one REPLACE for each prefix the keys write)"},
		{"00034", "CAST(x AS INTEGER) where x is the key without the letters and separators the other source writes before its digits"},
	} {
		if got := digitsFix(c.example); got != c.want {
			t.Errorf("%q: %s\nwant %s", c.example, got, c.want)
		}
	}
}
