package scope

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// parseFilter lifts a row filter's where text into a filter expression.
// This is a deliberately small grammar (planast/lift was not available
// when this was written, and a filter is configuration, not a query):
//
//	expr     := and { OR and }
//	and      := not { AND not }
//	not      := NOT not | pred
//	pred     := '(' expr ')' | operand [ tail ]
//	tail     := cmp operand | IS [NOT] NULL | [NOT] IN '(' operand {',' operand} ')'
//	          | [NOT] BETWEEN operand AND operand | [NOT] LIKE operand
//	cmp      := = | != | <> | < | <= | > | >=
//	operand  := column | table.column | :name | 'string' | [-]number | TRUE | FALSE | NULL
//
// Columns are bare or "double-quoted" identifiers, optionally qualified by
// the filtered table's own name (table is that name). Keywords are
// case-insensitive. Anything else (functions, arithmetic, subqueries) is an
// error: a filter that cannot be read exactly is refused at startup.
func parseFilter(where, table string) (fnode, error) {
	toks, err := lexFilter(where)
	if err != nil {
		return nil, err
	}
	p := &fparser{toks: toks, table: table}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, fmt.Errorf("unexpected %q at byte %d", t.text, t.pos)
	}
	return e, nil
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tQuoted // "identifier"
	tString
	tNumber
	tParam
	tOp // = != <> < <= > >= ( ) , . -
)

type ftok struct {
	kind tokKind
	text string
	pos  int
}

func lexFilter(s string) ([]ftok, error) {
	var out []ftok
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case isIdentStart(c):
			j := i + 1
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			out = append(out, ftok{tIdent, s[i:j], i})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			out = append(out, ftok{tNumber, s[i:j], i})
			i = j
		case c == ':':
			j := i + 1
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			if j == i+1 || !isIdentStart(s[i+1]) {
				return nil, fmt.Errorf("a parameter is :name, at byte %d", i)
			}
			out = append(out, ftok{tParam, s[i+1 : j], i})
			i = j
		case c == '\'' || c == '"':
			var b strings.Builder
			j := i + 1
			closed := false
			for j < len(s) {
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c {
						b.WriteByte(c)
						j += 2
						continue
					}
					closed = true
					j++
					break
				}
				b.WriteByte(s[j])
				j++
			}
			if !closed {
				return nil, fmt.Errorf("unterminated quote at byte %d", i)
			}
			k := tString
			if c == '"' {
				k = tQuoted
			}
			out = append(out, ftok{k, b.String(), i})
			i = j
		default:
			for _, op := range []string{"<=", ">=", "<>", "!=", "=", "<", ">", "(", ")", ",", ".", "-"} {
				if strings.HasPrefix(s[i:], op) {
					out = append(out, ftok{tOp, op, i})
					i += len(op)
					goto next
				}
			}
			return nil, fmt.Errorf("unexpected %q at byte %d", string(c), i)
		next:
		}
	}
	return append(out, ftok{tEOF, "end of text", len(s)}), nil
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentPart(c byte) bool  { return isIdentStart(c) || c >= '0' && c <= '9' }

type fparser struct {
	toks  []ftok
	i     int
	table string
}

func (p *fparser) peek() ftok { return p.toks[p.i] }
func (p *fparser) next() ftok { t := p.toks[p.i]; p.i = min(p.i+1, len(p.toks)-1); return t }

// kw consumes the keyword k (case-insensitive) when it is next.
func (p *fparser) kw(k string) bool {
	if t := p.peek(); t.kind == tIdent && strings.EqualFold(t.text, k) {
		p.next()
		return true
	}
	return false
}

func (p *fparser) op(o string) bool {
	if t := p.peek(); t.kind == tOp && t.text == o {
		p.next()
		return true
	}
	return false
}

func (p *fparser) errf(format string, args ...any) error {
	t := p.peek()
	return fmt.Errorf("%s, found %q at byte %d", fmt.Sprintf(format, args...), t.text, t.pos)
}

func (p *fparser) or() (fnode, error) {
	l, err := p.and()
	for err == nil && p.kw("or") {
		var r fnode
		if r, err = p.and(); err == nil {
			l = fbin{op: planast.OpOr, l: l, r: r}
		}
	}
	return l, err
}

func (p *fparser) and() (fnode, error) {
	l, err := p.not()
	for err == nil && p.kw("and") {
		var r fnode
		if r, err = p.not(); err == nil {
			l = fbin{op: planast.OpAnd, l: l, r: r}
		}
	}
	return l, err
}

