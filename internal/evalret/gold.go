package evalret

import (
	"sort"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/sqlscan"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/lift"
)

// Gold is what one gold query uses: base tables, their columns and the
// string literals it compares with. Names carry the snapshot's spelling.
type Gold struct {
	Tables   []string `json:"tables"`   // table names, sorted
	Columns  []string `json:"columns"`  // "table.column", sorted
	Literals []string `json:"literals"` // distinct string literals, sorted
	// Source is "lift" (the plan planast/lift made of the SQL) or "tokens"
	// (the token scan, used when Lift fails).
	Source string `json:"source"`
}

// goldOf lifts sql against snap and walks the plan; when Lift fails it
// falls back to the token scan.
func goldOf(sql string, snap *schema.Snapshot) Gold {
	if g, ok := liftGold(sql, snap); ok {
		return g
	}
	return tokenGold(sql, snap)
}

type goldSet struct {
	tables, cols, lits map[string]bool
}

func newGoldSet() *goldSet {
	return &goldSet{map[string]bool{}, map[string]bool{}, map[string]bool{}}
}

func (s *goldSet) gold(source string) Gold {
	return Gold{Tables: keys(s.tables), Columns: keys(s.cols), Literals: keys(s.lits), Source: source}
}

// liftGold: every FROM entry naming a stored table, every column reference
// through such an alias (select, where, group, having, order, join pairs,
// subqueries, CTE bodies), and every string literal.
func liftGold(sql string, snap *schema.Snapshot) (g Gold, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	q, err := lift.Lift(sql, "sqlite", snap)
	if err != nil {
		return Gold{}, false
	}
	s := newGoldSet()
	alias := map[string]*schema.Table{}
	ctes := map[string]bool{}
	// Aliases are unique across a lifted plan: collect them all first.
	planast.Inspect(q, func(n planast.Node) bool {
		if qq, isQ := n.(*planast.Query); isQ {
			for _, c := range qq.With {
				ctes[strings.ToLower(c.Name)] = true
			}
			for _, f := range qq.From {
				if f.Subquery != nil || f.Table == "" || (f.Schema == "" && ctes[strings.ToLower(f.Table)]) {
					continue
				}
				if t, found := snap.Lookup(f.Schema, f.Table); found {
					alias[f.Alias] = t
					s.tables[t.Name] = true
				}
			}
		}
		return true
	})
	col := func(a, c string) {
		if t, found := alias[a]; found {
			if cc, ok := t.Column(c); ok {
				s.cols[t.Name+"."+cc.Name] = true
			}
		}
	}
	planast.Inspect(q, func(n planast.Node) bool {
		switch x := n.(type) {
		case *planast.Query:
			for _, j := range x.Joins {
				for _, p := range j.On {
					col(j.Left, p.LeftColumn)
					col(j.Right, p.RightColumn)
				}
			}
		case *planast.Column:
			col(x.Table, x.Column)
		case *planast.Literal:
			if x.Type == planast.TString {
				s.lits[x.Text] = true
			}
		}
		return true
	})
	return s.gold("lift"), true
}

