package normalize

import "strings"

// QualifyNested rewrites DuckDB's SELECT ... QUALIFY cond [ORDER BY ...]
// [LIMIT ...] (at the top level of the statement) as the nested form
// SELECT * FROM (SELECT ...) AS qualified WHERE cond [ORDER BY ...]
// [LIMIT ...], which the parser reads and which means the same when cond
// and the ORDER BY name output columns, as they usually do (QUALIFY r = 1).
// A condition holding a window itself then fails to lift (a window in
// WHERE) rather than lifting with another meaning.
func QualifyNested(sql string) (string, bool) {
	toks := lex(sql)
	depth, at, end := 0, -1, len(sql)
	for _, t := range toks {
		switch {
		case t.kind == tOp && t.text == "(":
			depth++
		case t.kind == tOp && t.text == ")":
			depth--
		case depth != 0 || t.kind != tWord:
		case at < 0 && isWord(t, "QUALIFY"):
			at = t.pos
		case at >= 0 && end == len(sql) && isWord(t, "ORDER", "LIMIT", "OFFSET", "FETCH", "WINDOW"):
			end = t.pos
		case isWord(t, "UNION", "INTERSECT", "EXCEPT"):
			return "", false
		}
	}
	if at < 0 {
		return "", false
	}
	body := sql[:at]
	cond := strings.TrimSpace(sql[at+len("QUALIFY") : end])
	rest := strings.TrimSuffix(strings.TrimSpace(sql[end:]), ";")
	if cond == "" {
		return "", false
	}
	return "SELECT * FROM (" + body + ") AS qualified WHERE " + cond + " " + rest, true
}

// SQLiteOnly finds an SQLite operator the PostgreSQL parser does not read
// (GLOB, REGEXP, MATCH), to name it when the parse fails: the word as
// written and its byte offset.
func SQLiteOnly(sql string) (word string, pos int, ok bool) {
	for _, t := range lex(sql) {
		if isWord(t, "GLOB", "REGEXP", "MATCH") {
			return t.text, t.pos, true
		}
	}
	return "", 0, false
}

// NotQuery finds the first word of sql (comments and blanks skipped) when
// it starts a statement that is no query (PRAGMA, ATTACH, DELETE), to
// name it when the parse fails: the word as written and its byte offset.
func NotQuery(sql string) (word string, pos int, ok bool) {
	for _, t := range lex(sql) {
		if t.kind == tSpace {
			continue
		}
		return t.text, t.pos, t.kind == tWord && !isWord(t, "SELECT", "WITH", "VALUES", "TABLE")
	}
	return "", 0, false
}

// DoubleQuoted reports whether the token at normalised offset pos was
// written with double quotes (not converted from backticks or brackets).
func (n *Text) DoubleQuoted(pos int) bool {
	if pos < 0 || pos >= len(n.SQL) || n.SQL[pos] != '"' {
		return false
	}
	o := n.OrigPos(pos)
	return o >= 0 && o < len(n.Orig) && n.Orig[o] == '"'
}

// IdentChain reads cnt identifiers separated by dots at normalised offset
// pos, as written: quoted names unquoted, bare names in their case, and no
// truncation at PostgreSQL's 63 bytes. It returns nil when the text there
// is not such a chain.
func (n *Text) IdentChain(pos, cnt int) []string {
	if pos < 0 || pos >= len(n.SQL) {
		return nil
	}
	toks := lex(n.SQL[pos:]) // from an identifier: the rest scans as the statement did
	var out []string
	i := 0
	for len(out) < cnt {
		for i < len(toks) && toks[i].kind == tSpace {
			i++
		}
		if i >= len(toks) || toks[i].kind != tWord && toks[i].kind != tQuoted {
			return nil
		}
		out = append(out, unquote(toks[i]))
		i++
		if len(out) == cnt {
			break
		}
		for i < len(toks) && toks[i].kind == tSpace {
			i++
		}
		if i >= len(toks) || toks[i].text != "." {
			return nil
		}
		i++
	}
	return out
}
