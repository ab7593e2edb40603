package sourcetest

import (
	"context"
	"reflect"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
)

// CapCase is a statement run with a cap of 3 rows and what it must return.
type CapCase struct {
	Name, SQL string
	Args      []any
	Cols      []string
	Rows      [][]any
	Truncated bool
}

// RunCapCases runs each case through query with a cap of 3 rows.
func RunCapCases(t *testing.T, query func(context.Context, string, []any, int) (*source.Result, error), tests []CapCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			res, err := query(context.Background(), tt.SQL, tt.Args, 3)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Columns, tt.Cols) || !reflect.DeepEqual(res.Rows, tt.Rows) || res.Truncated != tt.Truncated {
				t.Errorf("got %v %v truncated %v; want %v %v %v", res.Columns, res.Rows, res.Truncated, tt.Cols, tt.Rows, tt.Truncated)
			}
		})
	}
}
