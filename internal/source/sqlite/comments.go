package sqlite

import (
	"context"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/sqlscan"
	"github.com/nl2sql/nl2sql/planast"
)

// maxCommentBytes bounds one column's comment.
const maxCommentBytes = schema.MaxCommentBytes

// readComments fills the comments of t's columns from the SQL comments
// written in its CREATE TABLE text, SQLite's only place for them. A
// comment belongs to the column definition it stands on the same line
// after ("a INTEGER, -- the a"), or else to the next column definition
// ("-- the b\n b TEXT"); several comment lines join with a space.
// Comments outside the column list, or next to a constraint, are not a
// column's. A table whose text does not scan keeps no comments: they
// describe, they never decide.
func (s *SQLite) readComments(ctx context.Context, t *schema.Table) error {
	if t.Kind != schema.KindTable {
		return nil
	}
	res, err := s.run(ctx, s.meta, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, []any{t.Name}, 1)
	if err != nil {
		return err
	}
	if len(res.Rows) == 0 {
		return nil
	}
	ddl, _ := res.Rows[0][0].(string)
	for name, c := range ddlComments(ddl) {
		if col, ok := t.Column(name); ok && col.Comment == "" {
			col.Comment = c
		}
	}
	return nil
}

// ddlComments maps column names (as SQLite reads them) to their comments
// in a CREATE TABLE text; see readComments for the rule.
func ddlComments(ddl string) map[string]string {
	toks, err := sqlscan.ScanSQLite(ddl)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	var (
		depth   int
		pending []string // comments waiting for the next definition
		cur     string   // the column being defined, "" for a constraint
		start   bool     // the next token at depth 1 starts a definition
		lastEnd = -1     // where the last token that is not a comment ended
		lastCol string   // the column that token belongs to
	)
	add := func(col, text string) {
		if c := out[col]; c != "" {
			text = c + " " + text
		}
		out[col] = planast.Truncate(text, maxCommentBytes)
	}
	for _, tk := range toks {
		if tk.Kind == sqlscan.Comment {
			text := commentText(tk.Text)
			switch {
			case depth != 1 || text == "":
			case lastCol != "" && lastEnd >= 0 && !strings.Contains(ddl[lastEnd:tk.Start], "\n"):
				add(lastCol, text) // on the line of the definition it follows
			default:
				pending = append(pending, text)
			}
			continue
		}
		switch {
		case tk.Kind == sqlscan.Op && tk.Text == "(":
			depth++
			start = depth == 1
		case tk.Kind == sqlscan.Op && tk.Text == ")":
			if depth == 1 {
				pending = nil // after the last definition: not a column's
			}
			depth--
		case depth == 1 && tk.Kind == sqlscan.Op && tk.Text == ",":
			cur, start = "", true
		case depth == 1 && start:
			start = false
			if (tk.Kind == sqlscan.Word || tk.Kind == sqlscan.Quoted || tk.Kind == sqlscan.String) &&
				!tk.Is("CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN") {
				cur = strings.Trim(tk.Name(), "'")
				for _, p := range pending {
					add(cur, p)
				}
			}
			pending = nil
		}
		if depth >= 1 {
			lastEnd = tk.End
			if tk.Kind == sqlscan.Op && tk.Text == "," && depth == 1 {
				// a comment after the comma, on its line, is still about
				// the definition the comma closed
				continue
			}
			lastCol = cur
		}
	}
	return out
}

// commentText is a comment's words: its markers and surrounding space
// removed, inner line breaks and runs of space made one space.
func commentText(c string) string {
	switch {
	case strings.HasPrefix(c, "--"):
		c = c[2:]
	case strings.HasPrefix(c, "/*"):
		c = strings.TrimSuffix(c[2:], "*/")
	}
	return strings.Join(strings.Fields(c), " ")
}
