package snapshots

import (
	"strings"
	"unicode"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/sqlscan"
)

// RedactedString stands for each string of a view definition that names a
// column holding secrets.
const RedactedString = "'<redacted>'"

// withoutSecrets is a view's definition with each string literal replaced
// by RedactedString when it names a column whose name says it holds
// secrets (lex.SecretColumn): "WHERE api_key = 'sk-live-…'" showed the
// key to every caller who reads the view, in every schema context, while
// the column's own values are never profiled. All its strings go, not
// only those compared with the column: which string a predicate ties to
// it (an IN list, a CASE, a function of it) is not worth a guess. A text
// that scans by neither SQLite's nor PostgreSQL's rules and holds a secret
// name is dropped whole. PostgreSQL's rules come first: SQLite's read
// "ARRAY['sk-…'::text]" as one [identifier]. (SQLite's strings in double
// quotes need none: the driver is built without them, and leaves out a
// view that holds one.)
func withoutSecrets(sql string) string {
	toks, err := sqlscan.Scan(sql)
	if err != nil {
		toks, err = sqlscan.ScanSQLite(sql)
	}
	if err != nil {
		words := strings.FieldsFunc(sql, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
		for _, w := range words {
			if lex.SecretColumn(w) {
				return ""
			}
		}
		return sql
	}
	secret := false
	for _, t := range toks {
		if (t.Kind == sqlscan.Word && !t.Keyword || t.Kind == sqlscan.Quoted) && lex.SecretColumn(t.Name()) {
			secret = true
			break
		}
	}
	if !secret {
		return sql
	}
	return sqlscan.Replace(sql, toks, func(t sqlscan.Token) (string, bool) {
		return RedactedString, t.Kind == sqlscan.String
	})
}
