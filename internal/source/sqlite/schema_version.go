package sqlite

import (
	"context"
	"fmt"

	"github.com/nl2sql/nl2sql/internal/source"
)

// SchemaVersion is the database's schema cookie (PRAGMA schema_version),
// which SQLite moves with every CREATE, DROP or ALTER and with nothing
// else: a server compares it now and then with the one read when it
// opened the datasource, and reads a changed schema again, while writes
// of data (which move the state token on every commit) leave it alone.
// It is read through a connection, so a schema change still in the
// write-ahead log counts. A file put in the database's place (or its
// removal, an error wrapping source.ErrFileGone) moves it too: the open
// connections still read the old file.
func (s *SQLite) SchemaVersion(ctx context.Context) (string, error) {
	moved, err := s.ident.Moved()
	if err != nil {
		return "", err
	}
	res, err := s.run(ctx, s.meta, `SELECT schema_version FROM pragma_schema_version`, nil, 1)
	if err != nil {
		return "", err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return "", source.Errorf(source.CodeQueryFailed, nil, "", "the schema version could not be read")
	}
	return source.Versioned(fmt.Sprint(res.Rows[0][0]), moved), nil
}

// FileMoved reports, with one stat of the path, whether another file was
// put in the database's place since it opened (an error wrapping
// source.ErrFileGone when none is there): cheap enough for a server to ask
// before every statement, which SchemaVersion, a query, is not.
func (s *SQLite) FileMoved() (bool, error) { return s.ident.Moved() }
