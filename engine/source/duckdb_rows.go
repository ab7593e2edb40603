package source

import "database/sql/driver"

// ReadDuckDBRows reads at most maxRows rows of a DuckDB driver result (as
// duckdb-go returns it from a prepared statement) and encodes them exactly
// as the DuckDB adapter's Query does: the same column types from the
// reported type names and the same value rule (see encodeValue and
// duckdbValue). Truncated is set when another row exists. It is for
// in-process DuckDB databases the engine computes in (package duckcompute),
// so that their results read exactly like a datasource's.
func ReadDuckDBRows(rows driver.Rows, maxRows int) (*Result, error) {
	raw, err := readDriverRows(rows, maxRows)
	if err != nil {
		return nil, err
	}
	return raw.encodeWith(duckdbColumn, duckdbValue), nil
}
