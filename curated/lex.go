package curated

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/internal/sqlscan"
)

// prepared is a verified query's SQL after the lexical pass: comments
// removed, each :name replaced by $k (k = 1 + the index of name in order,
// the order of first appearance). parse is what pg_query parses and, after
// placeholder conversion (placeholders), what the database runs.
type prepared struct {
	parse string
	order []string
}

// prepare runs the lexical pass over sql with the one scanner (sqlscan,
// PostgreSQL's, with SQLite's diverging spellings refused for dialect
// sqlite: `…` and […] identifiers, nested-looking comments). Placeholders
// are :name outside quotes and comments (a "::" cast is not one). It
// refuses, so that the parser and the database cannot disagree about what
// is code: a NUL byte; an unterminated string, identifier or comment; "$"
// or "?" outside quotes (dollar quoting, positional parameters); a
// prefixed string literal (E'…', X'…', B'…', N'…', U&'…'). Comments become
// one space: the text that runs is the text that was parsed.
func prepare(sql, dialect string) (*prepared, error) {
	toks, err := sqlscan.ScanDialect(dialect, sql)
	if err != nil {
		var se *sqlscan.Error
		if errors.As(err, &se) && se.Hint != "" {
			return nil, refusef(CodeLexical, "%s (%s)", se.Msg, se.Hint)
		}
		return nil, refusef(CodeLexical, "%v", err)
	}
	var b strings.Builder
	p := &prepared{}
	index := map[string]int{}
	at := 0 // the end of the last token copied: the blanks between tokens are kept
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		b.WriteString(sql[at:t.Start])
		at = t.End
		switch {
		case t.Kind == sqlscan.Comment:
			b.WriteByte(' ')
			continue
		case t.Kind == sqlscan.String && t.Text[0] == '$', t.Kind == sqlscan.Param, t.Kind == sqlscan.Op && strings.ContainsAny(t.Text, "$?"):
			return nil, refusef(CodeLexical, "%q at byte %d: write parameters as :name (dollar quoting and positional parameters are not supported)", t.Text[:1], t.Start)
		case t.Kind == sqlscan.String && t.Text[0] != '\'',
			t.Kind == sqlscan.String && i > 0 && toks[i-1].End == t.Start && toks[i-1].Kind == sqlscan.Word:
			return nil, refusef(CodeLexical, "prefixed string literals (E'…', X'…', B'…', N'…', U&'…') are not supported at byte %d", t.Start)
		case t.Kind == sqlscan.Quoted && t.Text[0] != '"':
			return nil, refusef(CodeLexical, "U&\"…\" identifiers are not supported at byte %d", t.Start)
		case t.Kind == sqlscan.Op && t.Text == ":" && i+1 < len(toks) && toks[i+1].Start == t.End && toks[i+1].Kind == sqlscan.Word:
			name := toks[i+1].Text
			k, ok := index[name]
			if !ok {
				p.order = append(p.order, name)
				k = len(p.order)
				index[name] = k
			}
			b.WriteString("$" + strconv.Itoa(k))
			at = toks[i+1].End
			i++
			continue
		}
		b.WriteString(t.Text)
	}
	b.WriteString(sql[at:])
	p.parse = b.String()
	return p, nil
}

// placeholders converts the $k placeholders of a prepared (and possibly
// row-filter-wrapped) text into dialect's form: ?k for SQLite (bound by
// index), $k unchanged for PostgreSQL and DuckDB. Quoted text is left
// alone. A text that does not scan is returned as it is: the statement
// gate refuses it.
func placeholders(text, dialect string) string {
	if dialect != "sqlite" {
		return text
	}
	toks, err := sqlscan.Scan(text)
	if err != nil {
		return text
	}
	return sqlscan.Replace(text, toks, func(t sqlscan.Token) (string, bool) {
		return "?" + t.Text[1:], t.Kind == sqlscan.Param
	})
}

// nameSpan returns the end of the (possibly qualified) name starting at i
// in a prepared text, and the text of its last part: words or "quoted"
// identifiers joined by dots, blanks allowed around the dots.
func nameSpan(text string, i int) (end int, last string, parts int, err error) {
	toks, err := sqlscan.Scan(text)
	if err != nil {
		return 0, "", 0, err
	}
	k := 0
	for k < len(toks) && toks[k].Start < i {
		k++
	}
	if k == len(toks) || toks[k].Start != i {
		return 0, "", 0, fmt.Errorf("no table name at byte %d", i)
	}
	for {
		t := toks[k]
		if t.Kind != sqlscan.Word && t.Kind != sqlscan.Quoted {
			return 0, "", 0, fmt.Errorf("no table name at byte %d", t.Start)
		}
		last, end = t.Text, t.End
		parts++
		if k+2 >= len(toks) || toks[k+1].Kind != sqlscan.Op || toks[k+1].Text != "." {
			return end, last, parts, nil
		}
		k += 2
	}
}
