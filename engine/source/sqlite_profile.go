package source

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Sample sizes of a profile.
const (
	allValuesMax = 50 // a text column with at most this many distinct values lists them all
	topValues    = 5  // otherwise its most frequent values
)

// ISO-8601 shapes a text column must hold throughout to count as temporal.
const (
	isoDateGlob      = "[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]"
	isoTimestampGlob = isoDateGlob + "[ T][0-2][0-9]:[0-5][0-9]*"
)

// Profile fills RowCount and each column's Profile for the tables of snap
// (views are left out: they repeat their tables' values and may be costly
// to scan). Per column it counts distinct values and the NULL fraction;
// numeric and temporal columns get Min and Max, and so do text columns whose
// every value is an ISO date or timestamp (ColumnProfile.Temporal). A text
// column with at most 50 distinct values lists them all, sorted; any other
// column except a blob lists its 5 most frequent values, ties by value
// (AllValues when there are no more than 5). Values use the result
// encoding.
//
// Each statement is bounded by Options.Timeout. A table that fails keeps
// what it had and the others go on; the errors are joined. When ctx ends,
// Profile stops with its error.
func (s *SQLite) Profile(ctx context.Context, snap *schema.Snapshot) error {
	var errs []error
	for i := range snap.Tables {
		t := &snap.Tables[i]
		if t.Kind != schema.KindTable {
			continue
		}
		if err := s.profileTable(ctx, t); err != nil {
			if e := ctxError(ctx, s.opts.Timeout); e != nil {
				return e
			}
			errs = append(errs, fmt.Errorf("profile table %q: %w", t.Name, err))
		}
	}
	return errors.Join(errs...)
}

func (s *SQLite) profileTable(ctx context.Context, t *schema.Table) error {
	tbl := quoteIdent(t.Name)
	raw, err := s.fetch(ctx, s.meta, "SELECT count(*) FROM "+tbl, nil, 1)
	if err != nil {
		return err
	}
	n, _ := raw.rows[0][0].(int64)
	t.RowCount = &n
	for i := range t.Columns {
		p, err := s.profileColumn(ctx, tbl, &t.Columns[i], n)
		if err != nil {
			return fmt.Errorf("column %q: %w", t.Columns[i].Name, err)
		}
		t.Columns[i].Profile = p
	}
	return nil
}

func (s *SQLite) profileColumn(ctx context.Context, tbl string, c *schema.Column, rows int64) (*schema.ColumnProfile, error) {
	col := quoteIdent(c.Name)
	enc := sqliteColumn(c.DeclaredType)
	raw, err := s.fetch(ctx, s.meta, fmt.Sprintf(
		`SELECT count(DISTINCT %[1]s), count(%[1]s), min(%[1]s), max(%[1]s),
			count(CASE WHEN %[1]s GLOB '%[3]s' THEN 1 END),
			count(CASE WHEN %[1]s GLOB '%[4]s' THEN 1 END)
		FROM %[2]s`, col, tbl, isoDateGlob, isoTimestampGlob), nil, 1)
	if err != nil {
		return nil, err
	}
	r := raw.rows[0]
	distinct, _ := r[0].(int64)
	nonNull, _ := r[1].(int64)
	dates, _ := r[4].(int64)
	stamps, _ := r[5].(int64)
	p := &schema.ColumnProfile{DistinctCount: distinct}
	if rows > 0 {
		p.NullFraction = float64(rows-nonNull) / float64(rows)
	}
	if c.Type == planast.TypeText && nonNull > 0 {
		switch {
		case dates == nonNull:
			p.Temporal = planast.TypeDate
		case dates+stamps == nonNull:
			p.Temporal = planast.TypeTimestamp
		}
	}
	if c.Type.IsNumeric() || c.Type.IsTemporal() || p.Temporal != "" {
		p.Min, p.Max = encodeValue(r[2], enc), encodeValue(r[3], enc)
	}
	if distinct == 0 || c.Type == planast.TypeBlob {
		return p, nil
	}
	var q string
	if c.Type == planast.TypeText && distinct <= allValuesMax {
		p.AllValues = true
		q = fmt.Sprintf(`SELECT %[1]s FROM %[2]s WHERE %[1]s IS NOT NULL GROUP BY %[1]s ORDER BY %[1]s`, col, tbl)
	} else {
		p.AllValues = distinct <= topValues
		q = fmt.Sprintf(`SELECT %[1]s FROM %[2]s WHERE %[1]s IS NOT NULL GROUP BY %[1]s ORDER BY count(*) DESC, %[1]s LIMIT %[3]d`, col, tbl, topValues)
	}
	samples, err := s.fetch(ctx, s.meta, q, nil, allValuesMax)
	if err != nil {
		return nil, err
	}
	for _, sr := range samples.rows {
		p.SampleValues = append(p.SampleValues, encodeValue(sr[0], enc))
	}
	return p, nil
}

// quoteIdent quotes an SQLite identifier: "name" with embedded quotes
// doubled.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
