package schema

import (
	"slices"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/planast"
)

// Dialects a Snapshot may carry.
const (
	DialectSQLite   = "sqlite"
	DialectDuckDB   = "duckdb"
	DialectPostgres = "postgres"
)

// Table kinds.
const (
	KindTable = "table"
	KindView  = "view"
)

// Snapshot is the schema of one datasource at one moment.
type Snapshot struct {
	Datasource string `json:"datasource"`
	Dialect    string `json:"dialect"` // DialectSQLite, DialectDuckDB or DialectPostgres
	// Tables are sorted by (Schema, Name), byte-wise.
	Tables []Table `json:"tables"`
	// DefaultSchema is the schema a table name without one reads, when
	// it is not the dialect's (a PostgreSQL DSN's search_path): see
	// Snapshot.Default.
	DefaultSchema string `json:"default_schema,omitempty"`
	// ProfileFormat is the ProfileFormat its profile was made by (0: before
	// formats were numbered), set by whoever stores a profiled snapshot: a
	// stored profile of an older format lacks what profiling now records,
	// so it is profiled again rather than reused.
	ProfileFormat int `json:"profile_format,omitempty"`
	// Unreadable are the relations of the visible schemas that the
	// database role may not read (PostgreSQL: no SELECT privilege),
	// sorted. They are no table of the snapshot; a plan naming one is
	// told that it exists and what to grant, not that there is no such
	// table (UnreadableTable).
	Unreadable []Relation `json:"unreadable,omitempty"`
	// Role is the database role the schema was read as (PostgreSQL's
	// current_user), "" where there is none: what to grant names it.
	Role string `json:"role,omitempty"`
	// Dictionaries are the tables whose rows gave notes to other tables
	// and columns (CommentFrom), sorted: a caller who may not read one
	// whole gets none of its notes (scope.FilterSnapshot).
	Dictionaries []Dictionary `json:"dictionaries,omitempty"`
}

// Relation names a table or view.
type Relation struct {
	Schema string `json:"schema"`
	Name   string `json:"name"`
}

// ProfileFormat numbers what profiling records; it grows when profiling
// starts recording something a stored profile lacks. 1: the values of
// date and number text columns that casts read as NULL
// (ColumnProfile.CastNulls). 2: those counts also for text columns of
// dates written day first or with slashes or dots. 3: a timestamp text
// ending in Z or a UTC offset is valid (the values read as NULL counted
// it). 4: those counts also for text columns of amounts written for
// people ('$1,200.00', '12.5%'). 5: the timestamps of such a column
// whose written day is not their day in UTC (ColumnProfile.OffsetDays).
// 6: the counts for any text column with one sample that is a number or
// a date (a column of codes 'A-36' with some bare '36' is cast to join).
// 7: the day-first and month-first counts of those dates
// (CastNulls.DayFirst, MonthFirst). 8: how many of them have a numeric
// shape a plan can reorder into ISO, and an example of each kind
// (CastNulls.Reorderable, ReorderableExample, OtherExample). 9: the rows
// that repeat another exactly (Table.DuplicateRows). 10: those day-first
// and month-first counts for each separator (CastNulls.Orders). 11: dates
// whose day or month is one digit ('9/9/2025') counted too, and the
// shapes seen (CastNulls.Shapes). 12: dates written with the month's name
// ('February27,2009') counted too, and a rating or score such as '1.5/4'
// or '3-1' no longer taken for a date. 13: a boolean column's values
// that are no boolean (2, 'St. Mirren Park') counted as Invalid. 14: the
// samples of arrays and JSON documents written as results write them
// (["a,b"], not '{"a,b"}'). 15: what each view reads (Table.Reads), by
// which access to it is decided: a stored snapshot without it would let
// a view show what a role may not read of its tables. 16: a SQLite view's
// computed columns typed from a sample of its rows (a stored snapshot
// would keep them unknown until the file changed). 17: each view's
// definition (Table.Definition): a stored snapshot without it would show
// planners a view with nothing of what it covers. 18: a SQLite boolean
// column's values stored as text that read as booleans ('yes', 'true')
// counted (ColumnProfile.Respelled): SQLite reads them as false. 19: the
// numbers a SQLite date or timestamp column stores (ColumnProfile.Numbers):
// Unix times there were counted only among the values it cannot read.
// 20: a text column of timestamps written both with 'T' and with a space
// before the time counted (ColumnProfile.Spellings), and its range taken
// over the values read with a space: text orders 'T' after ' ', so the
// range over the text was wrong within a day. 21: that range's ends as
// stored: 20 wrote an end stored with 'T' with a space, a value stored in
// neither spelling ('2024-01-03 01:34:09Z') that no filter finds.
const ProfileFormat = 21

