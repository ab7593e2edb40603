package sqlite

import (
	"context"
	"database/sql"
	"testing"

	"modernc.org/sqlite"
)

// TestSQLiteFunctionsClassified lists every function the linked SQLite
// defines and requires each to be classified in sqliteFunctions, so that a
// driver upgrade that adds functions makes someone decide about each (until
// then the authorizer denies them).
func TestSQLiteFunctionsClassified(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT DISTINCT name FROM pragma_function_list ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		n++
		if _, ok := sqliteFunctions[name]; !ok {
			t.Errorf("function %q is not classified in sqliteFunctions (it is denied until it is)", name)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Errorf("only %d functions listed", n)
	}
	for _, name := range []string{"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"} {
		if sqliteFunctions[name] != deny {
			t.Errorf("%s is allowed", name)
		}
	}
}

func TestSQLitePolicy(t *testing.T) {
	q, meta := sqlitePolicy{}, sqlitePolicy{introspection: true}
	tests := []struct {
		name     string
		p        sqlitePolicy
		action   sqlite.AuthorizerActionCode
		a1, a2   string
		wantDeny bool
	}{
		{"select", q, sqlite.AuthSelect, "", "", false},
		{"recursive", q, sqlite.AuthRecursive, "", "", false},
		{"read", q, sqlite.AuthRead, "Album", "Title", false},
		{"read dbpage", q, sqlite.AuthRead, "sqlite_dbpage", "data", true},
		{"upper", q, sqlite.AuthFunction, "", "UPPER", false},
		{"load_extension", q, sqlite.AuthFunction, "", "load_extension", true},
		{"unknown function", q, sqlite.AuthFunction, "", "my_udf", true},
		{"pragma", q, sqlite.AuthPragma, "table_info", "t", true},
		{"pragma introspection", meta, sqlite.AuthPragma, "table_xinfo", "t", false},
		{"pragma writable_schema introspection", meta, sqlite.AuthPragma, "writable_schema", "1", true},
		{"schema version read", meta, sqlite.AuthPragma, "schema_version", "", false},
		{"schema version set", meta, sqlite.AuthPragma, "schema_version", "7", true},
		{"schema version on the query pool", q, sqlite.AuthPragma, "schema_version", "", true},
		{"quick check", meta, sqlite.AuthPragma, "quick_check", "", false},
		{"quick check on the query pool", q, sqlite.AuthPragma, "quick_check", "", true},
		{"insert", meta, sqlite.AuthInsert, "t", "", true},
		{"update", q, sqlite.AuthUpdate, "t", "a", true},
		{"delete", q, sqlite.AuthDelete, "t", "", true},
		{"attach", q, sqlite.AuthAttach, "/tmp/x.db", "", true},
		{"detach", q, sqlite.AuthDetach, "x", "", true},
		{"transaction", q, sqlite.AuthTransaction, "BEGIN", "", true},
		{"savepoint", q, sqlite.AuthSavepoint, "BEGIN", "s", true},
		{"create table", q, sqlite.AuthCreateTable, "t2", "", true},
		{"create temp view", q, sqlite.AuthCreateTempView, "v", "", true},
		{"drop view", q, sqlite.AuthDropView, "v", "", true},
		{"alter", q, sqlite.AuthAlterTable, "main", "t", true},
		{"analyze", q, sqlite.AuthAnalyze, "t", "", true},
		{"reindex", q, sqlite.AuthReindex, "i", "", true},
		{"create vtable", q, sqlite.AuthCreateVTable, "v", "fts5", true},
		{"future action", q, sqlite.AuthorizerActionCode(99), "", "", true},
	}
	for _, tt := range tests {
		got := tt.p.authorize(tt.action, tt.a1, tt.a2, "main", "")
		if (got != sqlite.AuthorizerOK) != tt.wantDeny {
			t.Errorf("%s: authorize = %d, want deny %v", tt.name, got, tt.wantDeny)
		}
	}
}

// TestConnHandle pins the reflection that reaches the sqlite3 handle: if a
// modernc.org/sqlite release renames the field, this fails (and so does
// every adapter open, rather than queries hanging).
func TestConnHandle(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	h, err := handleOf(c)
	if err != nil || h == 0 {
		t.Fatalf("handleOf = %d, %v", h, err)
	}
	if _, err := connHandle(struct{ db string }{}); err == nil {
		t.Error("connHandle accepted a struct without a uintptr db field")
	}
	if _, err := connHandle(nil); err == nil {
		t.Error("connHandle accepted nil")
	}
}
