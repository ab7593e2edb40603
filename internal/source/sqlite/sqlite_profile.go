package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/source"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
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
// encoding. One statement scans the table for the row count and every
// column's counts and ranges; past ProfileSampleRows rows, distinct counts
// and values come from the first ProfileSampleRows rows and the profile
// says so (ColumnProfile.SampledRows). A text column whose samples mostly
// hold dates or numbers also counts the values a cast reads as NULL
// (source.CountCastNulls: one more scan, for all such columns at once).
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
			if e := source.CtxError(ctx, s.opts.Timeout); e != nil {
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
func (s *SQLite) profileFetch(ctx context.Context, q string, maxRows int) (*source.RawResult, error) {
	if profileStatement != nil {
		profileStatement(q)
	}
	return s.fetch(ctx, s.meta, q, nil, maxRows)
}

// profileTable scans t once for the row count and, for every column, the
// non-NULL count, min, max and ISO-shape counts (none of which holds more
// than a value per column); then the distinct counts of every column in
// one statement, and each column's samples, over the table or, past
// ProfileSampleRows rows, over its first ProfileSampleRows rows (see
// schema.ColumnProfile.SampledRows). Two full scans per column took 176 s
// on a 10M-row table.
func (s *SQLite) profileTable(ctx context.Context, t *schema.Table) error {
	tbl := source.QuoteIdent(t.Name)
	full := []string{"count(*)"}
	for _, c := range t.Columns {
		// only a text column can hold dates as text (profileColumn); the
		// GLOBs cost half the scan when numbers are turned into text for them
		shapes := "0, 0"
		switch col := source.QuoteIdent(c.Name); {
		case c.Type == planast.TypeText:
			shapes = fmt.Sprintf(`count(CASE WHEN %[1]s GLOB '%[2]s' THEN 1 END), count(CASE WHEN %[1]s GLOB '%[3]s' THEN 1 END)`,
				col, isoDateGlob, isoTimestampGlob)
		case c.Type.IsNumeric():
			// suspects, cheaply: with numeric affinity a well-formed
			// number is never stored as text (profileInvalid counts)
			shapes = fmt.Sprintf(`count(CASE WHEN typeof(%s) IN ('text', 'blob') THEN 1 END), 0`, col)
		case c.Type == planast.TypeBoolean:
			// the second: booleans spelt as text, which SQLite's own WHERE
			// takes for false
			shapes = fmt.Sprintf(`count(CASE WHEN %[1]s IS NOT NULL AND NOT %[2]s THEN 1 END), count(CASE WHEN typeof(%[1]s) = 'text' AND %[2]s THEN 1 END)`, col, render.Valid(col, c.Type))
		case c.Type.IsTemporal():
			shapes = fmt.Sprintf(`count(CASE WHEN %s IS NOT NULL AND NOT %s THEN 1 END), 0`, col, render.Valid(col, c.Type))
		}
		full = append(full, fmt.Sprintf("count(%[1]s), min(%[1]s), max(%[1]s),\n\t\t%[2]s", source.QuoteIdent(c.Name), shapes))
	}
	raw, err := s.profileFetch(ctx, "SELECT "+strings.Join(full, ",\n\t")+"\nFROM "+tbl, 1)
	if err != nil {
		return err
	}
	stats := raw.Rows[0]
	n, _ := stats[0].(int64)
	t.RowCount = &n
	if len(t.Columns) == 0 {
		return nil
	}
	src, sampled := tbl, int64(0)
	if n > source.ProfileSampleRows {
		// OFFSET 0: SQLite never flattens a subquery with an OFFSET, so
		// the LIMIT stays where it stops the scan
		src, sampled = fmt.Sprintf("(SELECT * FROM %s LIMIT %d OFFSET 0)", tbl, source.ProfileSampleRows), source.ProfileSampleRows
	}
	var distinct []string
	for _, c := range t.Columns {
		distinct = append(distinct, fmt.Sprintf("count(DISTINCT %[1]s), count(%[1]s)", source.QuoteIdent(c.Name)))
	}
	draw, err := s.profileFetch(ctx, "SELECT "+strings.Join(distinct, ", ")+" FROM "+src+" AS s", 1)
	if err != nil {
		return err
	}
	for i := range t.Columns {
		c := &t.Columns[i]
		r := stats[1+5*i : 6+5*i]
		d, _ := draw.Rows[0][2*i].(int64)
		inSample, _ := draw.Rows[0][2*i+1].(int64)
		p, err := s.profileColumn(ctx, src, c, n, d, inSample, sampled, r)
		if err != nil {
			return fmt.Errorf("column %q: %w", c.Name, err)
		}
		if suspects, _ := r[3].(int64); suspects > 0 && (c.Type.IsNumeric() || c.Type.IsTemporal() || c.Type == planast.TypeBoolean) {
			if err := s.profileInvalid(ctx, tbl, c, p); err != nil {
				return fmt.Errorf("column %q: %w", c.Name, err)
			}
		}
		if c.Type == planast.TypeBoolean {
			p.Respelled, _ = r[4].(int64)
		}
		c.Profile = p
	}
	one := func(ctx context.Context, q string) ([]any, error) {
		raw, err := s.profileFetch(ctx, q, 1)
		if err != nil {
			return nil, err
		}
		return raw.Rows[0], nil // text, or a count: as the result encodes them
	}
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = source.QuoteIdent(c.Name)
	}
	if err := source.CountDuplicateRows(ctx, t, src+" AS s", cols, min(n, source.ProfileSampleRows), one); err != nil {
		return err
	}
	return source.CountCastNulls(ctx, render.SQLite{}, tbl, t, nil, "", one)
}

