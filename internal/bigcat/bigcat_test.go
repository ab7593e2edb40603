package bigcat

import (
	"database/sql"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.sqlite")
	if err := Write(p, 30, 20); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables, cols, fks int
	db.QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'table'").Scan(&tables)
	db.QueryRow("SELECT count(*) FROM pragma_table_info(?)", TableName(7)).Scan(&cols)
	db.QueryRow("SELECT count(*) FROM pragma_foreign_key_list(?)", TableName(10)).Scan(&fks)
	if tables != 30 || cols != 20 || fks != 1 {
		t.Fatalf("%d tables, %d columns, %d foreign keys", tables, cols, fks)
	}
}
