package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
)

// A query that ran past its time limit on its own work will do so again:
// telling the host to retry it wastes another full timeout, so only a
// timeout spent waiting (a lock, a busy pool) is retryable, and the slow
// one's hint says how to make the plan cheaper.
func TestSlowQueryTimeoutIsNotRetryable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		err   error
		retry bool
	}{
		{"slow query", &source.Error{Code: source.CodeTimeout, Msg: "the query ran past its time limit (1s)", Hint: "narrow the plan"}, false},
		{"deadline", fmt.Errorf("scan: %w", context.DeadlineExceeded), false},
		{"lock wait", &source.Error{Code: source.CodeTimeout, Msg: "the query waited too long for a lock", Waited: true}, true},
	} {
		e := sourceError(tc.err, "db")
		if e.Code != CodeTimeout || e.Retryable != tc.retry {
			t.Errorf("%s: %s retryable %v, want %s retryable %v", tc.name, e.Code, e.Retryable, CodeTimeout, tc.retry)
		}
		if !tc.retry && e.Hint == "" {
			t.Errorf("%s: no hint on how to make the query cheaper", tc.name)
		}
	}
}
