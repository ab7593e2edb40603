package planast

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Encoding: every node marshals with "kind" first and its fields in a fixed
// order, omitting empty optional fields, so equal plans encode to equal bytes
// (the plan cache and content-hash ids rely on this).

func (n *Column) MarshalJSON() ([]byte, error) {
	return JSON(struct {
		Kind   string `json:"kind"`
		Table  string `json:"table,omitempty"`
		Column string `json:"column"`
	}{"column", n.Table, n.Column})
}

// maxExactJSONInt is the largest integer every JSON reader holds exactly
// (2^53−1, JavaScript's Number.MAX_SAFE_INTEGER).
const maxExactJSONInt = 1<<53 - 1

func (n *Literal) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"kind":"literal","type":`)
	t, _ := JSON(string(n.Type))
	b.Write(t)
	switch n.Type {
	case TNull:
	case TBoolean:
		b.WriteString(`,"value":` + strconv.FormatBool(n.Bool))
	case TInteger:
		// Past ±(2^53−1) a JSON number loses digits in JavaScript and
		// other double-based readers (a host echoing the plan back would
		// send another number), so such a value is written as a string,
		// which Decode reads back for an integer literal: the rule the
		// results' values follow (internal/source: int64 within ±(2^53−1)
		// else a decimal string).
		if v := strconv.FormatInt(n.Int, 10); n.Int > maxExactJSONInt || n.Int < -maxExactJSONInt {
			b.WriteString(`,"value":"` + v + `"`)
		} else {
			b.WriteString(`,"value":` + v)
		}
	default:
		v, _ := JSON(n.Text)
		b.WriteString(`,"value":`)
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (n *Binary) MarshalJSON() ([]byte, error) {
	return JSON(struct {
		Kind     string `json:"kind"`
		Op       string `json:"op"`
		Left     Expr   `json:"left"`
		Right    Expr   `json:"right"`
		Temporal Type   `json:"temporal,omitempty"`
	}{"binary", n.Op, n.Left, n.Right, n.Temporal})
}

func (n *Unary) MarshalJSON() ([]byte, error) {
	return JSON(struct {
		Kind string `json:"kind"`
		Op   string `json:"op"`
		Expr Expr   `json:"expr"`
	}{"unary", n.Op, n.Expr})
}

func (n *In) MarshalJSON() ([]byte, error) {
	return JSON(struct {
		Kind     string `json:"kind"`
		Expr     Expr   `json:"expr"`
		List     []Expr `json:"list,omitempty"`
		Subquery *Query `json:"subquery,omitempty"`
		Negated  bool   `json:"negated,omitempty"`
		Temporal Type   `json:"temporal,omitempty"`
	}{"in", n.Expr, n.List, n.Subquery, n.Negated, n.Temporal})
}

func (n *Exists) MarshalJSON() ([]byte, error) {
	return JSON(struct {
		Kind     string `json:"kind"`
		Subquery *Query `json:"subquery"`
		Negated  bool   `json:"negated,omitempty"`
	}{"exists", n.Subquery, n.Negated})
}

func (n *Subquery) MarshalJSON() ([]byte, error) {
	return JSON(struct {
		Kind  string `json:"kind"`
		Query *Query `json:"query"`
	}{"subquery", n.Query})
}

func (n *Between) MarshalJSON() ([]byte, error) {
	return JSON(struct {
		Kind     string `json:"kind"`
		Expr     Expr   `json:"expr"`
		Low      Expr   `json:"low"`
		High     Expr   `json:"high"`
		Negated  bool   `json:"negated,omitempty"`
		Temporal Type   `json:"temporal,omitempty"`
	}{"between", n.Expr, n.Low, n.High, n.Negated, n.Temporal})
}

func (n *Like) MarshalJSON() ([]byte, error) {
	return JSON(struct {
		Kind            string `json:"kind"`
		Expr            Expr   `json:"expr"`
		Pattern         Expr   `json:"pattern"`
		CaseInsensitive bool   `json:"case_insensitive,omitempty"`
		Negated         bool   `json:"negated,omitempty"`
	}{"like", n.Expr, n.Pattern, n.CaseInsensitive, n.Negated})
}

func (n *IsNull) MarshalJSON() ([]byte, error) {
	return JSON(struct {
		Kind    string `json:"kind"`
		Expr    Expr   `json:"expr"`
		Negated bool   `json:"negated,omitempty"`
	}{"is_null", n.Expr, n.Negated})
}

type whenJSON struct {
	When Expr `json:"when"`
	Then Expr `json:"then"`
}

func (n *Case) MarshalJSON() ([]byte, error) {
	ws := make([]whenJSON, len(n.Whens))
	for i, w := range n.Whens {
		ws[i] = whenJSON{w.When, w.Then}
	}
	return JSON(struct {
		Kind    string     `json:"kind"`
		Operand Expr       `json:"operand,omitempty"`
		Whens   []whenJSON `json:"whens"`
		Else    Expr       `json:"else,omitempty"`
	}{"case", n.Operand, ws, n.Else})
}

func (n *Cast) MarshalJSON() ([]byte, error) {
	return JSON(struct {
		Kind string   `json:"kind"`
		Expr Expr     `json:"expr"`
		Type CastType `json:"type"`
	}{"cast", n.Expr, n.Type})
}

func (n *Func) MarshalJSON() ([]byte, error) {
	args := n.Args
	if args == nil {
		args = []Expr{}
	}
	return JSON(struct {
		Kind     string `json:"kind"`
		Name     string `json:"name"`
		Args     []Expr `json:"args"`
		Distinct bool   `json:"distinct,omitempty"`
	}{"func", n.Name, args, n.Distinct})
}

func (n *Window) MarshalJSON() ([]byte, error) {
	args := n.Args
	if args == nil {
		args = []Expr{}
	}
	return JSON(struct {
		Kind        string      `json:"kind"`
		Name        string      `json:"name"`
		Args        []Expr      `json:"args"`
		PartitionBy []Expr      `json:"partition_by,omitempty"`
		OrderBy     []OrderItem `json:"order_by,omitempty"`
	}{"window", n.Name, args, n.PartitionBy, n.OrderBy})
}

// UnmarshalJSON decodes a plan with DefaultLimits, so a Query can sit inside
// other JSON documents (recordings, tool arguments).
func (q *Query) UnmarshalJSON(b []byte) error {
	p, err := Decode(b, DefaultLimits)
	if err != nil {
		return err
	}
	*q = *p
	return nil
}

// Canonical returns the plan's canonical JSON encoding.
func (q *Query) Canonical() []byte {
	b, err := q.MarshalJSON() // json.Marshal(q), without compacting it again
	if err != nil {           // only reachable with a nil Expr inside a list: a programming error
		panic("planast: cannot encode plan: " + err.Error())
	}
	if !bytes.ContainsAny(b, "<>&") {
		return b
	}
	// the bytes json.Marshal(q) writes: hashes and cache keys stay as
	// they were before the nodes wrote < > & as themselves
	var esc bytes.Buffer
	json.HTMLEscape(&esc, b)
	return esc.Bytes()
}

// JSON is v (a plan, a node, or a value a message shows beside them) as
// JSON text with < > & written as themselves, not as \u003c \u003e
// \u0026: a hint or warning that quotes {"op": ">"} or the value 'R&D'
// reads as it was written, and pasted into a plan it is the same plan.
// It is json.Marshal without HTML escaping; the nodes' MarshalJSON use it,
// and Canonical escapes once at the end.
func JSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
