package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/planast"
)

// SQLite stores a class per value, whatever a column declares. The threat:
// a stored string shown as the hash of bytes (its text decoded as base64),
// or stored bytes shown as a string (their base64 read as text), depending
// on the declared type or on which row came first.
func TestEachValueShownByItsOwnStorageClass(t *testing.T) {
	path := sourcetest.TempDB(t, "CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB, tx TEXT, u, bt BLOB)",
		"INSERT INTO t VALUES (1, X'00FF', X'00FF', X'00FF', 'hello'), (2, X'414243', X'414243', 'AP8=', 'AP8=')")
	s := openTest(t, path, source.Options{Timeout: 5 * time.Second})
	blob1, blob2 := cellfmt.Binary([]byte{0, 0xff}), cellfmt.Binary([]byte("ABC"))
	// what a person reads in each column, rows by id
	want := map[string][2]string{
		"b":  {blob1, blob2},    // a blob column
		"tx": {blob1, blob2},    // declared TEXT, every value a blob
		"u":  {blob1, "AP8="},   // a blob, then the text 'AP8='
		"bt": {"hello", "AP8="}, // declared BLOB, every value text
	}
	for _, order := range []string{"ASC", "DESC"} {
		res, err := s.Query(context.Background(), `SELECT "id", "b", "tx", "u", "bt" FROM "main"."t" ORDER BY "id" `+order, nil, 10)
		if err != nil {
			t.Fatal(err)
		}
		for c, name := range res.Columns[1:] {
			c++
			for _, row := range res.Rows {
				id := row[0].(int64)
				if got := cellfmt.Value(row[c], res.ColumnTypes[c]); got != want[name][id-1] {
					t.Errorf("%s: %s row %d (type %s, value %v) reads %q, want %q", order, name, id, res.ColumnTypes[c], row[c], got, want[name][id-1])
				}
			}
		}
		if fmt.Sprint(res.ColumnTypes[1:]) != fmt.Sprint([]planast.Type{planast.TypeBlob, planast.TypeBlob, planast.TypeText, planast.TypeText}) {
			t.Errorf("%s: column types %v", order, res.ColumnTypes[1:])
		}
	}
}

// The profile's samples follow the same rule: a blob among text and
// numbers is listed as its placeholder (its base64 read as a stored
// string, and a filter on it found nothing with no warning).
func TestProfileSamplesShowBlobsByTheirPlaceholder(t *testing.T) {
	path := sourcetest.TempDB(t, "CREATE TABLE p (id INTEGER PRIMARY KEY, legacy)",
		"INSERT INTO p VALUES (1, x'DEADBEEF'), (2, 'A-17'), (3, 42)")
	snap := sourcetest.Profiled(t, openTest(t, path, source.Options{}))
	got := sourcetest.ProfileJSON(t, snap, "p", "legacy")
	placeholder, _ := json.Marshal(cellfmt.Binary([]byte{0xde, 0xad, 0xbe, 0xef}))
	if !strings.Contains(got, string(placeholder)) || strings.Contains(got, "3q2+7w==") || !strings.Contains(got, `"A-17"`) {
		t.Errorf("profile %s: want the blob as its placeholder beside \"A-17\"", got)
	}
}
