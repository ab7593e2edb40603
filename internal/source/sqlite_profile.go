package source

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Sample sizes of a profile.
const (
	allValuesMax = 50 // a text column with at most this many distinct values lists them all
	topValues    = 5  // otherwise its most frequent values
)

// profileSampleRows is the most rows a table's distinct counts and samples
// are read from: past it, from its first profileSampleRows rows
// (ColumnProfile.SampledRows), so profiling a huge table stays fast and its
// memory flat; counts, NULL shares and ranges still scan every row. A
// variable for tests only.
var profileSampleRows int64 = 500_000

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
// encoding. One statement scans the table for the row count and every
// column's counts and ranges; past profileSampleRows rows, distinct counts
// and values come from the first profileSampleRows rows and the profile
// says so (ColumnProfile.SampledRows).
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

// profileStatement, when set (by tests), sees every statement profiling
// runs, to count the scans.
var profileStatement func(sqlText string)

// profileFetch runs one profiling statement on the metadata pool.
func (s *SQLite) profileFetch(ctx context.Context, q string, maxRows int) (*rawResult, error) {
	if profileStatement != nil {
		profileStatement(q)
	}
	return s.fetch(ctx, s.meta, q, nil, maxRows)
}

// profileTable scans t once for the row count and, for every column, the
// non-NULL count, min, max and ISO-shape counts (none of which holds more
// than a value per column); then the distinct counts of every column in
// one statement, and each column's samples, over the table or, past
// profileSampleRows rows, over its first profileSampleRows rows (see
// schema.ColumnProfile.SampledRows). Two full scans per column took 176 s
// on a 10M-row table.
func (s *SQLite) profileTable(ctx context.Context, t *schema.Table) error {
	tbl := quoteIdent(t.Name)
	full := []string{"count(*)"}
	for _, c := range t.Columns {
		// only a text column can hold dates as text (profileColumn); the
		// GLOBs cost half the scan when numbers are turned into text for them
		shapes := "0, 0"
		if c.Type == planast.TypeText {
			shapes = fmt.Sprintf(`count(CASE WHEN %[1]s GLOB '%[2]s' THEN 1 END), count(CASE WHEN %[1]s GLOB '%[3]s' THEN 1 END)`,
				quoteIdent(c.Name), isoDateGlob, isoTimestampGlob)
		}
		full = append(full, fmt.Sprintf("count(%[1]s), min(%[1]s), max(%[1]s),\n\t\t%[2]s", quoteIdent(c.Name), shapes))
	}
	raw, err := s.profileFetch(ctx, "SELECT "+strings.Join(full, ",\n\t")+"\nFROM "+tbl, 1)
	if err != nil {
		return err
	}
	stats := raw.rows[0]
	n, _ := stats[0].(int64)
	t.RowCount = &n
	if len(t.Columns) == 0 {
		return nil
	}
	src, sampled := tbl, int64(0)
	if n > profileSampleRows {
		// OFFSET 0: SQLite never flattens a subquery with an OFFSET, so
		// the LIMIT stays where it stops the scan
		src, sampled = fmt.Sprintf("(SELECT * FROM %s LIMIT %d OFFSET 0)", tbl, profileSampleRows), profileSampleRows
	}
	var distinct []string
	for _, c := range t.Columns {
		distinct = append(distinct, fmt.Sprintf("count(DISTINCT %[1]s), count(%[1]s)", quoteIdent(c.Name)))
	}
	draw, err := s.profileFetch(ctx, "SELECT "+strings.Join(distinct, ", ")+" FROM "+src+" AS s", 1)
	if err != nil {
		return err
	}
	for i := range t.Columns {
		c := &t.Columns[i]
		r := stats[1+5*i : 6+5*i]
		d, _ := draw.rows[0][2*i].(int64)
		inSample, _ := draw.rows[0][2*i+1].(int64)
		p, err := s.profileColumn(ctx, src, c, n, d, inSample, sampled, r)
		if err != nil {
			return fmt.Errorf("column %q: %w", c.Name, err)
		}
		c.Profile = p
	}
	return nil
}

// profileColumn builds c's profile from its full-scan statistics r
// (non-NULL count, min, max, ISO dates, ISO timestamps), its distinct
// count over src (inSample non-NULL values there) and reads its samples
// from src.
func (s *SQLite) profileColumn(ctx context.Context, src string, c *schema.Column, rows, distinct, inSample, sampled int64, r []any) (*schema.ColumnProfile, error) {
	col := quoteIdent(c.Name)
	enc := sqliteColumn(c.DeclaredType)
	nonNull, _ := r[0].(int64)
	dates, _ := r[3].(int64)
	stamps, _ := r[4].(int64)
	p := sampledProfile(distinct, inSample, nonNull, rows, sampled)
	if c.Type == planast.TypeText && nonNull > 0 {
		switch {
		case dates == nonNull:
			p.Temporal = planast.TypeDate
		case dates+stamps == nonNull:
			p.Temporal = planast.TypeTimestamp
		}
	}
	if c.Type.IsNumeric() || c.Type.IsTemporal() || p.Temporal != "" {
		p.Min, p.Max = encodeValue(r[1], enc), encodeValue(r[2], enc)
	}
	if distinct == 0 || c.Type == planast.TypeBlob {
		return p, nil
	}
	var q string
	if c.Type == planast.TypeText && distinct <= allValuesMax {
		p.AllValues = sampled == 0
		q = fmt.Sprintf(`SELECT %[1]s FROM %[2]s AS s WHERE %[1]s IS NOT NULL GROUP BY %[1]s ORDER BY %[1]s`, col, src)
	} else {
		p.AllValues = sampled == 0 && distinct <= topValues
		q = fmt.Sprintf(`SELECT %[1]s FROM %[2]s AS s WHERE %[1]s IS NOT NULL GROUP BY %[1]s ORDER BY count(*) DESC, %[1]s LIMIT %[3]d`, col, src, topValues)
	}
	samples, err := s.profileFetch(ctx, q, allValuesMax)
	if err != nil {
		return nil, err
	}
	for _, sr := range samples.rows {
		p.SampleValues = append(p.SampleValues, encodeValue(sr[0], enc))
	}
	return p, nil
}

// sampledProfile starts a column's profile from its distinct count (over
// the sample when sampled > 0, holding inSample non-NULL values) and its
// non-NULL count over all rows. A column unique within the sample counts
// as unique throughout, so a key column still reads as one.
func sampledProfile(distinct, inSample, nonNull, rows, sampled int64) *schema.ColumnProfile {
	if sampled > 0 && distinct == inSample && inSample > 0 {
		distinct = nonNull
	}
	p := &schema.ColumnProfile{DistinctCount: distinct, SampledRows: sampled}
	if rows > 0 {
		p.NullFraction = float64(rows-nonNull) / float64(rows)
	}
	return p
}

// quoteIdent quotes an SQLite identifier: "name" with embedded quotes
// doubled.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