// Table is one table or view. Schema is the engine's schema name ("main" for
// SQLite and DuckDB's default, "public" for PostgreSQL's).
type Table struct {
	Schema  string `json:"schema"`
	Name    string `json:"name"`
	Kind    string `json:"kind"` // KindTable or KindView
	Comment string `json:"comment,omitempty"`
	// CommentFrom names the documentation table Comment was read from
	// (one of Snapshot.Dictionaries), nil for the database's own comment.
	CommentFrom *Relation `json:"comment_from,omitempty"`
	Columns     []Column  `json:"columns"` // in the database's order
	// PrimaryKey lists the key's columns in key order.
	PrimaryKey []string `json:"primary_key,omitempty"`
	// UniqueKeys are the table's other keys, each in key order, sorted:
	// the columns of a UNIQUE constraint or a unique index over plain
	// columns, not a partial one. No two rows share a value of one (NULLs
	// aside, which no join matches): a join that names a whole unique key
	// meets one row, as one naming the primary key does.
	UniqueKeys  [][]string   `json:"unique_keys,omitempty"`
	ForeignKeys []ForeignKey `json:"foreign_keys,omitempty"`
	// RowCount is set by profiling; nil when not profiled.
	RowCount *int64 `json:"row_count,omitempty"`
	// DuplicateRows is how many of the profiled rows repeat another one
	// exactly (every column equal, NULL equal to NULL): a log exported
	// twice, which every SUM and COUNT over the table counts again. Set
	// by profiling for a table with no primary key and no column unique
	// in every row (either rules copies out); over the first
	// ProfileSampleRows rows of a larger table, as its columns' samples.
	DuplicateRows int64 `json:"duplicate_rows,omitempty"`
	// Reads are the relations a view's definition reads (none for a
	// table), as the engine reports them or as names in its SQL: access
	// to a view is decided with them (package scope), since a view reads
	// its tables whatever a role may read of them.
	Reads []Relation `json:"reads,omitempty"`
	// Definition is a view's query as the engine reports it (SQLite's
	// sqlite_master.sql and DuckDB's duckdb_views().sql without their
	// CREATE VIEW … AS, PostgreSQL's pg_get_viewdef), at most
	// MaxDefinitionBytes, ending in "…" when cut; "" for a table. A view
	// named for its result ("driver_km") reads as the answer to a
	// question it does not answer (every year's completed trips, asked
	// for 2024's): what it covers is in its FROM, WHERE and GROUP BY. It
	// is text from the database: every rendering quotes it as data.
	Definition string `json:"definition,omitempty"`
	// DefinitionWithheld is set, with Definition cleared, on a caller's
	// copy of the snapshot (scope.FilterSnapshot) when the definition
	// would name what the caller may not read.
	DefinitionWithheld bool `json:"definition_withheld,omitempty"`
}

// MaxDefinitionBytes bounds a view's Definition: a view built of a few
// joins and filters fits; one of pages of CASE arms shows its start.
const MaxDefinitionBytes = 2000

// MaxCommentBytes bounds one table's or column's Comment read from the
// database or its documentation table: a description, not a document.
const MaxCommentBytes = 1000

