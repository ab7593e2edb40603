package planast

import "strings"

// Type is a portable column or expression type, the same names on every
// engine. Adapters map declared types onto these (see internal/source).
type Type string

// Portable types.
const (
	TypeInteger   Type = "integer"
	TypeDecimal   Type = "decimal"
	TypeFloat     Type = "float"
	TypeText      Type = "text"
	TypeBoolean   Type = "boolean"
	TypeDate      Type = "date"
	TypeTimestamp Type = "timestamp"
	TypeBlob      Type = "blob"
	TypeUnknown   Type = "unknown" // also the type of NULL
	// TypeJSON is a JSON document or a nested record (PostgreSQL json and
	// jsonb, DuckDB JSON, STRUCT, MAP and UNION); a value is its JSON text,
	// numbers in it written with all their digits.
	TypeJSON Type = "json"
	// TypeArray is an array or list (PostgreSQL arrays, DuckDB LIST and
	// ARRAY); a value is the JSON text of its elements.
	TypeArray Type = "array"
	// TypeInterval is a duration (PostgreSQL and DuckDB INTERVAL); a value
	// is its ISO 8601 text ("P1DT2H").
	TypeInterval Type = "interval"
)

// IsNested reports whether t is json or array: a value the engines can
// select but neither search as text (LIKE, text functions) nor compare
// with text without a cast, each in its own text form.
func (t Type) IsNested() bool { return t == TypeJSON || t == TypeArray }

// IsNumeric reports whether t is integer, decimal or float.
func (t Type) IsNumeric() bool { return t == TypeInteger || t == TypeDecimal || t == TypeFloat }

// IsTemporal reports whether t is date or timestamp.
func (t Type) IsTemporal() bool { return t == TypeDate || t == TypeTimestamp }

// TableInfo is what the validator needs of one table: its exact names and
// columns. Columns keep the database's order.
type TableInfo struct {
	Schema  string
	Name    string
	Columns []ColumnInfo
	// ForeignKeys lists declared foreign keys, used by the join check.
	ForeignKeys []ForeignKeyInfo
	// PrimaryKey lists the primary key columns in key order.
	PrimaryKey []string
	// UniqueKeys lists the table's other keys (UNIQUE constraints, unique
	// indexes over plain columns), each in key order.
	UniqueKeys [][]string
}

// Keys lists every key of t: its primary key, when it has one, then its
// unique keys.
func (t *TableInfo) Keys() [][]string {
	var out [][]string
	if len(t.PrimaryKey) > 0 {
		out = append(out, t.PrimaryKey)
	}
	return append(out, t.UniqueKeys...)
}

// ColumnInfo is one column of a TableInfo.
type ColumnInfo struct {
	Name string
	Type Type
	// Unordered marks a type without an ordering (PostgreSQL json, xml,
	// point): no ORDER BY may name it, and no tie-breaker does.
	Unordered bool
	// Money marks PostgreSQL's money type (a decimal): it has no ABS, no
	// cast to double and no arithmetic or comparison with numbers, so the
	// renderer reads it as NUMERIC.
	Money bool
	// AsText names the engine type of a column the portable types call
	// text whose engine type is not text ("uuid", "macaddr"; "" for
	// others): LIKE, text functions and comparisons with text that does
	// not parse fail on it there, so the renderer reads it as text.
	AsText string
	// Comment is the column's comment in the database, if any: a join
	// it documents ("the read_id it replaces") is no undeclared one.
	Comment string
	// Scale is a decimal column's declared scale (the digits after its
	// point: 12 for DECIMAL(20,12)), 0 when it declares none.
	Scale int
	// Mixed marks a column holding values that are not of its type (SQLite
	// stores 'abc' in an INTEGER column), as its profile counted them:
	// plans read them as NULL (Column.ReadAs).
	Mixed bool
	// Zoned marks a timestamp column that holds instants with a zone
	// (PostgreSQL timestamptz, DuckDB TIMESTAMPTZ): its SQL AT TIME ZONE
	// reads the instant's wall clock in a zone, which is the plan's
	// AT_TIME_ZONE, where of a timestamp without zone it means the inverse.
	Zoned bool
	// Repeats marks a column whose profile saw a value on more than one
	// row (fewer distinct values than non-NULL rows): a join on it meets
	// several rows per value, which the fan-out check needs when no
	// foreign key says so.
	Repeats bool
}

// ForeignKeyInfo is Columns → RefSchema.RefTable(RefColumns).
type ForeignKeyInfo struct {
	Columns    []string
	RefSchema  string
	RefTable   string
	RefColumns []string
}

// Column finds a column by exact name, then by case-insensitive name when
// exactly one column matches.
func (t *TableInfo) Column(name string) (ColumnInfo, bool) {
	for _, c := range t.Columns {
		if c.Name == name {
			return c, true
		}
	}
	var hit ColumnInfo
	n := 0
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			hit, n = c, n+1
		}
	}
	return hit, n == 1
}

// Catalog is the schema snapshot the validator checks names against.
// LookupTable resolves schema (may be empty: the default search path) and
// name exactly, else case-insensitively when that is unambiguous. It is
// implemented by internal/schema.Snapshot.
type Catalog interface {
	LookupTable(schema, name string) (*TableInfo, bool)
}

// Access is the access checker the validator asks about every table and
// column a plan touches, inside subqueries and CTEs too. It is implemented by
// scope.Scope. A nil Access allows everything (single-user mode).
type Access interface {
	AllowTable(schema, table string) bool
	AllowColumn(schema, table, column string) bool
}
