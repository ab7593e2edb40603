package source

import (
	"bytes"
	"errors"
	"io"
	"os"
)

// FileEngine says which of the file engines wrote the file at path, from
// its header: "sqlite" ("SQLite format 3\0"), "duckdb" ("DUCK" at byte
// 8), or "" (neither; a shorter file too); an error only when the file
// cannot be read. --db picks a file's engine with it, and an adapter that
// cannot open a file asks it, so a datasource configured with the other
// engine is told so rather than that its file is damaged.
func FileEngine(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 16)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	head = head[:n]
	switch {
	case bytes.Equal(head, []byte("SQLite format 3\x00")):
		return "sqlite", nil
	case len(head) >= 12 && bytes.Equal(head[8:12], []byte("DUCK")):
		return "duckdb", nil
	}
	return "", nil
}

// WrongEngine is the error of a file that the other file engine wrote:
// is names that engine, want the one configured.
func WrongEngine(cause error, is, want string) *Error {
	return Errorf(CodeUnavailable, cause, "set engine: "+is+" for this datasource in nl2sql.yaml (--db tells the two apart by itself)",
		"the file is a%s %s database, not a%s %s one", article(is), display(is), article(want), display(want))
}

func display(engine string) string {
	if engine == "sqlite" {
		return "SQLite"
	}
	return "DuckDB"
}

func article(engine string) string {
	if engine == "sqlite" {
		return "n"
	}
	return ""
}