// Column is one column of a Table.
type Column struct {
	Name         string       `json:"name"`
	DeclaredType string       `json:"declared_type,omitempty"` // as the database declares it, e.g. "NUMERIC(12,2)"
	Type         planast.Type `json:"type"`                    // NormalizeType of DeclaredType
	Nullable     bool         `json:"nullable"`
	Comment      string       `json:"comment,omitempty"`
	// CommentFrom is Table.CommentFrom for the column's Comment.
	CommentFrom *Relation `json:"comment_from,omitempty"`
	// TextOf is the engine type of a column the portable types call text
	// whose engine type is no string: on PostgreSQL an enum, inet, cidr,
	// bit or xml, which takes no LIKE, regular expression or collation,
	// and refuses a literal it cannot read ("invalid input value for
	// enum", "invalid input syntax for type inet"); on DuckDB an enum,
	// which orders by its declared values. Plans read its text
	// (TextLike), so a filter on any value is no error and one plan
	// orders alike on every engine.
	TextOf string `json:"text_of,omitempty"`
	// Profile is nil when the column was not profiled.
	Profile *ColumnProfile `json:"profile,omitempty"`
}

// ColumnProfile summarises a column's values. Values (Min, Max,
// SampleValues) use the result encoding of internal/source: int64 or a decimal
// string beyond 2^53, float64, string, bool.
type ColumnProfile struct {
	DistinctCount int64   `json:"distinct_count"`
	NullFraction  float64 `json:"null_fraction"` // 0..1; 0 for an empty table
	// Min and Max are set for numeric and temporal columns (also for text
	// columns whose values are all ISO dates or timestamps, see Temporal).
	Min any `json:"min,omitempty"`
	Max any `json:"max,omitempty"`
	// SampleValues are every distinct value (sorted) when AllValues, else
	// the most frequent values, ties broken by value.
	SampleValues []any `json:"sample_values,omitempty"`
	AllValues    bool  `json:"all_values,omitempty"`
	// Temporal is TypeDate or TypeTimestamp when a text column holds only
	// ISO-8601 dates (YYYY-MM-DD) or timestamps (YYYY-MM-DD HH:MM...), else
	// empty. The column's Type is not changed.
	Temporal planast.Type `json:"temporal,omitempty"`
	// SampledRows is non-zero when the table had more rows than profiling
	// reads in full: DistinctCount and SampleValues then come from its
	// first SampledRows rows in scan order (DistinctCount a lower bound,
	// except that a column unique within them counts as unique throughout;
	// AllValues never set), while NullFraction, Min, Max and Temporal are
	// of every row.
	SampledRows int64 `json:"sampled_rows,omitempty"`
	// Invalid counts the values (of every row) that are not of a numeric or
	// temporal column's type, which only SQLite can store ('abc' in an
	// INTEGER column, 2024-02-30 in a DATE one); plans read them as NULL
	// (render.ReadAs), and Min and Max leave them out. InvalidExample is
	// the least of them.
	Invalid        int64 `json:"invalid,omitempty"`
	InvalidExample any   `json:"invalid_example,omitempty"`
	// Respelled counts the values of a SQLite boolean column stored as
	// text that read as booleans ('yes', 'true', 't'): SQLite itself
	// takes such text for false in a filter, so plans read the column
	// through render.ReadAs as they do one with Invalid values.
	Respelled int64 `json:"respelled,omitempty"`
	// Numbers are the values of a SQLite date or timestamp column stored
	// as numbers, which are among Invalid: a loader that wrote time()
	// beside ISO text left Unix times there, which a text comparison
	// never matches as dates and the range leaves out (UnixTimes reads
	// them).
	Numbers *StoredNumbers `json:"numbers,omitempty"`
	// CastNulls are set on a text column most of whose sampled values
	// hold dates, or most numbers, by the text-cast rule
	// (render/textcast.go): for each cast to such a value that reads some
	// of the column's values (of every row) as NULL, how many, and the
	// least of them. Other text columns are not counted, so a column of
	// names costs profiling nothing more.
	CastNulls []CastNulls `json:"cast_nulls,omitempty"`
	// OffsetDays is set on such a text column of dates when some of its
	// timestamps end in a UTC offset that puts them on another day in UTC
	// than the one they write ('2024-12-31T23:30:00-05:00' is 2025-01-01
	// 04:30 in UTC): a cast to date reads the day written, a cast to
	// timestamp the instant in UTC, and text comparisons, LIKE and
	// MIN/MAX read the text.
	OffsetDays *OffsetDays `json:"offset_days,omitempty"`
	// Spellings is set on such a text column when some of its ISO
	// timestamps write 'T' before the time ('2024-01-03T01:34:09Z') and
	// some a space ('2024-01-01 15:18:49'): text orders 'T' after ' ', so
	// a comparison of the text with a literal, MIN, MAX and ORDER BY are
	// wrong within a day, while a cast to timestamp reads both. Min and
	// Max are then the earliest and latest as read with a space in place
	// of the 'T', each written as stored ('2024-01-03T01:34:09Z'), so a
	// filter on it finds it: the text read with a space is no stored
	// value ('2024-01-03 01:34:09Z').
	Spellings *TimestampSpellings `json:"timestamp_spellings,omitempty"`
}