// tokenGold is the conservative token scan: tables are identifiers after
// FROM or JOIN (and comma-separated in a FROM list) that name a table, with
// their aliases; columns are alias.column or table.column references and
// bare identifiers naming a column of any table the query reads (every such
// table counts, which can only add gold columns); literals are single-quoted
// strings, and double-quoted ones that name no table or column.
func tokenGold(sql string, snap *schema.Snapshot) Gold {
	s := newGoldSet()
	toks := sqlTokens(sql)
	alias := map[string]*schema.Table{}
	var read []*schema.Table
	inFrom := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		up := strings.ToUpper(t.text)
		if t.kind == tokWord && (up == "FROM" || up == "JOIN") {
			inFrom = true
			continue
		}
		if !inFrom {
			continue
		}
		if t.kind == tokPunct && t.text == "," {
			continue
		}
		if t.kind != tokWord && t.kind != tokQuoted {
			inFrom = false
			continue
		}
		tb, found := snap.Lookup("", t.text)
		if !found {
			inFrom = false
			continue
		}
		s.tables[tb.Name] = true
		read = append(read, tb)
		alias[strings.ToLower(tb.Name)] = tb
		j := i + 1
		if j < len(toks) && strings.EqualFold(toks[j].text, "AS") {
			j++
		}
		if j < len(toks) && (toks[j].kind == tokWord || toks[j].kind == tokQuoted) && !sqlKeywords[strings.ToUpper(toks[j].text)] {
			alias[strings.ToLower(toks[j].text)] = tb
			i = j
		}
		if i+1 < len(toks) && toks[i+1].text == "," {
			continue
		}
		inFrom = false
	}
	isName := func(x string) bool {
		if _, ok := snap.Lookup("", x); ok {
			return true
		}
		for _, tb := range snap.Tables {
			if _, ok := tb.Column(x); ok {
				return true
			}
		}
		return false
	}
	for i, t := range toks {
		switch t.kind {
		case tokString:
			s.lits[t.text] = true
		case tokWord, tokQuoted:
			if t.kind == tokQuoted && t.quote == '"' && !isName(t.text) {
				s.lits[t.text] = true
				continue
			}
			if i+2 < len(toks) && toks[i+1].text == "." {
				if tb, ok := alias[strings.ToLower(t.text)]; ok {
					if c, ok := tb.Column(toks[i+2].text); ok {
						s.cols[tb.Name+"."+c.Name] = true
					}
				}
				continue
			}
			if (i > 0 && (toks[i-1].text == "." || strings.EqualFold(toks[i-1].text, "AS"))) ||
				(i+1 < len(toks) && toks[i+1].text == "(") || (t.kind == tokWord && sqlKeywords[strings.ToUpper(t.text)]) {
				continue
			}
			for _, tb := range read {
				if c, ok := tb.Column(t.text); ok {
					s.cols[tb.Name+"."+c.Name] = true
				}
			}
		}
	}
	return s.gold("tokens")
}

type tokKind int

const (
	tokWord tokKind = iota
	tokQuoted
	tokString
	tokNumber
	tokPunct
)

type token struct {
	kind  tokKind
	text  string
	quote rune
}

// sqlTokens splits SQLite SQL with the one SQL scanner (sqlscan, SQLite's
// spellings read) into words, quoted identifiers ("x", `x`, [x]; text
// unquoted), single-quoted strings (text unquoted), numbers and
// punctuation; comments are left out. A text that does not scan has no
// tokens (its gold is then empty, and reported so).
func sqlTokens(sql string) []token {
	toks, err := sqlscan.ScanSQLite(sql)
	if err != nil {
		return nil
	}
	var out []token
	for _, t := range toks {
		switch t.Kind {
		case sqlscan.Word:
			out = append(out, token{kind: tokWord, text: t.Text})
		case sqlscan.Quoted:
			out = append(out, token{kind: tokQuoted, text: t.Name(), quote: rune(t.Text[0])})
		case sqlscan.String:
			switch {
			case t.Text == `""`: // SQLite's empty string, written as an empty identifier
				out = append(out, token{kind: tokQuoted, quote: '"'})
			case t.Text[0] == '\'' && len(t.Text) >= 2:
				out = append(out, token{kind: tokString, text: strings.ReplaceAll(t.Text[1:len(t.Text)-1], "''", "'"), quote: '\''})
			default:
				out = append(out, token{kind: tokString, text: t.Text})
			}
		case sqlscan.Number:
			out = append(out, token{kind: tokNumber, text: t.Text})
		case sqlscan.Comment:
		default:
			out = append(out, token{kind: tokPunct, text: t.Text})
		}
	}
	return out
}

var sqlKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET JOIN INNER LEFT RIGHT
		OUTER FULL CROSS ON AS AND OR NOT IN IS NULL LIKE BETWEEN CASE WHEN THEN ELSE END DISTINCT UNION ALL
		INTERSECT EXCEPT ASC DESC EXISTS WITH CAST USING NATURAL`) {
		sqlKeywords[k] = true
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
