package source

import "github.com/nl2sql/nl2sql/planast"

// Result is what a query returned, at most the row cap of rows.
type Result struct {
	Columns []string `json:"columns"`
	// ColumnTypes are the portable types of Columns: from each column's
	// declared type where the database reports one, else from the first
	// non-NULL value (TypeUnknown when every value is NULL).
	ColumnTypes []planast.Type `json:"column_types"`
	// Rows hold values in the result encoding (see EncodeValue): nil,
	// int64, float64, string or bool.
	Rows [][]any `json:"rows"`
	// Truncated is true when the query had more rows than the cap.
	Truncated bool `json:"truncated"`
}