func (p *fparser) not() (fnode, error) {
	if p.kw("not") {
		x, err := p.not()
		return fnot{x}, err
	}
	return p.pred()
}

var cmpOps = map[string]string{"=": planast.OpEq, "!=": planast.OpNe, "<>": planast.OpNe,
	"<": planast.OpLt, "<=": planast.OpLe, ">": planast.OpGt, ">=": planast.OpGe}

func (p *fparser) pred() (fnode, error) {
	if p.op("(") {
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		if !p.op(")") {
			return nil, p.errf("expected )")
		}
		return e, nil
	}
	x, err := p.operand()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind == tOp {
		if op, ok := cmpOps[t.text]; ok {
			p.next()
			r, err := p.operand()
			return fbin{op: op, l: x, r: r}, err
		}
	}
	if p.kw("is") {
		neg := p.kw("not")
		if !p.kw("null") {
			return nil, p.errf("expected NULL after IS")
		}
		return fisnull{x: x, neg: neg}, nil
	}
	neg := p.kw("not")
	switch {
	case p.kw("in"):
		if !p.op("(") {
			return nil, p.errf("expected ( after IN")
		}
		n := fin{x: x, neg: neg}
		for {
			e, err := p.operand()
			if err != nil {
				return nil, err
			}
			n.list = append(n.list, e)
			if p.op(")") {
				return n, nil
			}
			if !p.op(",") {
				return nil, p.errf("expected , or ) in an IN list")
			}
		}
	case p.kw("between"):
		lo, err := p.operand()
		if err != nil {
			return nil, err
		}
		if !p.kw("and") {
			return nil, p.errf("expected AND in BETWEEN")
		}
		hi, err := p.operand()
		return fbetween{x: x, lo: lo, hi: hi, neg: neg}, err
	case p.kw("like"):
		pat, err := p.operand()
		return flike{x: x, pat: pat, neg: neg}, err
	case neg:
		return nil, p.errf("expected IN, BETWEEN or LIKE after NOT")
	}
	return x, nil // a boolean column or constant; the validator checks its type
}

var reserved = map[string]bool{"and": true, "or": true, "not": true, "is": true, "in": true, "between": true, "like": true}

func (p *fparser) operand() (fnode, error) {
	t := p.peek()
	switch t.kind {
	case tParam:
		p.next()
		return fparam{t.text}, nil
	case tString:
		p.next()
		return flit{planast.Literal{Type: planast.TString, Text: t.text}}, nil
	case tNumber:
		p.next()
		return number(t.text, false, t.pos)
	case tOp:
		if t.text == "-" {
			p.next()
			if n := p.peek(); n.kind == tNumber {
				p.next()
				return number(n.text, true, n.pos)
			}
			return nil, p.errf("expected a number after -")
		}
	case tIdent, tQuoted:
		lower := strings.ToLower(t.text)
		if t.kind == tIdent {
			switch lower {
			case "true", "false":
				p.next()
				return flit{planast.Literal{Type: planast.TBoolean, Bool: lower == "true"}}, nil
			case "null":
				p.next()
				return flit{planast.Literal{Type: planast.TNull}}, nil
			}
			if reserved[lower] {
				return nil, p.errf("expected a column, a :parameter or a literal")
			}
		}
		p.next()
		if p.op(".") {
			c := p.next()
			if c.kind != tIdent && c.kind != tQuoted {
				return nil, fmt.Errorf("expected a column name after %q. at byte %d", t.text, c.pos)
			}
			if !strings.EqualFold(t.text, p.table) {
				return nil, fmt.Errorf("%q qualifies a column with another table than the filtered one (%s), at byte %d", t.text, p.table, t.pos)
			}
			t = c
		}
		if p.op("(") {
			return nil, fmt.Errorf("functions are not supported in row filters (%s at byte %d)", t.text, t.pos)
		}
		return fcol{name: t.text}, nil
	}
	return nil, p.errf("expected a column, a :parameter or a literal")
}

func number(s string, neg bool, pos int) (fnode, error) {
	if neg {
		s = "-" + s
	}
	if !strings.Contains(s, ".") {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q at byte %d is not a 64-bit integer", s, pos)
		}
		return flit{planast.Literal{Type: planast.TInteger, Int: n}}, nil
	}
	if strings.Count(s, ".") > 1 || strings.HasSuffix(s, ".") {
		return nil, fmt.Errorf("%q at byte %d is not a number", s, pos)
	}
	return flit{planast.Literal{Type: planast.TDecimal, Text: s}}, nil
}