// TimestampSpellings counts the timestamps of a text column written with
// 'T' before the time and those written with a space, with the least of
// each.
type TimestampSpellings struct {
	T            int64 `json:"t"`
	TExample     any   `json:"t_example,omitempty"`
	Space        int64 `json:"space"`
	SpaceExample any   `json:"space_example,omitempty"`
}

// Views counts the views among s's tables.
func (s *Snapshot) Views() int {
	n := 0
	for _, t := range s.Tables {
		if t.Kind == KindView {
			n++
		}
	}
	return n
}

// StoredNumbers counts the numbers stored in a date or timestamp column,
// with the least and the greatest of them.
type StoredNumbers struct {
	Count int64 `json:"count"`
	Min   any   `json:"min,omitempty"`
	Max   any   `json:"max,omitempty"`
}

// UnixTimes reads the numbers a date or timestamp column holds
// (Numbers) as Unix times, by planast.UnixSpan: how many, the dates they
// span, their unit and FROM_EPOCH_SECONDS's divisor; ok is false when
// the column holds no numbers or they read as no Unix times in one unit.
func (p *ColumnProfile) UnixTimes() (n int64, from, to time.Time, unit, per string, ok bool) {
	if p == nil || p.Numbers == nil || p.Numbers.Count == 0 {
		return 0, from, to, "", "", false
	}
	from, to, unit, per, ok = planast.UnixSpan(p.Numbers.Min, p.Numbers.Max)
	return p.Numbers.Count, from, to, unit, per, ok
}

// OffsetDays counts the values of a text column whose written day is not
// their day in UTC; Example is the least of them.
type OffsetDays struct {
	Count   int64 `json:"count"`
	Example any   `json:"example,omitempty"`
}

// CastNulls counts the non-NULL values of a text column that a cast reads
// as NULL, as Invalid counts those not of a column's own type.
type CastNulls struct {
	// To is TypeDate, TypeTimestamp, or TypeFloat for a cast to any
	// number (counted by the widest range: a cast to integer also reads
	// text beyond ±2^63 as NULL, which this count leaves out).
	To             planast.Type `json:"to"`
	Invalid        int64        `json:"invalid"`
	InvalidExample any          `json:"invalid_example,omitempty"`
	// DayFirst and MonthFirst count, for a cast to date, the values
	// written NN/NN/YYYY (or with dots or dashes) whose first part
	// (DayFirst) or second (MonthFirst) is over 12 and so must be the
	// day: what tells which order the column writes where both parts are
	// 12 or less.
	DayFirst   int64 `json:"day_first,omitempty"`
	MonthFirst int64 `json:"month_first,omitempty"`
	// Orders splits DayFirst and MonthFirst by the separator the values
	// write ('/', '.', '-'; those with a count only, in that order): a
	// column typed by several hands writes '15.02.2024' day first and
	// '03/20/2024' month first, and its ambiguous dates ('03.04.2024',
	// '03/04/2024') are read each the way its separator writes.
	Orders []DateOrder `json:"orders,omitempty"`
	// Shapes names the DateShapes some value is written in.
	Shapes []string `json:"shapes,omitempty"`
	// Reorderable counts, for a cast to date, the values shaped
	// NN/NN/YYYY or YYYY/NN/NN (slashes, dots or dashes), alone or with a
	// time after them: those a plan can reorder into ISO with SUBSTR and
	// CONCAT.
	// ReorderableExample is the least of them, OtherExample the least of
	// the rest that is not blank ('Feb 27, 2025', '2024-3-5'), which such
	// a reordering leaves unread: a fix shown for the first kind must
	// say that the second remains, or its total looks complete.
	Reorderable        int64 `json:"reorderable,omitempty"`
	ReorderableExample any   `json:"reorderable_example,omitempty"`
	OtherExample       any   `json:"other_example,omitempty"`
}