// profileInvalid counts the values of c (of every row of tbl) that are not
// of its type, keeps the least as an example, and takes Min and Max over
// the others: 'abc' is not the largest value of an INTEGER column.
func (s *SQLite) profileInvalid(ctx context.Context, tbl string, c *schema.Column, p *schema.ColumnProfile) error {
	col := source.QuoteIdent(c.Name)
	bad := fmt.Sprintf("%s IS NOT NULL AND NOT %s", col, render.Valid(col, c.Type))
	read := render.ReadAs(render.SQLite{}, col, c.Type)
	// the numbers of a date or timestamp column, in the same scan: Unix
	// times a loader wrote beside ISO text (never valid, so among bad)
	number := fmt.Sprintf("CASE WHEN typeof(%s) IN ('integer', 'real') THEN %[1]s END", col)
	raw, err := s.profileFetch(ctx, fmt.Sprintf("SELECT count(CASE WHEN %[1]s THEN 1 END), min(CASE WHEN %[1]s THEN %[2]s END), min(%[3]s), max(%[3]s), count(%[5]s), min(%[5]s), max(%[5]s) FROM %[4]s",
		bad, col, read, tbl, number), 1)
	if err != nil {
		return err
	}
	r := raw.Rows[0]
	enc := sqliteColumn(c.DeclaredType)
	p.Invalid, _ = r[0].(int64)
	if p.Invalid > 0 {
		p.InvalidExample = source.EncodeValue(r[1], enc)
	}
	p.Min, p.Max = source.EncodeValue(r[2], enc), source.EncodeValue(r[3], enc)
	if n, _ := r[4].(int64); n > 0 && c.Type.IsTemporal() {
		p.Numbers = &schema.StoredNumbers{Count: n, Min: r[5], Max: r[6]}
	}
	return nil
}

// profileColumn builds c's profile from its full-scan statistics r
// (non-NULL count, min, max, ISO dates, ISO timestamps), its distinct
// count over src (inSample non-NULL values there) and reads its samples
// from src.
func (s *SQLite) profileColumn(ctx context.Context, src string, c *schema.Column, rows, distinct, inSample, sampled int64, r []any) (*schema.ColumnProfile, error) {
	col := source.QuoteIdent(c.Name)
	enc := sqliteColumn(c.DeclaredType)
	nonNull, _ := r[0].(int64)
	dates, _ := r[3].(int64)
	stamps, _ := r[4].(int64)
	p := source.SampledProfile(distinct, inSample, nonNull, rows, sampled)
	if c.Type == planast.TypeText && nonNull > 0 {
		switch {
		case dates == nonNull:
			p.Temporal = planast.TypeDate
		case dates+stamps == nonNull:
			p.Temporal = planast.TypeTimestamp
		}
	}
	if c.Type.IsNumeric() || c.Type.IsTemporal() || p.Temporal != "" {
		p.Min, p.Max = source.EncodeValue(r[1], enc), source.EncodeValue(r[2], enc)
	}
	if distinct == 0 || c.Type == planast.TypeBlob {
		return p, nil
	}
	var q string
	top := !(c.Type == planast.TypeText && distinct <= source.AllValuesMax) // the most frequent values, not all
	if !top {
		p.AllValues = sampled == 0
		q = fmt.Sprintf(`SELECT %[1]s FROM %[2]s AS s WHERE %[1]s IS NOT NULL GROUP BY %[1]s ORDER BY %[1]s`, col, src)
	} else {
		p.AllValues = sampled == 0 && distinct <= source.TopValues
		q = fmt.Sprintf(`SELECT %[1]s FROM %[2]s AS s WHERE %[1]s IS NOT NULL GROUP BY %[1]s ORDER BY count(*) DESC, %[1]s LIMIT %[3]d`, col, src, source.SampleCandidates)
	}
	samples, err := s.profileFetch(ctx, q, source.AllValuesMax)
	if err != nil {
		return nil, err
	}
	source.AddSamples(p, source.DiverseSamples(samples.Rows, source.TopValues, top), func(v any) any {
		if b, ok := v.([]byte); ok {
			// a blob among the values of a column that is no blob column
			// (SQLite stores a class per value): its placeholder, as a
			// result shows it, not its base64, which reads as stored text
			return cellfmt.Binary(b)
		}
		return source.EncodeValue(v, enc)
	})
	return p, nil
}
