package normalize

import (
	"strings"

	"github.com/nl2sql/nl2sql/internal/sqlscan"
)

// token is one lexical token of the input SQL. Pos is its byte offset in
// the original text.
type token struct {
	kind tokKind
	text string // as written
	pos  int
}

type tokKind int

const (
	tSpace    tokKind = iota // blanks and comments
	tWord                    // keyword or bare identifier
	tQuoted                  // "identifier" (or SQLite double-quoted string)
	tBacktick                // `identifier` (MySQL/SQLite)
	tBracket                 // [identifier] (SQL Server/SQLite)
	tString                  // 'string'
	tNumber                  // 12, 1.5, .5, 1e3
	tOp                      // punctuation and operators
)

// lex splits sql into tokens with the one SQL scanner (sqlscan, SQLite's
// spellings read: `…` and […] identifiers, "" as an empty string), the
// blanks and comments between them as tSpace. It never fails: a text that
// does not scan (an unterminated quote, say) is one token, and the parser
// reports it.
func lex(sql string) []token {
	toks, err := sqlscan.ScanSQLite(sql)
	if err != nil {
		if sql == "" {
			return nil
		}
		return []token{{kind: tOp, text: sql}}
	}
	var out []token
	at := 0
	for _, t := range toks {
		if t.Start > at {
			out = append(out, token{kind: tSpace, text: sql[at:t.Start], pos: at})
		}
		at = t.End
		kind := tOp
		switch t.Kind {
		case sqlscan.Comment:
			kind = tSpace
		case sqlscan.Word:
			kind = tWord
		case sqlscan.Quoted:
			switch t.Text[0] {
			case '`':
				kind = tBacktick
			case '[':
				kind = tBracket
			default:
				kind = tQuoted
			}
		case sqlscan.String:
			kind = tString
			if t.Text == `""` {
				kind = tQuoted // SQLite's empty string: see normalize
			}
		case sqlscan.Number:
			kind = tNumber
		}
		out = append(out, token{kind: kind, text: t.Text, pos: t.Start})
	}
	if at < len(sql) {
		out = append(out, token{kind: tSpace, text: sql[at:], pos: at})
	}
	return out
}

// unquote returns the name a quoted identifier token stands for.
func unquote(t token) string {
	s := t.text
	switch t.kind {
	case tQuoted, tBacktick, tString:
		if len(s) >= 2 && s[len(s)-1] == s[0] {
			q := s[:1]
			return strings.ReplaceAll(s[1:len(s)-1], q+q, q)
		}
		return s[1:]
	case tBracket:
		return strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	}
	return s
}

func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

func isWord(t token, words ...string) bool { return t.kind == tWord && sqlscan.OneOf(t.text, words...) }

// Text is SQL rewritten for the PostgreSQL parser, with the map back
// to the original text's byte offsets.
type Text struct {
	Orig string // the original text
	SQL  string
	orig []int // orig[i] is the original offset of normalised byte i
}

// OrigPos maps a normalised byte offset to the original text's.
func (n *Text) OrigPos(p int) int {
	switch {
	case p < 0:
		return -1
	case p < len(n.orig):
		return n.orig[p]
	case len(n.orig) > 0:
		return n.orig[len(n.orig)-1] + 1
	}
	return 0
}

// clauseWords end a table reference: a JOIN without ON is followed by one
// of them (or by the end of the text or a closing parenthesis).
var clauseWords = map[string]bool{
	"WHERE": true, "GROUP": true, "ORDER": true, "LIMIT": true, "HAVING": true, "UNION": true,
	"INTERSECT": true, "EXCEPT": true, "JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true,
	"FULL": true, "CROSS": true, "NATURAL": true, "OUTER": true, "ON": true, "USING": true,
	"WINDOW": true, "OFFSET": true,
}

