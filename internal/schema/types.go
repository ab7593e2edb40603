package schema

import (
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// NormalizeType maps a declared column type of dialect onto a portable type.
// declared is matched case-insensitively, with any "(…)" arguments ignored.
//
// SQLite follows its column-affinity rules, in their order, refined by name:
// a name containing INT is integer; CHAR, CLOB or TEXT is text; BLOB is blob
// and an empty name unknown; REAL, FLOA or DOUB is float; then DATETIME and
// TIMESTAMP are timestamp, DATE is date, BOOL… is boolean, NUMERIC, DECIMAL,
// NUMBER and MONEY are decimal, JSON, UUID and TIME are text, and any other
// name is unknown (SQLite stores JSON as text, so it stays text there).
// DuckDB and PostgreSQL map their own type names: json, jsonb, DuckDB JSON,
// STRUCT, MAP and UNION are json; arrays and lists are array; INTERVAL is
// interval. An unknown dialect is unknown.
func NormalizeType(dialect, declared string) planast.Type {
	switch dialect {
	case DialectSQLite:
		return sqliteType(declared)
	case DialectDuckDB, DialectPostgres:
		return namedType(dialect, declared)
	}
	return planast.TypeUnknown
}

func sqliteType(declared string) planast.Type {
	d := strings.ToUpper(strings.TrimSpace(declared))
	switch {
	case strings.Contains(d, "INT"):
		return planast.TypeInteger
	case strings.Contains(d, "CHAR"), strings.Contains(d, "CLOB"), strings.Contains(d, "TEXT"):
		return planast.TypeText
	case d == "":
		return planast.TypeUnknown
	case strings.Contains(d, "BLOB"):
		return planast.TypeBlob
	case strings.Contains(d, "REAL"), strings.Contains(d, "FLOA"), strings.Contains(d, "DOUB"):
		return planast.TypeFloat
	case strings.HasPrefix(d, "DATETIME"), strings.HasPrefix(d, "TIMESTAMP"):
		return planast.TypeTimestamp
	case strings.HasPrefix(d, "DATE"):
		return planast.TypeDate
	case strings.HasPrefix(d, "BOOL"):
		return planast.TypeBoolean
	case strings.HasPrefix(d, "NUMERIC"), strings.HasPrefix(d, "DECIMAL"),
		strings.HasPrefix(d, "NUMBER"), strings.HasPrefix(d, "MONEY"):
		return planast.TypeDecimal
	case strings.HasPrefix(d, "JSON"), strings.HasPrefix(d, "UUID"), strings.HasPrefix(d, "TIME"):
		return planast.TypeText
	}
	return planast.TypeUnknown
}

// namedTypes maps DuckDB and PostgreSQL base type names (lower case, without
// arguments) onto portable types. Names shared by both engines mean the same.
var namedTypes = map[string]planast.Type{
	// integers
	"tinyint": planast.TypeInteger, "smallint": planast.TypeInteger, "integer": planast.TypeInteger,
	"int": planast.TypeInteger, "bigint": planast.TypeInteger, "hugeint": planast.TypeInteger,
	"int1": planast.TypeInteger, "int2": planast.TypeInteger, "int4": planast.TypeInteger,
	"int8": planast.TypeInteger, "int16": planast.TypeInteger, "int32": planast.TypeInteger,
	"int64": planast.TypeInteger, "int128": planast.TypeInteger, "short": planast.TypeInteger,
	"long": planast.TypeInteger, "signed": planast.TypeInteger,
	"utinyint": planast.TypeInteger, "usmallint": planast.TypeInteger, "uinteger": planast.TypeInteger,
	"ubigint": planast.TypeInteger, "uhugeint": planast.TypeInteger,
	"smallserial": planast.TypeInteger, "serial": planast.TypeInteger, "bigserial": planast.TypeInteger,
	"serial2": planast.TypeInteger, "serial4": planast.TypeInteger, "serial8": planast.TypeInteger,
	"oid": planast.TypeInteger,
	// exact decimals
	"numeric": planast.TypeDecimal, "decimal": planast.TypeDecimal, "money": planast.TypeDecimal,
	// floats
	"real": planast.TypeFloat, "float": planast.TypeFloat, "float4": planast.TypeFloat,
	"float8": planast.TypeFloat, "double": planast.TypeFloat, "double precision": planast.TypeFloat,
	// text
	"text": planast.TypeText, "varchar": planast.TypeText, "character varying": planast.TypeText,
	"char": planast.TypeText, "character": planast.TypeText, "bpchar": planast.TypeText,
	"nchar": planast.TypeText, "nvarchar": planast.TypeText, "string": planast.TypeText,
	"name": planast.TypeText, "citext": planast.TypeText, "uuid": planast.TypeText,
	"xml":  planast.TypeText,
	"enum": planast.TypeText, "inet": planast.TypeText, "cidr": planast.TypeText,
	"macaddr": planast.TypeText,
	// nested values and durations
	"json": planast.TypeJSON, "jsonb": planast.TypeJSON, "interval": planast.TypeInterval,
	"time": planast.TypeText, "timetz": planast.TypeText,
	"time with time zone": planast.TypeText, "time without time zone": planast.TypeText,
	// booleans
	"boolean": planast.TypeBoolean, "bool": planast.TypeBoolean, "logical": planast.TypeBoolean,
	// dates and timestamps
	"date":      planast.TypeDate,
	"timestamp": planast.TypeTimestamp, "timestamptz": planast.TypeTimestamp, "datetime": planast.TypeTimestamp,
	"timestamp with time zone": planast.TypeTimestamp, "timestamp without time zone": planast.TypeTimestamp,
	"timestamp_s": planast.TypeTimestamp, "timestamp_ms": planast.TypeTimestamp,
	"timestamp_ns": planast.TypeTimestamp, "timestamp_us": planast.TypeTimestamp,
	// binary
	"blob": planast.TypeBlob, "bytea": planast.TypeBlob, "binary": planast.TypeBlob,
	"varbinary": planast.TypeBlob, "bit": planast.TypeText, "bit varying": planast.TypeText,
	"varbit": planast.TypeText, "bitstring": planast.TypeText,
}

// bareTypeName is a declared type d (lower case) without its "(…)"
// arguments, wherever they sit ("numeric(12,2)", "timestamp(3) with time
// zone", "character varying(40)"), its words single-spaced.
func bareTypeName(d string) string {
	if i := strings.IndexByte(d, '('); i >= 0 {
		if j := strings.IndexByte(d[i:], ')'); j >= 0 {
			d = d[:i] + d[i+j+1:]
		} else {
			d = d[:i]
		}
	}
	return strings.Join(strings.Fields(d), " ")
}

// Zoned reports whether a declared type is a timestamp with time zone
// (PostgreSQL timestamptz, DuckDB TIMESTAMPTZ), whose values are instants.
func Zoned(declared string) bool {
	switch bareTypeName(strings.ToLower(strings.TrimSpace(declared))) {
	case "timestamptz", "timestamp with time zone":
		return true
	}
	return false
}

func namedType(dialect, declared string) planast.Type {
	d := strings.ToLower(strings.TrimSpace(declared))
	if d == "" {
		return planast.TypeUnknown
	}
	if strings.HasSuffix(d, "]") || (dialect == DialectPostgres && strings.HasPrefix(d, "_")) {
		// "integer[]", "int4[]", DuckDB's "INTEGER[3]" and "_int4"
		// (PostgreSQL's array type names).
		return planast.TypeArray
	}
	d = bareTypeName(d)
	if t, ok := namedTypes[d]; ok {
		return t
	}
	// DuckDB's ENUM('a','b') and nested types (STRUCT(…), MAP(…),
	// UNION(…), whose arguments are gone by now).
	switch {
	case strings.HasPrefix(d, "enum"):
		return planast.TypeText
	case strings.HasPrefix(d, "interval"): // "interval day to second"
		return planast.TypeInterval
	case dialect == DialectDuckDB && (strings.HasPrefix(d, "struct") || strings.HasPrefix(d, "map") || strings.HasPrefix(d, "union")):
		return planast.TypeJSON
	case dialect == DialectDuckDB && strings.HasPrefix(d, "list"):
		return planast.TypeArray
	}
	return planast.TypeUnknown
}

// DecimalScale returns the scale s of a declared "NUMERIC(p,s)" or
// "DECIMAL(p,s)" (any type name with two arguments), and 0 for one argument
// ("NUMERIC(10)"). ok is false when declared carries no arguments or they do
// not parse.
func DecimalScale(declared string) (scale int, ok bool) {
	i := strings.IndexByte(declared, '(')
	j := strings.LastIndexByte(declared, ')')
	if i < 0 || j < i {
		return 0, false
	}
	args := strings.Split(declared[i+1:j], ",")
	switch len(args) {
	case 1:
		if _, err := strconv.Atoi(strings.TrimSpace(args[0])); err != nil {
			return 0, false
		}
		return 0, true
	case 2:
		s, err := strconv.Atoi(strings.TrimSpace(args[1]))
		if err != nil || s < 0 {
			return 0, false
		}
		return s, true
	}
	return 0, false
}
