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
// write-ahead log counts.
func (s *SQLite) SchemaVersion(ctx context.Context) (string, error) {
	res, err := s.run(ctx, s.meta, `SELECT schema_version FROM pragma_schema_version`, nil, 1)
	if err != nil {
		return "", err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return "", source.Errorf(source.CodeQueryFailed, nil, "", "the schema version could not be read")
	}
	return fmt.Sprint(res.Rows[0][0]), nil
}
