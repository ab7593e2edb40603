package scope

// Access is what New compiles into a Policy. Package scope owns these
// types; the config decodes the file into them (config.Config.Access) and
// checks their shapes, and the wiring hands them over.
type Access struct {
	// Roles maps a role name to its patterns; nil means no roles section
	// (single-user), non-nil (maybe empty) means callers read only what
	// their roles allow.
	Roles map[string]Role
	// Users are the configured callers, in file order.
	Users []User
	// LocalUser is the user stdio and the CLI act as when roles are
	// configured ("" for none).
	LocalUser string
	// Engines maps each datasource id to its engine, for the default schema
	// of names given without one (DefaultSchema).
	Engines map[string]string
}

// Role is what a caller holding it may read.
//
// Patterns are dot-separated: "ds" (a datasource, all its tables),
// "ds.schema.table" or "ds.schema.table.column"; each part may use the
// wildcards * (any run of characters) and ? (one character), compared
// case-insensitively; "*" alone matches everything. A two-part pattern is
// an error (is "a.b" a schema or a table?).
type Role struct {
	Allow      []string
	Deny       []string
	RowFilters []RowFilter
}

// RowFilter restricts the rows of one table for a role: Where is a boolean
// SQL expression over the table's columns, with :name bound from the
// caller's attributes (parsed by New).
type RowFilter struct {
	Table string // "ds.schema.table", no wildcards
	Where string
}

// User is one configured caller. TokensSHA256 are the lower-case hex
// SHA-256 digests of the user's bearer tokens (64 characters each; the
// tokens themselves are never configured). Attributes hold strings,
// integers (int), floats (float64) and booleans only.
type User struct {
	Name         string
	Roles        []string
	Attributes   map[string]any
	TokensSHA256 []string
}
