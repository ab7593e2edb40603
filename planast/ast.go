package planast

// Query is one SELECT (optionally with CTEs and set operations). It is the root
// of every plan and the body of every subquery, derived table and CTE.
//
// JSON shape (every field but select and from is optional; null and omitted mean the same):
//
//	{"with": [CTE], "distinct": bool, "select": [SelectItem], "from": [From],
//	 "joins": [Join], "where": Expr, "group_by": [Expr], "having": Expr,
//	 "qualify": Expr, "set_ops": [SetOp], "order_by": [OrderItem],
//	 "limit": int, "with_ties": bool, "offset": int}
//
// When set_ops is present, order_by, limit and offset apply to the whole
// compound result and may only name output columns (by alias).
//
// group_by and having may name a select item by its alias (a column with no
// table), as order_by may: the item's expression is meant. When the name is
// also a column of a visible source (and the item is not that column), it
// is refused as ambiguous in both: engines read it differently. An alias whose
// expression holds an aggregate or a window may not be grouped by.
//
// qualify filters the rows after window functions are computed (DuckDB's
// QUALIFY): a condition on output aliases only, at least one of whose
// select items holds a window function; e.g. {"kind": "binary", "op": "<=",
// "left": {"kind": "column", "column": "rank_in_genre"}, "right": 3}.
//
// with_ties (with limit and order_by, no offset) keeps, beyond the first
// limit rows, every row that ties with the last of them on all order_by
// keys (FETCH FIRST n ROWS WITH TIES).
type Query struct {
	With     []CTE        `json:"with,omitempty"`
	Distinct bool         `json:"distinct,omitempty"`
	Select   []SelectItem `json:"select"`
	From     []From       `json:"from"`
	Joins    []Join       `json:"joins,omitempty"`
	Where    Expr         `json:"where,omitempty"`
	GroupBy  []Expr       `json:"group_by,omitempty"`
	Having   Expr         `json:"having,omitempty"`
	Qualify  Expr         `json:"qualify,omitempty" jsonschema:"description=Filter on output aliases of window results (kept rows only)"`
	SetOps   []SetOp      `json:"set_ops,omitempty"`
	OrderBy  []OrderItem  `json:"order_by,omitempty"`
	Limit    *int64       `json:"limit,omitempty"`
	WithTies bool         `json:"with_ties,omitempty" jsonschema:"description=With limit and order_by: also keep the rows tying with the last one on every order_by key"`
	Offset   *int64       `json:"offset,omitempty"`
	// Decimals is set by Validate, never by the plan's author, on a query
	// with set operations: which output columns are decimals on two or
	// more sides (Case.Decimals says why).
	Decimals []bool `json:"-"`
}

// CTE is one named common table expression: WITH name AS (query).
type CTE struct {
	Name  string `json:"name"`
	Query *Query `json:"query"`
}

// SelectItem is one output column. Alias names the column in the result;
// left out (empty here) it is the column's own name, which the validator
// fills in. A plan may leave it out but not write it empty (Decode).
type SelectItem struct {
	Expr  Expr   `json:"expr"`
	Alias string `json:"alias,omitempty"`
}

// From is one table source: a stored table (Table, optionally Schema), a CTE
// (Table naming it), or a derived table (Subquery). Alias is required and
// unique within its query; columns are referenced through it.
type From struct {
	Schema   string `json:"schema,omitempty"`
	Table    string `json:"table,omitempty"`
	Subquery *Query `json:"subquery,omitempty"`
	Alias    string `json:"alias"`
}

// JoinType is the kind of join.
type JoinType string

// Join types.
const (
	JoinInner JoinType = "inner"
	JoinLeft  JoinType = "left"
	JoinRight JoinType = "right"
	JoinFull  JoinType = "full"
)

// Join attaches the source aliased Right to the sources before it. On lists
// equality pairs: each Left column belongs to the alias Left (a source
// declared earlier), each Right column to Right. Condition is an optional
// extra predicate ANDed to the equalities.
type Join struct {
	Type      JoinType `json:"type"`
	Left      string   `json:"left"`
	Right     string   `json:"right"`
	On        []OnPair `json:"on"`
	Condition Expr     `json:"condition,omitempty"`
}

// OnPair is one equality of a join: Left.LeftColumn = Right.RightColumn.
type OnPair struct {
	LeftColumn  string `json:"left_column"`
	RightColumn string `json:"right_column"`
	// Left and Right are set by Validate, never by the plan's author, when
	// the two keys are read otherwise wherever a plan names them (a uuid
	// column, read as its text, met with a CTE's output of it, which is
	// that text: Column.AsText, Column.Money): each side as it is read, so
	// that the renderer compares the two alike (PostgreSQL has no uuid =
	// text). nil when both are read as stored, which compares them by
	// their own type, and by an index on it.
	Left, Right *Column `json:"-"`
}

// SetOpKind is a set operation.
type SetOpKind string

// Set operations.
const (
	Union     SetOpKind = "union"
	UnionAll  SetOpKind = "union_all"
	Intersect SetOpKind = "intersect"
	Except    SetOpKind = "except"
)

// SetOp combines the query so far with Query. The right-hand Query may not
// carry with, set_ops, order_by, limit or offset.
type SetOp struct {
	Op    SetOpKind `json:"op"`
	Query *Query    `json:"query"`
}

// Direction of an ORDER BY item.
type Direction string

// Directions.
const (
	Asc  Direction = "asc"
	Desc Direction = "desc"
)

// Nulls placement of an ORDER BY item. Empty means last, on every engine.
type Nulls string

// Nulls placements.
const (
	NullsFirst Nulls = "first"
	NullsLast  Nulls = "last"
)

// OrderItem is one ORDER BY key. Expr may be a column with an empty table
// naming an output alias.
type OrderItem struct {
	Expr      Expr      `json:"expr"`
	Direction Direction `json:"direction,omitempty"`
	Nulls     Nulls     `json:"nulls,omitempty"`
}
