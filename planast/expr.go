package planast

// Expr is an expression node. The set of implementations is closed: the
// types in this file, each marked by the unexported exprNode method, and each
// visited by Walk. JSON carries the node type in "kind".
type Expr interface {
	exprNode()
	// Kind is the node's JSON discriminator ("column", "literal", ...).
	Kind() string
}

// Column references Table.Column where Table is a source alias (or a CTE or
// derived table alias). An empty Table resolves the name against the single
// visible source that has it, or, in order_by, group_by, having and
// qualify, against an output alias (the aliased expression is meant). A
// name that is both a source column and an alias is the source column in
// group_by (as in SQL), the alias in order_by, and refused as ambiguous in
// having; an alias of an aggregate or window may not be grouped by.
type Column struct {
	Table  string `json:"table,omitempty" jsonschema:"description=Source alias; omit only when one source has the column or to name an output alias in order_by/group_by/having/qualify"`
	Column string `json:"column"`
	// Unordered is set by Validate, never by the plan's author: the column's
	// type has no ordering on its engine (PostgreSQL json, xml, geometric
	// types), so the renderer's tie-breaker ORDER BY leaves it out.
	Unordered bool `json:"-"`
	// Money is set by Validate: the column is PostgreSQL money
	// (ColumnInfo.Money), rendered there as CAST(column AS NUMERIC).
	Money bool `json:"-"`
	// AsText is set by Validate: the column's engine type, which is not
	// text though its portable type is (ColumnInfo.AsText), rendered as
	// CAST(column AS TEXT) but where it is looked up by a value of its type.
	AsText string `json:"-"`
	// Scale is set by Validate: the column's declared decimal scale
	// (ColumnInfo.Scale), which a result of several decimals keeps.
	Scale int `json:"-"`
	// ReadAs is set by Validate to the column's type when some of its
	// stored values are not of that type (ColumnInfo.Mixed, possible on
	// SQLite only): the renderer reads every value as that type, those
	// that are not one as NULL (render.ReadAs).
	ReadAs Type `json:"-"`
}

// LiteralType is the portable type of a literal.
type LiteralType string

// Literal types.
const (
	TString    LiteralType = "string"
	TInteger   LiteralType = "integer"
	TDecimal   LiteralType = "decimal"
	TBoolean   LiteralType = "boolean"
	TDate      LiteralType = "date"      // YYYY-MM-DD
	TTimestamp LiteralType = "timestamp" // YYYY-MM-DD HH:MM:SS[.fff]
	TNull      LiteralType = "null"
)

// Literal is a typed constant. Text holds the canonical text of string,
// decimal, date and timestamp values; Int and Bool the others.
type Literal struct {
	Type LiteralType
	Text string
	Int  int64
	Bool bool
}

// Binary operators. Arithmetic "/" is true division on every engine and
// yields NULL on division by zero; "div" is integer division truncating
// toward zero; "%" is the remainder.
const (
	OpAdd  = "+"
	OpSub  = "-"
	OpMul  = "*"
	OpDiv  = "/"
	OpIDiv = "div"
	OpMod  = "%"
	OpEq   = "="
	OpNe   = "!="
	OpLt   = "<"
	OpLe   = "<="
	OpGt   = ">"
	OpGe   = ">="
	OpAnd  = "and"
	OpOr   = "or"
)

// Binary is Left Op Right.
type Binary struct {
	Op    string `json:"op" jsonschema:"enum=+,enum=-,enum=*,enum=/,enum=div,enum=%,enum==,enum=!=,enum=<,enum=<=,enum=>,enum=>=,enum=and,enum=or"`
	Left  Expr   `json:"left"`
	Right Expr   `json:"right"`
	// Temporal is set by Validate, never by the plan's author: the type
	// (date or timestamp) that a comparison compares, so that a renderer
	// can compare SQLite's ISO text by its meaning (see TemporalCompare).
	Temporal Type `json:"-"`
	// Numeric is set by Validate, never by the plan's author: the type of
	// an arithmetic's result (integer, decimal or float; "" for a
	// comparison, a logical operator or an unknown type), so that a
	// renderer can give integer and decimal arithmetic one range on every
	// engine (package render, overflow.go).
	Numeric Type `json:"-"`
	// DecimalProduct is set by Validate: the arithmetic multiplies two
	// decimals (whose product DuckDB computes at the sum of their scales).
	DecimalProduct bool `json:"-"`
	// ExactDiv is set by Validate: a "div" of two integers, which every
	// engine can divide exactly in int64 (other operands go through
	// doubles).
	ExactDiv bool `json:"-"`
}