// DateShape is a shape of date written day and month first (in either
// order) with a four-digit year: each part of one or two digits
// ('03/20/2024', '3/20/2024', '20/3/2024', '9/9/2025'), with slashes,
// dots or dashes. Name is as CastNulls.Shapes lists it.
type DateShape struct {
	Name          string
	First, Second int // the parts' lengths
}

// DateShapes are the shapes a plan can reorder into ISO with SUBSTR and
// CONCAT, padding a part of one digit.
var DateShapes = []DateShape{{"NN/NN/YYYY", 2, 2}, {"N/NN/YYYY", 1, 2}, {"NN/N/YYYY", 2, 1}, {"N/N/YYYY", 1, 1}}

// DateOrder counts, for one separator, the dates of a text column whose
// first part (DayFirst) or second (MonthFirst) is over 12.
type DateOrder struct {
	Sep        string `json:"sep"`
	DayFirst   int64  `json:"day_first,omitempty"`
	MonthFirst int64  `json:"month_first,omitempty"`
}

// CastNull is what the profile counted for a cast of the text column to
// t: ok is false when the cast reads no value as NULL, or when the column
// was not counted.
func (p *ColumnProfile) CastNull(t planast.CastType) (CastNulls, bool) {
	to := planast.Type(t)
	if t == planast.CastInteger || t == planast.CastDecimal {
		to = planast.TypeFloat
	}
	if p != nil {
		for _, c := range p.CastNulls {
			if c.To == to {
				return c, true
			}
		}
	}
	return CastNulls{}, false
}

// ForeignKey is Columns → RefSchema.RefTable(RefColumns), columns in key order.
type ForeignKey struct {
	Columns    []string `json:"columns"`
	RefSchema  string   `json:"ref_schema"`
	RefTable   string   `json:"ref_table"`
	RefColumns []string `json:"ref_columns"`
}

var _ planast.Catalog = (*Snapshot)(nil)

// Lookup finds a table or view. schema may be empty (any schema). It tries
// an exact match of both names first; when that finds nothing it matches
// case-insensitively. Either way the match must be unique, except that an
// empty schema prefers the table in the dialect's default schema (as
// PostgreSQL's search_path does): a customers table added in another schema
// must not make every plan naming the public one fail. Without a schema,
// a name no table has that reads as schema.name (the form PlanName writes)
// is looked up as such.
func (s *Snapshot) Lookup(schema, name string) (*Table, bool) {
	if s == nil {
		return nil, false
	}
	def := s.Default()
	match := func(eq func(a, b string) bool) (*Table, int) {
		var hit, inDefault *Table
		n, nd := 0, 0
		for i := range s.Tables {
			t := &s.Tables[i]
			if eq(t.Name, name) && (schema == "" || eq(t.Schema, schema)) {
				hit, n = t, n+1
				if t.Schema == def {
					inDefault, nd = t, nd+1
				}
			}
		}
		if n > 1 && schema == "" && nd == 1 {
			return inDefault, 1
		}
		return hit, n
	}
	if t, n := match(func(a, b string) bool { return a == b }); n > 0 {
		return t, n == 1
	}
	if t, n := match(strings.EqualFold); n > 0 {
		return t, n == 1
	}
	if sch, rest, dotted := strings.Cut(name, "."); dotted && schema == "" && sch != "" && rest != "" {
		return s.Lookup(sch, rest)
	}
	return nil, false
}