// SQL rewrites the dialects' spellings the PostgreSQL parser does not
// read into ones it does, keeping the meaning:
//
//   - `name` and [name] become "name";
//   - "" (an empty double-quoted token) becomes ” — SQLite reads it as an
//     empty string, PostgreSQL refuses a zero-length identifier;
//   - == becomes =;
//   - LIMIT a, b becomes LIMIT b OFFSET a (SQLite, MySQL);
//   - JOIN x [AS y] without ON or USING gets ON TRUE (SQLite reads it as a
//     cross join);
//   - x IS y (y not NULL, TRUE, FALSE, NOT, DISTINCT, UNKNOWN) becomes
//     x IS NOT DISTINCT FROM y, and x IS NOT y becomes x IS DISTINCT FROM y
//     (SQLite's null-safe comparisons).
//
// Double-quoted tokens stay identifiers here: whether one is SQLite's string
// literal is decided per token against the schema while lifting.
func SQL(sql, dialect string) *Text {
	toks := lex(sql)
	var b strings.Builder
	n := &Text{Orig: sql}
	emit := func(s string, pos int) {
		b.WriteString(s)
		for i := 0; i < len(s); i++ {
			n.orig = append(n.orig, pos)
		}
	}
	emitTok := func(t token) {
		b.WriteString(t.text)
		for i := 0; i < len(t.text); i++ {
			n.orig = append(n.orig, t.pos+i)
		}
	}
	// next returns the index of the first non-space token at or after i.
	next := func(i int) int {
		for i < len(toks) && toks[i].kind == tSpace {
			i++
		}
		return i
	}
	onTrue := joinsWithoutOn(toks, next)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if onTrue[i-1] {
			emit(" ON TRUE", t.pos)
		}
		switch {
		case t.kind == tBacktick || t.kind == tBracket:
			emit(quoteIdent(unquote(t)), t.pos)
			continue
		case t.kind == tQuoted && t.text == `""`:
			emit("''", t.pos)
			continue
		case t.kind == tOp && t.text == "==":
			emit("=", t.pos)
			continue
		case isWord(t, "LIMIT"):
			// LIMIT a , b
			a := next(i + 1)
			c := next(a + 1)
			d := next(c + 1)
			if d < len(toks) && toks[a].kind == tNumber && toks[c].text == "," && toks[d].kind == tNumber {
				emitTok(t)
				emit(" ", t.pos)
				emitTok(toks[d])
				emit(" OFFSET ", toks[c].pos)
				emitTok(toks[a])
				i = d
				continue
			}
		case isWord(t, "IS"):
			a := next(i + 1)
			if a < len(toks) && isWord(toks[a], "NOT") {
				c := next(a + 1)
				if c < len(toks) && !isWord(toks[c], "NULL", "TRUE", "FALSE", "DISTINCT", "UNKNOWN") {
					emit("IS DISTINCT FROM", t.pos)
					i = a
					continue
				}
			} else if a < len(toks) && !isWord(toks[a], "NULL", "TRUE", "FALSE", "DISTINCT", "UNKNOWN") {
				emit("IS NOT DISTINCT FROM", t.pos)
				continue
			}
		}
		emitTok(t)
	}
	if onTrue[len(toks)-1] {
		emit(" ON TRUE", len(sql))
	}
	n.SQL = b.String()
	return n
}

// joinsWithoutOn returns the indexes of the tokens that end a table
// reference following JOIN with no ON or USING after it: ON TRUE goes after
// each.
func joinsWithoutOn(toks []token, next func(int) int) map[int]bool {
	out := map[int]bool{}
	for i, t := range toks {
		if !isWord(t, "JOIN") {
			continue
		}
		if end, ok := joinRefEnd(toks, i, next); ok {
			out[end] = true
		}
	}
	return out
}

// joinRefEnd finds the last token of the table reference (with its alias)
// after the JOIN token at toks[i]; ok is false when the join has ON or
// USING, is a CROSS or NATURAL join, or the reference cannot be delimited.
func joinRefEnd(toks []token, i int, next func(int) int) (int, bool) {
	for k := i - 1; k >= 0; k-- {
		if toks[k].kind == tSpace {
			continue
		}
		if isWord(toks[k], "CROSS", "NATURAL") {
			return 0, false
		}
		break
	}
	j := next(i + 1)
	if j >= len(toks) {
		return 0, false
	}
	end := j
	if toks[j].text == "(" {
		depth := 0
		for end = j; end < len(toks); end++ {
			switch toks[end].text {
			case "(":
				depth++
			case ")":
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if end >= len(toks) {
			return 0, false
		}
	} else {
		for {
			d := next(end + 1)
			if d < len(toks) && toks[d].text == "." {
				end = next(d + 1)
				continue
			}
			break
		}
	}
	k := next(end + 1)
	if k < len(toks) && isWord(toks[k], "AS") {
		end = next(k + 1)
		k = next(end + 1)
	} else if k < len(toks) && (toks[k].kind == tWord && !clauseWords[strings.ToUpper(toks[k].text)] || toks[k].kind == tQuoted || toks[k].kind == tBacktick || toks[k].kind == tBracket) {
		end = k
		k = next(end + 1)
	}
	if end >= len(toks) || k < len(toks) && isWord(toks[k], "ON", "USING") {
		return 0, false
	}
	return end, true
}
