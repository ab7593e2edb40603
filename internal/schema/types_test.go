package schema

import (
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

func TestNormalizeType(t *testing.T) {
	tests := []struct {
		dialect, declared string
		want              planast.Type
	}{
		// SQLite affinity rules, in their order.
		{"sqlite", "INTEGER", planast.TypeInteger},
		{"sqlite", "int", planast.TypeInteger},
		{"sqlite", "BIGINT", planast.TypeInteger},
		{"sqlite", "UNSIGNED BIG INT", planast.TypeInteger},
		{"sqlite", "TINYINT(1)", planast.TypeInteger},
		{"sqlite", "FLOATING POINT", planast.TypeInteger}, // contains INT: SQLite's own quirk
		{"sqlite", "NVARCHAR(40)", planast.TypeText},
		{"sqlite", "VARCHAR(255)", planast.TypeText},
		{"sqlite", "CHARACTER(20)", planast.TypeText},
		{"sqlite", "CLOB", planast.TypeText},
		{"sqlite", "text", planast.TypeText},
		{"sqlite", "BLOB", planast.TypeBlob},
		{"sqlite", "", planast.TypeUnknown},
		{"sqlite", "REAL", planast.TypeFloat},
		{"sqlite", "FLOAT", planast.TypeFloat},
		{"sqlite", "DOUBLE PRECISION", planast.TypeFloat},
		{"sqlite", "NUMERIC(12,2)", planast.TypeDecimal},
		{"sqlite", "NUMERIC", planast.TypeDecimal},
		{"sqlite", "DECIMAL(10,5)", planast.TypeDecimal},
		{"sqlite", "MONEY", planast.TypeDecimal},
		{"sqlite", "DATE", planast.TypeDate},
		{"sqlite", "date", planast.TypeDate},
		{"sqlite", "DATETIME", planast.TypeTimestamp},
		{"sqlite", "TIMESTAMP", planast.TypeTimestamp},
		{"sqlite", "BOOLEAN", planast.TypeBoolean},
		{"sqlite", "BOOL", planast.TypeBoolean},
		{"sqlite", "JSON", planast.TypeText},
		{"sqlite", "TIME", planast.TypeText},
		{"sqlite", "STRING", planast.TypeUnknown}, // NUMERIC affinity in SQLite: no safe portable type
		// PostgreSQL
		{"postgres", "integer", planast.TypeInteger},
		{"postgres", "bigint", planast.TypeInteger},
		{"postgres", "smallint", planast.TypeInteger},
		{"postgres", "numeric(12,2)", planast.TypeDecimal},
		{"postgres", "double precision", planast.TypeFloat},
		{"postgres", "real", planast.TypeFloat},
		{"postgres", "character varying(40)", planast.TypeText},
		{"postgres", "character(2)", planast.TypeText},
		{"postgres", "text", planast.TypeText},
		{"postgres", "uuid", planast.TypeText},
		{"postgres", "jsonb", planast.TypeJSON},
		{"postgres", "json", planast.TypeJSON},
		{"postgres", "interval", planast.TypeInterval},
		{"postgres", "interval day to second", planast.TypeInterval},
		{"postgres", "boolean", planast.TypeBoolean},
		{"postgres", "date", planast.TypeDate},
		{"postgres", "timestamp without time zone", planast.TypeTimestamp},
		{"postgres", "timestamp(3) with time zone", planast.TypeTimestamp},
		{"postgres", "timestamptz", planast.TypeTimestamp},
		{"postgres", "time without time zone", planast.TypeText},
		{"postgres", "bytea", planast.TypeBlob},
		{"postgres", "integer[]", planast.TypeArray},
		{"postgres", "text[]", planast.TypeArray},
		{"postgres", "_int4", planast.TypeArray},
		{"postgres", "tsvector", planast.TypeUnknown},
		// DuckDB
		{"duckdb", "INTEGER", planast.TypeInteger},
		{"duckdb", "HUGEINT", planast.TypeInteger},
		{"duckdb", "UBIGINT", planast.TypeInteger},
		{"duckdb", "DECIMAL(18,3)", planast.TypeDecimal},
		{"duckdb", "DOUBLE", planast.TypeFloat},
		{"duckdb", "FLOAT", planast.TypeFloat},
		{"duckdb", "VARCHAR", planast.TypeText},
		{"duckdb", "STRING", planast.TypeText},
		{"duckdb", "BOOLEAN", planast.TypeBoolean},
		{"duckdb", "DATE", planast.TypeDate},
		{"duckdb", "TIMESTAMP", planast.TypeTimestamp},
		{"duckdb", "TIMESTAMP WITH TIME ZONE", planast.TypeTimestamp},
		{"duckdb", "TIMESTAMP_NS", planast.TypeTimestamp},
		{"duckdb", "BLOB", planast.TypeBlob},
		{"duckdb", "ENUM('a', 'b')", planast.TypeText},
		{"duckdb", "INTEGER[]", planast.TypeArray},
		{"duckdb", "INTEGER[3]", planast.TypeArray},
		{"duckdb", "STRUCT(a INTEGER)[]", planast.TypeArray},
		{"duckdb", "STRUCT(a INTEGER)", planast.TypeJSON},
		{"duckdb", "MAP(VARCHAR, INTEGER)", planast.TypeJSON},
		{"duckdb", "UNION(n INTEGER, s VARCHAR)", planast.TypeJSON},
		{"duckdb", "JSON", planast.TypeJSON},
		{"duckdb", "INTERVAL", planast.TypeInterval},
		{"sqlite", "JSON", planast.TypeText},
		// unknown dialect
		{"oracle", "NUMBER", planast.TypeUnknown},
	}
	for _, tt := range tests {
		if got := NormalizeType(tt.dialect, tt.declared); got != tt.want {
			t.Errorf("NormalizeType(%q, %q) = %q, want %q", tt.dialect, tt.declared, got, tt.want)
		}
	}
}

func TestDecimalScale(t *testing.T) {
	tests := []struct {
		declared string
		scale    int
		ok       bool
	}{
		{"NUMERIC(12,2)", 2, true},
		{"DECIMAL( 20 , 4 )", 4, true},
		{"NUMERIC(10)", 0, true},
		{"NUMERIC", 0, false},
		{"NUMERIC(a,b)", 0, false},
		{"NUMERIC(1,2,3)", 0, false},
		{"NUMERIC(10,-1)", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		s, ok := DecimalScale(tt.declared)
		if s != tt.scale || ok != tt.ok {
			t.Errorf("DecimalScale(%q) = %d, %v; want %d, %v", tt.declared, s, ok, tt.scale, tt.ok)
		}
	}
}
