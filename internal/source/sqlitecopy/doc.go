// Package sqlitecopy copies an SQLite database into DuckDB (ToDuckDB's
// target file must not exist) or into a PostgreSQL schema, choosing for
// each column the narrowest type every stored value converts to, with the
// keys each engine accepts; views are copied by their SQL, best effort.
// Tests and evaluation use it to run one data set on every engine
// (CopySQLiteToDuckDB, CopySQLiteToPostgres).
//
// It reads the SQLite file through the read-only SQLite adapter (RawRows)
// and never writes to it; it is never on the path of a question.
package sqlitecopy
