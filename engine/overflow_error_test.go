package engine

import (
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
)

// An arithmetic overflow reaches the caller as ARITHMETIC_OVERFLOW with the
// adapter's hint (cast an operand to float), not as a generic QUERY_FAILED:
// the host can repair the plan instead of giving up, and retrying it would
// overflow again.
func TestOverflowKeepsItsCode(t *testing.T) {
	e := sourceError(&source.Error{Code: source.CodeOverflow, Msg: "the query failed: integer overflow", Hint: source.OverflowHint}, "db")
	if e.Code != CodeOverflow || e.Hint != source.OverflowHint || e.Retryable {
		t.Errorf("got %s (hint %q, retryable %v), want %s with the overflow hint, not retryable", e.Code, e.Hint, e.Retryable, CodeOverflow)
	}
}
