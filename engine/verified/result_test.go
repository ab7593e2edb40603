package verified

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/internal/source"
)

// A verified query's SQL is fixed: when it names a table the database no
// longer has, sending it again fails alike, so its error must not be
// retryable nor say to send it again, unlike a planned query's.
func TestVerifiedQueryOnADroppedTableIsNotRetryable(t *testing.T) {
	err := Error(source.SchemaChanged(errors.New("42P01"), "the query failed: relation \"promo\" does not exist"), "shop")
	var fe *fault.Error
	if !errors.As(err, &fe) || fe.Code != fault.CodeQueryFailed {
		t.Fatalf("%v, want QUERY_FAILED", err)
	}
	if fe.Retryable || strings.Contains(fe.Hint, "again") {
		t.Fatalf("hint %q, retryable %v: the same request would fail alike", fe.Hint, fe.Retryable)
	}
}