// Unary is "not" X or "-" X.
type Unary struct {
	Op   string `json:"op" jsonschema:"enum=not,enum=-"`
	Expr Expr   `json:"expr"`
	// Numeric: as Binary's, for "-".
	Numeric Type `json:"-"`
}

// In is Expr [NOT] IN (List...) or Expr [NOT] IN (Subquery); exactly one of
// List and Subquery is set.
type In struct {
	Expr     Expr   `json:"expr"`
	List     []Expr `json:"list,omitempty"`
	Subquery *Query `json:"subquery,omitempty"`
	Negated  bool   `json:"negated,omitempty"`
	// Temporal: as Binary's, for an IN list.
	Temporal Type `json:"-"`
}

// Exists is [NOT] EXISTS (Subquery).
type Exists struct {
	Subquery *Query `json:"subquery"`
	Negated  bool   `json:"negated,omitempty"`
}

// Subquery is a scalar subquery: one column, at most one row.
type Subquery struct {
	Query *Query `json:"query"`
}

// Between is Expr [NOT] BETWEEN Low AND High (inclusive).
type Between struct {
	Expr    Expr `json:"expr"`
	Low     Expr `json:"low"`
	High    Expr `json:"high"`
	Negated bool `json:"negated,omitempty"`
	// Temporal: as Binary's.
	Temporal Type `json:"-"`
}

// Like is Expr [NOT] LIKE Pattern with "%" and "_" wildcards and "\" as the
// escape character. CaseInsensitive compares after lower-casing both sides;
// otherwise the match is case-sensitive on every engine.
type Like struct {
	Expr            Expr `json:"expr"`
	Pattern         Expr `json:"pattern"`
	CaseInsensitive bool `json:"case_insensitive,omitempty" jsonschema:"description=true compares LOWER(expr) with LOWER(pattern); otherwise LIKE is case-sensitive on every engine ('%dinosaur%' does not match 'Dinosaur')"`
	Negated         bool `json:"negated,omitempty" jsonschema:"description=true for NOT LIKE"`
}

// IsNull is Expr IS [NOT] NULL.
type IsNull struct {
	Expr    Expr `json:"expr"`
	Negated bool `json:"negated,omitempty"`
}

// When is one WHEN ... THEN ... arm of a Case.
type When struct {
	When Expr `json:"when"`
	Then Expr `json:"then"`
}

// Case is CASE [Operand] WHEN.. THEN.. [ELSE Else] END.
type Case struct {
	Operand Expr   `json:"operand,omitempty"`
	Whens   []When `json:"whens"`
	Else    Expr   `json:"else,omitempty"`
	// Decimals is set by Validate, never by the plan's author: two or
	// more of the results are decimals. DuckDB types such a result with
	// the larger integer part and drops the other's extra decimals (a SUM,
	// DECIMAL(38,2), met with a DECIMAL(10,4) 0.1234 gave 0.12), so its
	// renderer casts each branch to the plan's decimal arithmetic type,
	// DECIMAL(38,10). COALESCE, LAG and LEAD with a default, and a set
	// operation's columns are marked alike.
	Decimals bool `json:"-"`
}

// CastType is a portable target type of Cast.
type CastType string

// Cast types.
const (
	CastInteger   CastType = "integer"
	CastDecimal   CastType = "decimal"
	CastFloat     CastType = "float"
	CastText      CastType = "text"
	CastBoolean   CastType = "boolean"
	CastDate      CastType = "date"
	CastTimestamp CastType = "timestamp"
)

