package fault

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
)

// A client decides whether to send a request again from the retryable
// flag, a person from the hint: an adapter's error whose hint says to
// send it again must come out retryable, and one that is not retryable
// must not say so.
func TestSourceErrorHintAndRetryableAgree(t *testing.T) {
	byRetry := map[bool]map[string]error{
		true: {
			"dropped table": source.SchemaChanged(errors.New("42P01"), "the query failed: relation \"promo\" does not exist"),
			"file replaced": source.Errorf(source.CodeUnavailable, fmt.Errorf("%w: /x", source.ErrFileReplaced), "send the request again", "the database file was replaced while the server ran").Temporary(),
			"locked":        source.Errorf(source.CodeUnavailable, nil, "another process holds a lock on the database; send the request again later", "the database is locked").Temporary(),
		},
		false: {
			"slow query":    source.Errorf(source.CodeTimeout, nil, source.TimeoutHint, "the query ran past its time limit"),
			"other failure": source.Errorf(source.CodeQueryFailed, nil, "", "the query failed: boom"),
			"corrupt file":  source.Errorf(source.CodeUnavailable, nil, "restore the database file from a good copy", "the database file is corrupt"),
			"bad login":     source.Errorf(source.CodeUnavailable, nil, "check the DSN", "the database refused the login"),
		},
	}
	for retry, errs := range byRetry {
		for name, err := range errs {
			e := Source(err, "shop")
			again := strings.Contains(e.Hint, "send the request again")
			if e.Retryable != retry || again != e.Retryable {
				t.Errorf("%s: retryable %v (want %v), hint %q", name, e.Retryable, retry, e.Hint)
			}
		}
	}
}
