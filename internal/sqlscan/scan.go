package sqlscan

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	pgparser "github.com/pganalyze/pg_query_go/v6/parser"
)

// Kind is a token's lexical class.
type Kind int

const (
	Word    Kind = iota // keyword or bare identifier
	Quoted              // "identifier" (U&"…" too)
	String              // '…', E'…', $tag$…$tag$, B'…', X'…', N'…', U&'…'
	Number              // 12, 1.5, 1e3, 0x1F
	Param               // $1
	Op                  // punctuation and operators, "::" included
	Comment             // -- to the end of the line, or /* … */
)

// Token is one token of the scanned text: its class, its text as written
// and its byte span [Start, End).
type Token struct {
	Kind       Kind
	Text       string
	Start, End int
	Keyword    bool // a PostgreSQL keyword (of any category), not an identifier
}

// Is reports whether t is a word equal (ignoring case) to one of words.
func (t Token) Is(words ...string) bool { return t.Kind == Word && OneOf(t.Text, words...) }

// OneOf reports whether word equals one of words, ignoring case: how SQL
// keywords compare.
func OneOf(word string, words ...string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.EqualFold(word, w) })
}

// Error is a text the scanner refuses: where (a byte offset), why, and
// what to write instead.
type Error struct {
	Pos  int
	Msg  string
	Hint string
}

func (e *Error) Error() string { return e.Msg }

func errorAt(pos int, hint, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// Scan splits sql into tokens with PostgreSQL's scanner, comments
// included. An unterminated string, identifier or comment, or a NUL byte,
// is an *Error.
func Scan(sql string) ([]Token, error) {
	if i := strings.IndexByte(sql, 0); i >= 0 {
		return nil, errorAt(i, "remove the NUL byte", "the SQL holds a NUL byte at byte %d", i)
	}
	res, err := pg.Scan(sql)
	if err != nil {
		var pe *pgparser.Error
		if errors.As(err, &pe) {
			pos := pe.Cursorpos - 1
			if pos < 0 {
				pos = 0
			}
			return nil, errorAt(pos, "close every quoted string, identifier and /* comment */", "%s", pe.Message)
		}
		return nil, errorAt(0, "", "the SQL does not scan: %v", err)
	}
	out := make([]Token, 0, len(res.Tokens))
	for _, t := range res.Tokens {
		start, end := int(t.Start), int(t.End)
		if start < 0 || end > len(sql) || start > end {
			return nil, errorAt(start, "", "the scanner returned a token outside the text")
		}
		kw := t.KeywordKind != pg.KeywordKind_NO_KEYWORD
		kind := kindOf(t.Token, sql[start:end])
		if kw {
			kind = Word
		}
		out = append(out, Token{Kind: kind, Text: sql[start:end], Start: start, End: end, Keyword: kw})
	}
	return out, nil
}

func kindOf(tok pg.Token, text string) Kind {
	switch tok {
	case pg.Token_IDENT:
		if strings.HasPrefix(text, `"`) {
			return Quoted
		}
		return Word
	case pg.Token_UIDENT:
		return Quoted
	case pg.Token_SCONST, pg.Token_USCONST, pg.Token_BCONST, pg.Token_XCONST:
		return String
	case pg.Token_ICONST, pg.Token_FCONST:
		return Number
	case pg.Token_PARAM:
		return Param
	case pg.Token_SQL_COMMENT, pg.Token_C_COMMENT:
		return Comment
	}
	return Op
}

// ScanDialect is Scan for dialect's text ("sqlite", "postgres",
// "duckdb"). For "sqlite" it also refuses the spellings SQLite's tokenizer
// reads differently from PostgreSQL's (see the package doc), each with a
// hint.
func ScanDialect(dialect, sql string) ([]Token, error) {
	toks, err := Scan(sql)
	if err != nil || dialect != "sqlite" {
		var se *Error
		if dialect == "sqlite" && errors.As(err, &se) && strings.HasPrefix(se.Msg, "unterminated /* comment") {
			se.Hint = nestHint + " (or close the comment)"
		}
		return toks, err
	}
	for _, t := range toks {
		if err := sqliteDivergence(t); err != nil {
			return nil, err
		}
	}
	return toks, nil
}

const nestHint = `remove the inner "/*": SQLite ends a comment at the first "*/", PostgreSQL's scanner nests them`

const quoteHint = `write identifiers in double quotes ("name") and strings in single quotes ('it''s')`

// sqliteDivergence refuses a token whose extent SQLite's tokenizer would
// judge otherwise.
func sqliteDivergence(t Token) *Error {
	switch {
	case t.Kind == Op && strings.Contains(t.Text, "`"):
		return errorAt(t.Start, quoteHint, "`…` identifiers are not supported at byte %d", t.Start)
	case t.Kind == Op && (t.Text == "[" || t.Text == "]"):
		return errorAt(t.Start, quoteHint, "[…] identifiers are not supported at byte %d", t.Start)
	case t.Kind == String && (t.Text[0] == 'E' || t.Text[0] == 'e'):
		return errorAt(t.Start, quoteHint+"; SQLite has no backslash escapes", "E'…' strings are not SQLite at byte %d", t.Start)
	case t.Kind == String && t.Text[0] == '$':
		return errorAt(t.Start, quoteHint, "dollar-quoted strings are not SQLite at byte %d", t.Start)
	case t.Kind == Comment && strings.HasPrefix(t.Text, "/*") && strings.Contains(t.Text[2:], "/*"):
		return errorAt(t.Start, nestHint,
			"a /* comment */ holds another \"/*\" at byte %d", t.Start)
	}
	return nil
}

// TopLevel is the index in toks of the first word equal to one of words
// outside parentheses (FROM of a query, not of its subqueries; AS of
// CREATE VIEW v AS, not of its column list), or -1.
func TopLevel(toks []Token, words ...string) int {
	depth := 0
	for i, t := range toks {
		switch {
		case t.Kind == Op && t.Text == "(":
			depth++
		case t.Kind == Op && t.Text == ")":
			depth--
		case depth == 0 && t.Is(words...):
			return i
		}
	}
	return -1
}

// Replace is text with each token of toks (scanned from text) for which
// with returns true written as the string it returns, the rest as it was.
func Replace(text string, toks []Token, with func(Token) (string, bool)) string {
	var b strings.Builder
	at := 0
	for _, t := range toks {
		if s, ok := with(t); ok {
			b.WriteString(text[at:t.Start])
			b.WriteString(s)
			at = t.End
		}
	}
	b.WriteString(text[at:])
	return b.String()
}
