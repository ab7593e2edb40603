package result

import (
	"testing"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// Whether a value is bytes is how it was stored, which the adapter sees and
// the plan's types (from declared column types) do not. The threat: a
// SQLite TEXT column of blobs read as text (their base64 shown as if
// stored), a BLOB column of text shown as the hash of bytes decoded from it.
func TestStoredBytesOrTextDecideOverThePlansType(t *testing.T) {
	for _, tt := range []struct {
		plan, driver, want planast.Type
		value, reads       string
	}{
		{planast.TypeText, planast.TypeBlob, planast.TypeBlob, "AP8=", cellfmt.Binary([]byte{0, 0xff})},
		{planast.TypeBlob, planast.TypeText, planast.TypeText, "AP8=", "AP8="},
		{planast.TypeInteger, planast.TypeBlob, planast.TypeBlob, "AP8=", cellfmt.Binary([]byte{0, 0xff})},
		{planast.TypeBlob, planast.TypeUnknown, planast.TypeBlob, "AP8=", cellfmt.Binary([]byte{0, 0xff})}, // all NULL or unreported: the plan's
		{planast.TypeText, planast.TypeText, planast.TypeText, "AP8=", "AP8="},
	} {
		res := &source.Result{Columns: []string{"c"}, ColumnTypes: []planast.Type{tt.driver}, Rows: [][]any{{tt.value}}}
		ApplyTypes(res, []planast.Type{tt.plan})
		got := res.ColumnTypes[0]
		if reads := cellfmt.Value(res.Rows[0][0], got); got != tt.want || reads != tt.reads {
			t.Errorf("plan %s, stored %s: column %s reads %q, want %s reading %q", tt.plan, tt.driver, got, reads, tt.want, tt.reads)
		}
	}
}