// UnreadableTable finds, among the relations the role may not read, the
// one a plan's table name (schema optional: the default one) names,
// exactly or case-insensitively.
func (s *Snapshot) UnreadableTable(schema, name string) (Relation, bool) {
	if s == nil {
		return Relation{}, false
	}
	if schema == "" {
		schema = s.Default()
	}
	for _, eq := range []func(a, b string) bool{func(a, b string) bool { return a == b }, strings.EqualFold} {
		for _, r := range s.Unreadable {
			if eq(r.Name, name) && eq(r.Schema, schema) {
				return r, true
			}
		}
	}
	return Relation{}, false
}

// DefaultSchema is the schema a table name without one lives in: "public"
// on PostgreSQL (the search_path every session gets), "main" on SQLite and
// DuckDB.
func DefaultSchema(dialect string) string {
	if dialect == DialectPostgres {
		return "public"
	}
	return "main"
}

// WithTables is a snapshot of the same datasource holding tables (a
// part of s's, a caller's view of them): everything else s says of its
// datasource comes along.
func (s *Snapshot) WithTables(tables []Table) *Snapshot {
	c := *s
	c.Tables = tables
	return &c
}

// Default is the schema a table name without one reads: DefaultSchema,
// or the one the datasource's connection names instead.
func (s *Snapshot) Default() string {
	if s.DefaultSchema != "" {
		return s.DefaultSchema
	}
	return DefaultSchema(s.Dialect)
}

// PlanName is the name a plan (and every listing a planner reads) gives t:
// its name in the default schema, schema.name elsewhere, which Lookup
// reads back; two tables of one name in two schemas are thus told apart.
func (s *Snapshot) PlanName(t *Table) string { return PlanName(s.Default(), t.Schema, t.Name) }

// RefPlanName is PlanName for the table a foreign key refers to.
func (s *Snapshot) RefPlanName(fk ForeignKey) string {
	return PlanName(s.Default(), fk.RefSchema, fk.RefTable)
}

// PlanName is the name plans give table name of schema when def is the
// schema bare names read: name there (or with no schema known),
// schema.name elsewhere.
func PlanName(def, schema, name string) string {
	if schema == "" || def == "" || schema == def {
		return name
	}
	return schema + "." + name
}

// LookupTable implements planast.Catalog: Lookup, returned as the
// validator's TableInfo (a fresh copy on each call).
func (s *Snapshot) LookupTable(schema, name string) (*planast.TableInfo, bool) {
	t, ok := s.Lookup(schema, name)
	if !ok {
		return nil, false
	}
	return t.Info(), true
}

// Info returns the table as the validator's TableInfo.
func (t *Table) Info() *planast.TableInfo {
	info := &planast.TableInfo{
		Schema:     t.Schema,
		Name:       t.Name,
		Columns:    make([]planast.ColumnInfo, len(t.Columns)),
		PrimaryKey: append([]string(nil), t.PrimaryKey...),
		UniqueKeys: cloneKeys(t.UniqueKeys),
	}
	for i, c := range t.Columns {
		info.Columns[i] = planast.ColumnInfo{Name: c.Name, Type: c.Type, Unordered: Unordered(c.DeclaredType), Comment: c.Comment,
			Money:  c.Type == planast.TypeDecimal && strings.EqualFold(strings.TrimSpace(c.DeclaredType), "money"),
			AsText: c.textLike(),
			Zoned:  c.Type == planast.TypeTimestamp && Zoned(c.DeclaredType),
			Mixed:  c.Profile != nil && (c.Profile.Invalid > 0 || c.Profile.Respelled > 0), Repeats: repeats(t.RowCount, c.Profile)}
		if c.Type == planast.TypeDecimal {
			info.Columns[i].Scale, _ = DecimalScale(c.DeclaredType)
		}
	}
	for _, fk := range t.ForeignKeys {
		info.ForeignKeys = append(info.ForeignKeys, planast.ForeignKeyInfo{
			Columns:    append([]string(nil), fk.Columns...),
			RefSchema:  fk.RefSchema,
			RefTable:   fk.RefTable,
			RefColumns: append([]string(nil), fk.RefColumns...),
		})
	}
	return info
}

