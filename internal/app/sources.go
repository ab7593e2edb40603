package app

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/adapters"
)

// OpenSource opens a datasource with the adapter for its engine
// (internal/source/adapters). It is the opener every engine built here is
// handed (engine.Options.Open): the adapters are chosen at the top, and
// the pipeline imports no driver.
//
// A postgres DSN is parsed first as --db parses one (ParseDSN), so a DSN
// in nl2sql.yaml that does not parse says why (a bad port, an unknown
// sslmode), password masked, where the adapter says only that it does
// not parse. A database that does not exist is named, with where the name
// came from when the DSN names none: PostgreSQL then takes the user's.
func OpenSource(ctx context.Context, spec engine.DatasourceSpec) (engine.Source, error) {
	var pg *pgconn.Config
	if spec.Engine == "postgres" {
		c, why, hint := ParseDSN(spec.DSN)
		if why != "" {
			return nil, source.Errorf(source.CodeUnavailable, nil, hint+" (the datasource's dsn in nl2sql.yaml, or its --db argument)", "the connection string does not parse: %s", why)
		}
		pg = c
	}
	src, err := adapters.Open(ctx, spec.Engine, spec.ID, spec.Path, spec.DSN, source.Options{RowLimit: spec.AdapterRows(),
		Timeout: spec.Timeout, AllowWritableRole: spec.AllowWritableRole})
	if pe := (*pgconn.PgError)(nil); err != nil && pg != nil && errors.As(err, &pe) && pe.Code == "3D000" {
		if pg.Database == "" {
			return nil, source.Errorf(source.CodeUnavailable, err, "name the database in the DSN: postgres://user@host:5432/dbname, or dbname=DB",
				"the database %q does not exist: the DSN names no database, so PostgreSQL connects to the one named after the user", pg.User)
		}
		return nil, source.Errorf(source.CodeUnavailable, err, "check the database name in the datasource's dsn (its --db argument, or dsn: in nl2sql.yaml); psql -l lists the databases",
			"the database %q does not exist", pg.Database)
	}
	return src, err
}
