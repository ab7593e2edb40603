package planast_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// Threat: a host (JavaScript, or any reader that parses JSON numbers as
// doubles) reads the plan a result echoes, and 9007199254740993 becomes
// 9007199254740992; sent back, the plan asks for another row. Integer
// literals past ±(2^53−1) are written as strings, which decode back to
// the same integer; smaller ones stay JSON numbers.
func TestBigIntegerLiteralsEchoExactly(t *testing.T) {
	for _, c := range []struct {
		v      string
		quoted bool
	}{
		{"9007199254740993", true}, {"-9007199254740993", true}, {"9223372036854775807", true}, {"-9223372036854775808", true},
		{"9007199254740991", false}, {"-9007199254740991", false}, {"42", false},
	} {
		doc := `{"select":[{"expr":{"kind":"literal","type":"integer","value":` + c.v + `},"alias":"x"}],"from":[{"table":"t","alias":"t"}]}`
		q, err := planast.Decode([]byte(doc), planast.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", c.v, err)
		}
		out, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		if quoted := strings.Contains(string(out), `"value":"`+c.v+`"`); quoted != c.quoted {
			t.Errorf("%s encodes as %s: quoted %v, want %v", c.v, out, quoted, c.quoted)
		}
		// what a double-based reader does to the echo must not change the value
		var generic any
		if err := json.Unmarshal(out, &generic); err != nil {
			t.Fatal(err)
		}
		again, _ := json.Marshal(generic)
		back, err := planast.Decode(again, planast.Limits{})
		if err != nil {
			t.Fatalf("%s: the echo read as doubles does not decode: %v (%s)", c.v, err, again)
		}
		if got := back.Select[0].Expr.(*planast.Literal).Int; got != q.Select[0].Expr.(*planast.Literal).Int {
			t.Errorf("%s came back as %d after a double-based reader", c.v, got)
		}
	}
}