// repeats reports whether a profile saw fewer distinct values than
// non-NULL rows: over every row, or over the rows a sampled profile read
// (its distinct count is of those).
func repeats(rows *int64, p *ColumnProfile) bool {
	if p == nil || rows == nil {
		return false
	}
	n := float64(*rows)
	if p.SampledRows > 0 {
		n = float64(p.SampledRows)
	}
	return float64(p.DistinctCount) < n*(1-p.NullFraction)-0.5
}

// Column finds a column by exact name, then case-insensitively when exactly
// one column matches.
func (t *Table) Column(name string) (*Column, bool) {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i], true
		}
	}
	var hit *Column
	n := 0
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, name) {
			hit, n = &t.Columns[i], n+1
		}
	}
	return hit, n == 1
}

// TableNames lists the snapshot's tables in order as plans name them
// (PlanName; validate.TableLister).
func (s *Snapshot) TableNames() []string {
	out := make([]string, len(s.Tables))
	for i := range s.Tables {
		out[i] = s.PlanName(&s.Tables[i])
	}
	return out
}

// unorderedTypes are PostgreSQL types without a default btree ordering:
// ORDER BY such a column fails with "could not identify an ordering
// operator".
var unorderedTypes = map[string]bool{"json": true, "xml": true, "point": true, "line": true, "lseg": true,
	"box": true, "path": true, "polygon": true, "circle": true, "_json": true, "_xml": true, "_point": true,
	"json[]": true, "xml[]": true, "point[]": true}

// textLikeTypes are engine types the portable types call text whose
// values are not text to the engine: PostgreSQL refuses LIKE, UPPER or a
// comparison with a literal that does not parse ("operator does not
// exist: uuid ~~ text", "invalid input syntax for type uuid"), DuckDB
// likewise for its UUID. Each one's cast to text is the text its values
// come back as; inet's is not (it adds /32 to a host address), so inet
// and cidr stay as they are.
var textLikeTypes = map[string]bool{"uuid": true, "macaddr": true, "macaddr8": true}

// TextLike is the engine type of a column of a declared type that the
// portable types call text and that must be read as text
// (planast.ColumnInfo.AsText), "" for any other.
func TextLike(t planast.Type, declared string) string {
	d := strings.ToLower(strings.TrimSpace(declared))
	if t == planast.TypeText && textLikeTypes[d] {
		return d
	}
	return ""
}

// textLike is TextLike of c, or its TextOf.
func (c *Column) textLike() string {
	if c.TextOf != "" && c.Type == planast.TypeText {
		return c.TextOf
	}
	return TextLike(c.Type, c.DeclaredType)
}

// Unordered reports whether a declared type has no ordering.
func Unordered(declared string) bool {
	return unorderedTypes[strings.ToLower(strings.TrimSpace(declared))]
}

// UnreadableRelation is UnreadableTable for the plan validator, which
// knows no schema types.
func (s *Snapshot) UnreadableRelation(schema, name string) (string, string, bool) {
	r, ok := s.UnreadableTable(schema, name)
	return r.Schema, r.Name, ok
}

// ReadingRole is the role the schema was read as (Role), "" when unknown.
func (s *Snapshot) ReadingRole() string {
	if s == nil {
		return ""
	}
	return s.Role
}

// cloneKeys copies keys, nil for none.
func cloneKeys(keys [][]string) [][]string {
	var out [][]string
	for _, k := range keys {
		out = append(out, slices.Clone(k))
	}
	return out
}

// OtherKeys returns keys as Table.UniqueKeys holds them: sorted, each once,
// none equal to the primary key pk (a UNIQUE constraint beside a unique
// index of the same columns is one key).
func OtherKeys(pk []string, keys [][]string) [][]string {
	var out [][]string
	for _, k := range keys {
		if len(k) == 0 || slices.Equal(k, pk) || slices.ContainsFunc(out, func(o []string) bool { return slices.Equal(o, k) }) {
			continue
		}
		out = append(out, slices.Clone(k))
	}
	slices.SortFunc(out, func(a, b []string) int { return slices.Compare(a, b) })
	return out
}
