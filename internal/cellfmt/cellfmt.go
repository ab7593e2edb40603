// Package cellfmt formats one result value for people. Every human
// rendering prints values through Value: the result table of the tools
// (run_plan, run_verified_query, ask), the CLI's text output, the engine's
// one-line answer summary and the schema resource text (sample values,
// profiled ranges). A number a host quotes from the summary is therefore
// the number the table shows, and never fewer digits than the value has.
//
// The rule, by column type:
//
//   - an exact decimal (a json.Number, as the result encoding writes a
//     decimal, or any value it kept as text) prints as it is, at the scale
//     the database returns: 1234567890123.45 is "1234567890123.45", a
//     NUMERIC(10,2) 349.00 is "349.00" (never "349"), 0.004 is "0.004",
//     123456789.123456 keeps all six decimals;
//   - a float prints as the shortest text that reads back to the same
//     double (Shortest), as the structured result's JSON writes it, every
//     digit kept and none added: 18.810000000000002 is
//     "18.810000000000002" (the double the database returned; 18.81 is
//     another double), 123456789.12345678 is "123456789.12345678", 0.1+0.2
//     is "0.30000000000000004" in a float and in a decimal column alike;
//     below 1e-6 and from 1e21 in exponent form (5e-324 is "5e-324",
//     never 324 digits);
//   - special values are spelled out: NULL, NaN, Infinity, -Infinity, and
//     infinite dates as the engine's "infinity";
//   - an array, map or JSON value prints as its JSON text, whose own
//     escapes are kept (Visible), not doubled as a text cell's
//     backslashes are;
//   - strings print as stored; in a blob column, whose structured values
//     are base64, a value prints as its Binary placeholder
//     ("<binary 3 bytes sha256:2da45f2c>"), never as text.
//
// A table cell must not pass for another value: SQL NULL prints as a bare
// NULL, so text that would read as it (or as a quoted cell) is shown quoted
// (Mistakable, Quote), as the answer summary quotes all text.
//
// Stored text is data, never markup or commands for the reader: a table
// cell shows it through Text (control, bidi and zero-width characters as
// visible escapes such as \u001b and \n) and a model-facing sample
// through Quote (the same escapes inside a JSON string), so a value
// holding an ESC sequence cannot clear a person's screen and a U+202E
// cannot reverse what they read. A warning, which quotes the values it
// names itself, is shown through Visible: the same escapes but the
// backslash, which there already starts an escape of its quote.
//
// The structured result keeps the exact values (package internal/source's
// encoding rule): this is display only.
//
//	cellfmt.Value(18.810000000000002, planast.TypeFloat) // "18.810000000000002"
//	cellfmt.Value(5e-324, planast.TypeFloat)             // "5e-324"
//	cellfmt.Value(1234567890123.45, planast.TypeDecimal) // "1234567890123.45"
//	cellfmt.Value(json.Number("349.00"), planast.TypeDecimal) // "349.00"
//	cellfmt.Value(nil, planast.TypeText)                 // "NULL"
package cellfmt

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/nl2sql/nl2sql/planast"
)

// Value renders v, a value of a column of type t (planast.TypeUnknown when
// the type is not known), by the package's rule.
func Value(v any, t planast.Type) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case float64:
		return Float(x)
	case float32:
		return Float(float64(x))
	case json.Number:
		return string(x) // an exact decimal at the engine's scale: "349.00"
	case string:
		if t == planast.TypeBlob {
			return blob(x)
		}
		return x
	case []byte:
		return Binary(x)
	}
	return fmt.Sprint(v)
}

// Float renders a double: Special's spelling, else Shortest. No digit is
// rounded away: which digits of a double are noise depends on how it was
// computed, not on the double, and rounding at 15 digits changed real values
// (123456789.12345678 read 123456789.123457) and made one double print two
// ways (0.3 in a float column, 0.30000000000000004 in a decimal one).
func Float(x float64) string {
	if s, ok := Special(x); ok {
		return s
	}
	return Shortest(x)
}

// Shortest is the shortest text that reads back as the finite double x,
// written as encoding/json writes the structured result's numbers: plain
// decimals from 1e-6 to 1e21, exponent form outside ("5e-324", "1e-100",
// "1e+21"), so a tiny or huge value is never hundreds of digits and reads
// the same in the table as in the JSON beside it.
func Shortest(x float64) string {
	if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e21) {
		s := strconv.FormatFloat(x, 'e', -1, 64)
		// a one-digit exponent without its leading zero, as JSON: 1e-7
		if n := len(s); n >= 4 && s[n-4] == 'e' && s[n-2] == '0' {
			s = s[:n-2] + s[n-1:]
		}
		return s
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// Special spells NaN and the infinities as the structured results and every
// human rendering do ("NaN", "Infinity", "-Infinity"); ok is false for a
// finite x.
func Special(x float64) (string, bool) {
	switch {
	case math.IsNaN(x):
		return "NaN", true
	case math.IsInf(x, 1):
		return "Infinity", true
	case math.IsInf(x, -1):
		return "-Infinity", true
	}
	return "", false
}
