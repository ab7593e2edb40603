package postgres

import (
	"context"
	"errors"
	"log/slog"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sql/nl2sql/internal/source"
)

// pgFoldsItself is true when the database's own UPPER and LOWER fold
// letters beyond A-Z one to one (a UTF-8 LC_CTYPE under libc); false under
// LC_CTYPE C, which folds A-Z only, and under ICU, which upper-cases ß to
// SS.
const pgFoldsItself = `SELECT lower('ÅÉΣ') = 'åéσ' AND upper('åéσß') = 'ÅÉΣß'`

// pgFoldCandidates lists, best first, the collations that may fold every
// letter one to one: PostgreSQL 17's builtin pg_c_utf8, then libc's UTF-8
// locales (C first; never Turkish or Azeri, whose i and I fold otherwise).
// ICU collations are left out: they upper-case ß to SS.
const pgFoldCandidates = `SELECT collname FROM pg_collation
WHERE getdatabaseencoding() = 'UTF8'
  AND collencoding IN (-1, pg_char_to_encoding('UTF8'))
  AND ((collprovider = 'b' AND collname = 'pg_c_utf8')
    OR (collprovider = 'c' AND collctype ~* '\.utf-?8$' AND collctype !~* '^(tr|az)_'))
ORDER BY collname <> 'pg_c_utf8', collctype !~* '^c\.', collctype !~* '^en_us', collname
LIMIT 10`

// findFold sets p.fold to the collation UPPER and LOWER should fold under,
// "" when the database folds every letter itself or no collation does (a
// warning then says letters beyond A-Z do not fold). Each candidate is
// tried before it is chosen, so a name the server lists but cannot load
// is skipped.
func (p *Postgres) findFold(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, max(p.opts.Timeout, source.OpenCheckTimeout))
	defer cancel()
	raw, err := p.fetch(ctx, pgFoldsItself, nil, 1)
	if err != nil {
		return err
	}
	if ok, _ := raw.Rows[0][0].(bool); ok {
		return nil
	}
	cands, err := p.fetch(ctx, pgFoldCandidates, nil, 10)
	if err != nil {
		return err
	}
	for _, r := range cands.Rows {
		name, _ := r[0].(string)
		c := " COLLATE " + pgx.Identifier{name}.Sanitize()
		try, err := p.fetch(ctx, "SELECT lower('ÅÉΣ'"+c+") = 'åéσ' AND upper('åéσß'"+c+") = 'ÅÉΣß'", nil, 1)
		if err != nil {
			if !loadFailed(err) {
				// the check itself did not finish (the open was cancelled,
				// timed out, the server went away): no claim either way
				return err
			}
			continue
		}
		if ok, _ := try.Rows[0][0].(bool); ok {
			p.fold = name
			return nil
		}
	}
	slog.Warn("postgres: the database folds only A-Z (LC_CTYPE C) and has no UTF-8 collation: UPPER, LOWER and case-insensitive matches leave other letters as they are", "datasource", p.id)
	return nil
}

// loadFailed reports whether err, from trying a collation, is the
// server's refusal of it (a collation it lists but cannot load), not a
// check that could not run.
func loadFailed(err error) bool {
	var se *source.Error
	return errors.As(err, &se) && se.Code == source.CodeQueryFailed
}

// FoldCollation names the collation a plan's UPPER and LOWER fold under on
// this database, "" for its own rule.
func (p *Postgres) FoldCollation() string { return p.fold }
