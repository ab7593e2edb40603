package duckdb

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/internal/source"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// QueryDuckDBConn prepares text as exactly one statement on a DuckDB
// driver connection, runs it with args and reads at most maxRows rows,
// encoded exactly as the DuckDB adapter's Query encodes them: the same
// column types from the reported type names and the same value rule (see
// EncodeValue and duckdbValue). Truncated is set when another row exists.
// The adapter and the in-process DuckDB databases the engine computes in
// (package duckcompute) both read through it, so a combined result reads
// exactly like a datasource's.
func QueryDuckDBConn(ctx context.Context, c driver.Conn, text string, args []any, maxRows int) (*source.Result, error) {
	raw, err := queryDuckDBConn(ctx, c, text, args, maxRows)
	if err != nil {
		return nil, err
	}
	return raw.EncodeWith(duckdbColumn, duckdbValue), nil
}

// queryDuckDBConn is QueryDuckDBConn before the encoding.
//
// The driver decodes a JSON value with encoding/json into float64s, which
// loses the digits of an integer beyond 2^53 (12345678901234567891 comes
// back as 12345678901234567000), and decodes a JSON field inside a list,
// struct, map, array or union the same way. A statement with a JSON or
// nested column therefore runs wrapped in a SELECT that casts those
// columns to VARCHAR (nested ones through to_json), so the document
// arrives as the text DuckDB writes, every digit and nesting level kept;
// the column is reported as JSON.
func queryDuckDBConn(ctx context.Context, c driver.Conn, text string, args []any, maxRows int) (*source.RawResult, error) {
	// prepareCapped prepares text alone (Prepare, not PrepareContext,
	// refuses a text of several statements instead of running all but the
	// last) and under a LIMIT of maxRows+1 where it can.
	stmt, names, prepared, err := prepareCapped(c, text, maxRows)
	if err != nil {
		return nil, err
	}
	defer func() { stmt.Close() }()
	var jsonCols []int
	if ds, ok := stmt.(*duckdb.Stmt); ok {
		if wrapped, cols := duckJSONAsText(ds, prepared); len(cols) > 0 {
			if ws, werr := c.Prepare(wrapped); werr == nil {
				stmt.Close()
				stmt, jsonCols = ws, cols
			}
		}
	}
	qc, ok := stmt.(driver.StmtQueryContext)
	if !ok {
		return nil, fmt.Errorf("duckdb statement %T cannot query with a context", stmt)
	}
	named := make([]driver.NamedValue, len(args))
	for i, a := range args {
		named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	rows, err := qc.QueryContext(ctx, named)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	raw, err := readDriverRows(rows, maxRows)
	if err != nil {
		return nil, err
	}
	if len(names) == len(raw.Names) {
		raw.Names = names // DuckDB renamed duplicates inside the cap's subquery
	}
	for _, i := range jsonCols {
		raw.Decls[i] = "JSON"
	}
	return raw, nil
}

// duckJSONAsText returns the statement that selects text's columns with
// every JSON column cast to VARCHAR, under their own names and in their
// order, and the positions of those columns; none when text returns no
// JSON column. The derived table's column list names the columns by
// position, so duplicate or odd output names stay as they are.
func duckJSONAsText(stmt *duckdb.Stmt, text string) (string, []int) {
	n, err := stmt.ColumnCount()
	if err != nil {
		return "", nil
	}
	var cols []int
	inner := make([]string, n)
	outer := make([]string, n)
	for i := range n {
		name, err := stmt.ColumnName(i)
		if err != nil {
			return "", nil
		}
		inner[i] = fmt.Sprintf(`"c%d"`, i)
		expr := inner[i]
		if info, err := stmt.ColumnTypeInfo(i); err == nil {
			switch {
			case strings.EqualFold(info.Alias(), "JSON"):
				expr = "CAST(" + expr + " AS VARCHAR)"
				cols = append(cols, i)
			case duckNested(info.InternalType()):
				expr = "CAST(to_json(" + expr + ") AS VARCHAR)"
				cols = append(cols, i)
			}
		}
		outer[i] = expr + " AS " + `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
	}
	if len(cols) == 0 {
		return "", nil
	}
	body := source.StatementBody(schema.DialectDuckDB, text)
	if body == "" {
		return "", nil
	}
	// The line breaks keep a -- comment from swallowing the ")".
	return "SELECT " + strings.Join(outer, ", ") + " FROM (\n" + body + "\n) AS nl2sql_json(" + strings.Join(inner, ", ") + ")", cols
}

// duckNested reports the DuckDB types whose values are read as their JSON
// text (to_json) rather than through the driver's Go decoding.
func duckNested(t duckdb.Type) bool {
	switch t {
	case duckdb.TYPE_LIST, duckdb.TYPE_ARRAY, duckdb.TYPE_STRUCT, duckdb.TYPE_MAP, duckdb.TYPE_UNION:
		return true
	}
	return false
}
