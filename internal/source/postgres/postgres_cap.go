package postgres

import (
	"strconv"

	"github.com/nl2sql/nl2sql/internal/source"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// pgCapped is sqlText inside SELECT * FROM (…) AS "nl2sql_capped" LIMIT
// maxRows+1, or sqlText unchanged when it is not one plain SELECT. Reading
// row by row and closing the connection at the cap bounds what reaches the
// client, but not what the server does: a sort feeds a cut query only
// after sorting its whole input, every row past the cap is still produced
// until the socket fills, and the connection is lost. Under the outer LIMIT
// PostgreSQL plans for maxRows+1 rows (a top-n sort, a fast-start join,
// a scan that stops), and the connection is kept.
//
// The text is checked alone first, as the DuckDB cap does: its one
// statement (StatementBody) is parsed on its own with PostgreSQL's parser
// and wrapped only when that gives exactly one SELECT without INTO, a
// locking clause or a data-modifying WITH, so the added parentheses cannot
// pair with its own and the wrap cannot turn a text that is not one plain
// SELECT into one (those run as written and are refused as writes). A
// subquery's ORDER BY keeps it from being pulled up, so the rows and their
// order are the statement's first maxRows+1; duplicate and unnamed output
// columns keep their names through SELECT *.
func pgCapped(sqlText string, maxRows int) (string, bool) {
	body := source.StatementBody(schema.DialectPostgres, sqlText)
	if body == "" {
		return sqlText, false
	}
	tree, err := pg.Parse(body)
	if err != nil || len(tree.GetStmts()) != 1 {
		return sqlText, false
	}
	sel := tree.GetStmts()[0].GetStmt().GetSelectStmt()
	if sel == nil || sel.GetIntoClause() != nil || len(sel.GetLockingClause()) > 0 {
		return sqlText, false
	}
	for _, cte := range sel.GetWithClause().GetCtes() {
		// a data-modifying WITH is allowed at the top level only, where
		// the read-only transaction refuses it as the write it is
		if cte.GetCommonTableExpr().GetCtequery().GetSelectStmt() == nil {
			return sqlText, false
		}
	}
	return "SELECT * FROM (\n" + body + "\n) AS " + source.CappedAlias + " LIMIT " + strconv.Itoa(maxRows+1), true
}
