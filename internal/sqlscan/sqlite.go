package sqlscan

import (
	"strings"
)

// ScanSQLite splits SQL written for SQLite (benchmark gold queries, say)
// with the same scanner, reading SQLite's own spellings instead of
// refusing them: a `…` or […] identifier is one Quoted token (Text as
// written; Name gives the identifier), and "" — SQLite's empty string
// where PostgreSQL sees a zero-length identifier — is one String token
// with Text `""`. Every token keeps its offsets in sql.
//
// It reads, it does not guard: the statement gate refuses these spellings
// (ScanDialect) because a reader that guesses must not decide what runs.
func ScanSQLite(sql string) ([]Token, error) {
	if i := strings.IndexByte(sql, 0); i >= 0 {
		return nil, errorAt(i, "remove the NUL byte", "the SQL holds a NUL byte at byte %d", i)
	}
	work := []byte(sql)
	quoted := map[int]int{} // start → end of each `…` or […] identifier
	empty := map[int]bool{} // start of each "" read as an empty string
	from := 0
	for {
		c, ok := nextSQLiteQuote(work, from, empty)
		if !ok {
			break
		}
		end, closed := sqliteQuoteEnd(sql, c)
		if !closed {
			return nil, errorAt(c, "close the identifier", "a %c identifier starting at byte %d is not closed", sql[c], c)
		}
		// A same-length stand-in PostgreSQL's scanner reads as one
		// identifier, so that every later offset stays the original's.
		work[c], work[end-1] = '"', '"'
		for i := c + 1; i < end-1; i++ {
			work[i] = 'x'
		}
		quoted[c] = end
		from = end
	}
	for {
		toks, err := Scan(string(work))
		if emptyString(work, err, empty) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for i := range toks {
			t := &toks[i]
			t.Text = sql[t.Start:t.End]
			switch {
			case quoted[t.Start] == t.End && t.End > 0:
				t.Kind = Quoted
			case empty[t.Start]:
				t.Kind = String
			}
		}
		return toks, nil
	}
}

// nextSQLiteQuote finds the first "`" or "[" at or after from that is
// code (not inside a string, identifier or comment): the text before it
// scans, and not into a line comment that reaches it.
func nextSQLiteQuote(work []byte, from int, empty map[int]bool) (int, bool) {
	for c := from; c < len(work); c++ {
		if work[c] != '`' && work[c] != '[' {
			continue
		}
		toks, err := Scan(string(work[:c]))
		for emptyString(work, err, empty) {
			toks, err = Scan(string(work[:c]))
		}
		if err != nil {
			continue
		}
		if n := len(toks); n > 0 && toks[n-1].End == c && toks[n-1].Kind == Comment {
			continue
		}
		return c, true
	}
	return 0, false
}

// emptyString reports whether err is PostgreSQL's refusal of a "" (a
// zero-length identifier), and if so turns that "" of work into two
// single quotes and records it in empty.
func emptyString(work []byte, err error, empty map[int]bool) bool {
	se, ok := err.(*Error)
	if !ok || !strings.HasPrefix(se.Msg, "zero-length delimited identifier") {
		return false
	}
	p := strings.Index(string(work[se.Pos:]), `""`)
	if p < 0 {
		return false
	}
	p += se.Pos
	work[p], work[p+1] = '\'', '\''
	empty[p] = true
	return true
}

// sqliteQuoteEnd returns the end of the `…` (a doubled "`" escapes it) or
// […] identifier opening at i.
func sqliteQuoteEnd(sql string, i int) (int, bool) {
	if sql[i] == '[' {
		if j := strings.IndexByte(sql[i:], ']'); j >= 0 {
			return i + j + 1, true
		}
		return len(sql), false
	}
	for j := i + 1; j < len(sql); j++ {
		if sql[j] == '`' {
			if j+1 < len(sql) && sql[j+1] == '`' {
				j++
				continue
			}
			return j + 1, true
		}
	}
	return len(sql), false
}

// Name returns the identifier a Word or Quoted token stands for: a quoted
// one unquoted (its doubled quote undone), a bare one as written.
func (t Token) Name() string {
	s := t.Text
	if t.Kind != Quoted || len(s) < 2 {
		return s
	}
	switch s[0] {
	case '"', '`':
		return strings.ReplaceAll(s[1:len(s)-1], s[:1]+s[:1], s[:1])
	case '[':
		return s[1 : len(s)-1]
	case 'U', 'u':
		return t.Text // U&"…": escapes not undone
	}
	return s
}
