package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/internal/source"
)

// CheckIntegrity runs SQLite's quick check over the whole file (every
// page of every table and index read once; no index is compared with its
// table) and fails with CodeUnavailable, naming the first problems, when
// the file is damaged: a damaged page fails only the queries that read
// it, so opening the file and reading its schema say nothing about it.
// It reads the whole file, so it belongs to `nl2sql doctor`, not to every
// open; ctx bounds it.
func (s *SQLite) CheckIntegrity(ctx context.Context) error {
	res, err := s.run(ctx, s.meta, `SELECT quick_check FROM pragma_quick_check`, nil, 5)
	if err != nil {
		return err
	}
	var problems []string
	for _, r := range res.Rows {
		for _, line := range strings.Split(fmt.Sprint(r[0]), "\n") {
			if line != "ok" && line != "" && !strings.HasPrefix(line, "***") {
				problems = append(problems, line)
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	more := ""
	if len(problems) > 2 {
		more = fmt.Sprintf(" and %d more problems", len(problems)-2)
	}
	return source.Errorf(source.CodeUnavailable, nil, "restore the database file from a good copy (sqlite3's .recover can save what is readable)",
		"the database file is damaged: %s%s", strings.Join(problems[:min(2, len(problems))], "; "), more)
}