// Cast is CAST(Expr AS Type).
type Cast struct {
	Expr Expr     `json:"expr"`
	Type CastType `json:"type"`
	// FromText is set by Validate, never by the plan's author: Expr is
	// text cast to a number, a date or a timestamp, which every renderer
	// writes as a cast that is NULL when the text holds no such value
	// (package render, textcast.go), never an error and never 0.
	FromText bool `json:"-"`
	// FromFloat is set by Validate: Expr is a float cast to integer, which
	// every renderer writes as NULL for NaN, ±Infinity and values beyond
	// int64 (as TRY_CAST), where engines failed or clamped.
	FromFloat bool `json:"-"`
	// FromDecimal is set by Validate: Expr is a decimal cast to integer,
	// which truncates the decimal value (19.99 * 100 is 1999), where
	// SQLite, whose decimals are doubles, would truncate 1998.9999999999998.
	FromDecimal bool `json:"-"`
	// FromNested is set by Validate to the type of an array or a JSON value
	// (a struct, a map) cast to text ("" for any other cast), which every
	// renderer writes as the JSON text results show it (["cold","bulk"]),
	// not the engine's own ({cold,bulk} on PostgreSQL, {'a': 1} on
	// DuckDB), so a filter written from a shown value matches.
	FromNested Type `json:"-"`
}

// Func is a call of a function on the allow-list (see Functions): scalar
// functions and aggregates. COUNT with no arguments is COUNT(*). Distinct
// applies to aggregates: COUNT(DISTINCT x).
type Func struct {
	Name     string `json:"name"`
	Args     []Expr `json:"args"`
	Distinct bool   `json:"distinct,omitempty"`
	// Decimals is set by Validate, never by the plan's author, on
	// COALESCE: two or more arguments are decimals (see Case.Decimals).
	Decimals bool `json:"-"`
	// Numeric is set by Validate, never by the plan's author: the type of
	// an aggregate SUM's or AVG's argument, so that a renderer can give a
	// SUM of integers one type and range, and an AVG of integers one value,
	// on every engine; and boolean for a MIN or MAX of booleans, which
	// PostgreSQL has only as BOOL_AND and BOOL_OR.
	Numeric Type `json:"-"`
	// Temporal is set by Validate, never by the plan's author: the type of
	// the date or timestamp DATE_PART, DATE_TRUNC, DATE_ADD or PERIOD_LABEL
	// takes (a text one already cast), so that a renderer can compute a
	// date as a date: through
	// a timestamp, whose range is narrower, a date after 294247 AD fails.
	Temporal Type `json:"-"`
}

// Window is a window function call: Name(Args) OVER (PARTITION BY ...
// ORDER BY ...). Name is a ranking function (ROW_NUMBER, RANK, DENSE_RANK),
// LAG/LEAD, or an aggregate.
type Window struct {
	Name        string      `json:"name"`
	Args        []Expr      `json:"args"`
	PartitionBy []Expr      `json:"partition_by,omitempty"`
	OrderBy     []OrderItem `json:"order_by,omitempty"`
	// Numeric: as Func's, for a windowed SUM or AVG, or MIN or MAX of booleans.
	Numeric Type `json:"-"`
	// Decimals: as Case's, for LAG or LEAD whose value and default are
	// decimals.
	Decimals bool `json:"-"`
}

func (*Column) exprNode()   {}
func (*Literal) exprNode()  {}
func (*Binary) exprNode()   {}
func (*Unary) exprNode()    {}
func (*In) exprNode()       {}
func (*Exists) exprNode()   {}
func (*Subquery) exprNode() {}
func (*Between) exprNode()  {}
func (*Like) exprNode()     {}
func (*IsNull) exprNode()   {}
func (*Case) exprNode()     {}
func (*Cast) exprNode()     {}
func (*Func) exprNode()     {}
func (*Window) exprNode()   {}

// Kind implementations: the JSON discriminator of each node.
func (*Column) Kind() string   { return "column" }
func (*Literal) Kind() string  { return "literal" }
func (*Binary) Kind() string   { return "binary" }
func (*Unary) Kind() string    { return "unary" }
func (*In) Kind() string       { return "in" }
func (*Exists) Kind() string   { return "exists" }
func (*Subquery) Kind() string { return "subquery" }
func (*Between) Kind() string  { return "between" }
func (*Like) Kind() string     { return "like" }
func (*IsNull) Kind() string   { return "is_null" }
func (*Case) Kind() string     { return "case" }
func (*Cast) Kind() string     { return "cast" }
func (*Func) Kind() string     { return "func" }
func (*Window) Kind() string   { return "window" }

// Kinds lists every expression kind, in a fixed order.
var Kinds = []string{"column", "literal", "binary", "unary", "in", "exists", "subquery",
	"between", "like", "is_null", "case", "cast", "func", "window", "metric", "filter"}
