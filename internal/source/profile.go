package source

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
)

// Regular expressions (fully matched) for ISO-8601 dates and the start of
// timestamps stored as text: the same shapes as isoDateGlob and
// isoTimestampGlob, for engines without GLOB.
const (
	isoDateRegexp      = `[0-9]{4}-[0-1][0-9]-[0-3][0-9]`
	isoTimestampRegexp = isoDateRegexp + `[ T][0-2][0-9]:[0-5][0-9].*`
)

// SQLProfiler profiles tables through SQL for the DuckDB and PostgreSQL
// adapters, with the rules of (*SQLite).Profile (see there): row counts;
// per column the distinct count, the NULL fraction, Min and Max for numeric
// and temporal columns and for text columns holding only ISO dates or
// timestamps, and sample values (every value, sorted, of a text column with
// at most 50 distinct values; else the 5 most frequent, ties by value; none
// for blobs), and for a text column whose samples mostly hold dates or
// numbers the values a cast reads as NULL (CountCastNulls). Each statement
// runs through query, which applies the adapter's timeout and result
// encoding.
type SQLProfiler struct {
	Query   func(ctx context.Context, sqlText string, maxRows int) (*Result, error)
	Timeout time.Duration
	// table is the quoted, schema-qualified name of t.
	Table func(t *schema.Table) string
	// asText casts an expression to text.
	AsText func(expr string) string
	// ColumnText, when set, is column c's text as results show it, where
	// that is not AsText's (PostgreSQL inet: abbrev, without /32), so
	// the values a profile lists are those a plan's filter matches.
	ColumnText func(c *schema.Column, col string) string
	// matches is a boolean expression: textExpr fully matches re.
	Matches func(textExpr, re string) string
	// textOrder follows a text expression in ORDER BY, min and max so text
	// sorts byte-wise (` COLLATE "C"`), "" where it already does.
	TextOrder string
	// sampleAsText reports whether c is counted and sampled as text (types
	// without equality, or whose driver value is not a scalar).
	SampleAsText func(c *schema.Column) bool
	// SampleValue, when set, is the value of column c's group, grouped by
	// its text textExpr, as the column's type ("(textExpr)::text[]", or an
	// aggregate picking one): a nested column (an array, a JSON document)
	// is sampled as its value, which the adapter encodes as results do,
	// where the engine's text ('{a,b}', "[a, 'b']") is a form no result
	// or literal uses.
	SampleValue func(c *schema.Column, textExpr string) string
	// Dialect is the adapter's, whose text-cast rule CountCastNulls
	// counts by; nil: no cast is counted.
	Dialect render.Dialect
	// cache keeps profiles between calls while version reports the same
	// data version; nil cache or version: no caching.
	Cache   *ProfileCache
	Version func(ctx context.Context) (string, error)
}

// ProfileCache keeps the profiles of one datasource's tables for as long
// as its data version stays the same, so profiling an unchanged datasource
// again reads nothing but the version. A table is found by its schema,
// name, and column names and declared types. It is safe for concurrent
// use.
type ProfileCache struct {
	mu      sync.Mutex
	version string
	tables  map[string]tableProfile
}

// tableProfile is a cached table profile.
type tableProfile struct {
	rows, duplicates int64
	columns          []schema.ColumnProfile
}

// cacheKey identifies t's shape.
func cacheKey(t *schema.Table) string {
	var b strings.Builder
	b.WriteString(t.Schema + "\x00" + t.Name)
	for _, c := range t.Columns {
		b.WriteString("\x00" + c.Name + "\x01" + c.DeclaredType)
	}
	return b.String()
}

// lookup fills t from the cache when it holds t for version.
func (c *ProfileCache) lookup(version string, t *schema.Table) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	tp, ok := c.tables[cacheKey(t)]
	if !ok || c.version != version || len(tp.columns) != len(t.Columns) {
		return false
	}
	n := tp.rows
	t.RowCount, t.DuplicateRows = &n, tp.duplicates
	for i := range t.Columns {
		p := tp.columns[i]
		p.SampleValues = slices.Clone(p.SampleValues)
		t.Columns[i].Profile = &p
	}
	return true
}

// store keeps t's profile for version, forgetting other versions.
func (c *ProfileCache) store(version string, t *schema.Table) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != version || c.tables == nil {
		c.version, c.tables = version, map[string]tableProfile{}
	}
	tp := tableProfile{rows: *t.RowCount, duplicates: t.DuplicateRows, columns: make([]schema.ColumnProfile, len(t.Columns))}
	for i, col := range t.Columns {
		tp.columns[i] = *col.Profile
		tp.columns[i].SampleValues = slices.Clone(col.Profile.SampleValues)
	}
	c.tables[cacheKey(t)] = tp
}

// profile fills RowCount and column profiles for the tables of snap (views
// are left out), from the cache where it holds them for the current data
// version. A table that fails keeps what it had and the others go
// on; the errors are joined. When ctx ends, profile stops with its error.
func (p *SQLProfiler) Profile(ctx context.Context, snap *schema.Snapshot) error {
	version, cached := "", p.Cache != nil && p.Version != nil
	if cached {
		v, err := p.Version(ctx)
		if e := CtxError(ctx, p.Timeout); e != nil {
			return e
		}
		version, cached = v, err == nil
	}
	var errs []error
	for i := range snap.Tables {
		t := &snap.Tables[i]
		if t.Kind != schema.KindTable || cached && p.Cache.lookup(version, t) {
			continue
		}
		err := p.profileTable(ctx, t)
		if err == nil && cached {
			p.Cache.store(version, t)
		}
		if err != nil {
			if e := CtxError(ctx, p.Timeout); e != nil {
				return e
			}
			errs = append(errs, fmt.Errorf("profile table %s.%s: %w", t.Schema, t.Name, err))
		}
	}
	return errors.Join(errs...)
}

// profileTable scans t once for the row count and, for every column, the
// non-NULL count, min, max and ISO-shape counts (none of which holds more
// than a value per column); then each column's distinct count and samples
// over the table or, past ProfileSampleRows rows, over its first
// ProfileSampleRows rows (see schema.ColumnProfile.SampledRows). Distinct
// counts run one column at a time: one statement for every column holds
// every distinct set at once (DuckDB's peak memory grew by half).
func (p *SQLProfiler) profileTable(ctx context.Context, t *schema.Table) error {
	tbl := p.Table(t)
	exprs := make([]columnExprs, len(t.Columns))
	full := []string{"count(*)"}
	for i := range t.Columns {
		exprs[i] = p.exprs(&t.Columns[i])
		full = append(full, exprs[i].full)
	}
	res, err := p.Query(ctx, "SELECT "+strings.Join(full, ", ")+" FROM "+tbl, 1)
	if err != nil {
		return err
	}
	stats := res.Rows[0]
	n, _ := stats[0].(int64)
	t.RowCount = &n
	src, sampled := tbl, int64(0)
	if n > ProfileSampleRows {
		src, sampled = fmt.Sprintf("(SELECT * FROM %s LIMIT %d)", tbl, ProfileSampleRows), ProfileSampleRows
	}
	src += " AS s"
	for i := range t.Columns {
		c := &t.Columns[i]
		e := exprs[i]
		d, err := p.Query(ctx, "SELECT "+e.distinct+" FROM "+src, 1)
		if err != nil {
			return fmt.Errorf("column %q: %w", c.Name, err)
		}
		distinct, _ := d.Rows[0][0].(int64)
		inSample, _ := d.Rows[0][1].(int64)
		prof, err := p.profileColumn(ctx, src, c, e, stats[1+5*i:6+5*i], n, distinct, inSample, sampled)
		if err != nil {
			return fmt.Errorf("column %q: %w", c.Name, err)
		}
		c.Profile = prof
	}
	cols := make([]string, len(exprs))
	for i, e := range exprs {
		cols[i] = e.expr
	}
	one := func(ctx context.Context, q string) ([]any, error) {
		res, err := p.Query(ctx, q, 1)
		if err != nil {
			return nil, err
		}
		return res.Rows[0], nil
	}
	if err := CountDuplicateRows(ctx, t, src, cols, min(n, ProfileSampleRows), one); err != nil && CtxError(ctx, p.Timeout) != nil {
		return err
	}
	if p.Dialect == nil {
		return nil
	}
	err = CountCastNulls(ctx, p.Dialect, tbl, t, p.AsText, p.TextOrder, one)
	if err != nil && CtxError(ctx, p.Timeout) != nil {
		return err
	}
	// otherwise the counts are left out and the rest of the profile kept:
	// an engine that speaks PostgreSQL but not all of its functions
	// (CockroachDB) must not lose the table's profile to them
	return nil
}

// columnExprs are the SQL pieces that profile one column.
type columnExprs struct {
	expr     string // the column, or its text where sampled as text
	order    string // expr in ORDER BY
	full     string // five select items over every row: non-null, min, max, ISO dates, ISO timestamps
	distinct string // two select items over the sample: distinct, non-null
}

func (p *SQLProfiler) exprs(c *schema.Column) columnExprs {
	col := QuoteIdent(c.Name)
	e := columnExprs{expr: col, order: col}
	isText := c.Type == planast.TypeText
	if p.SampleAsText(c) {
		e.expr = p.AsText(col)
		if p.ColumnText != nil {
			e.expr = p.ColumnText(c, col)
		}
		e.order = e.expr
	}
	if isText || p.SampleAsText(c) {
		e.order += p.TextOrder
	}
	minMax, dates, stamps := "NULL, NULL", "0", "0"
	switch {
	case c.Type.IsNumeric() || c.Type.IsTemporal():
		minMax = fmt.Sprintf("min(%[1]s), max(%[1]s)", col)
	case isText:
		minMax = fmt.Sprintf("min(%[1]s), max(%[1]s)", e.order)
		txt := p.AsText(col)
		dates = fmt.Sprintf("count(CASE WHEN %s THEN 1 END)", p.Matches(txt, isoDateRegexp))
		stamps = fmt.Sprintf("count(CASE WHEN %s THEN 1 END)", p.Matches(txt, isoTimestampRegexp))
	}
	e.full = fmt.Sprintf("count(%s), %s, %s, %s", col, minMax, dates, stamps)
	e.distinct = fmt.Sprintf("count(DISTINCT %s), count(%s)", e.expr, col)
	return e
}

// profileColumn builds c's profile from its five full-scan statistics r
// (see columnExprs) and its distinct count over src, and reads its samples
// from src.
func (p *SQLProfiler) profileColumn(ctx context.Context, src string, c *schema.Column, e columnExprs, r []any, rows, distinct, inSample, sampled int64) (*schema.ColumnProfile, error) {
	isText := c.Type == planast.TypeText
	nonNull, _ := r[0].(int64)
	nDates, _ := r[3].(int64)
	nStamps, _ := r[4].(int64)
	prof := SampledProfile(distinct, inSample, nonNull, rows, sampled)
	if isText && nonNull > 0 {
		switch {
		case nDates == nonNull:
			prof.Temporal = planast.TypeDate
		case nDates+nStamps == nonNull:
			prof.Temporal = planast.TypeTimestamp
		}
	}
	if c.Type.IsNumeric() || c.Type.IsTemporal() || prof.Temporal != "" {
		prof.Min, prof.Max = r[1], r[2]
	}
	if distinct == 0 || c.Type == planast.TypeBlob {
		return prof, nil
	}
	var q string
	top := !(isText && distinct <= AllValuesMax) // the most frequent values, not all
	shown := e.expr
	if c.Type.IsNested() && p.SampleValue != nil {
		shown = p.SampleValue(c, e.expr)
	}
	if !top {
		prof.AllValues = sampled == 0
		q = fmt.Sprintf(`SELECT %[5]s FROM %[2]s WHERE %[1]s IS NOT NULL GROUP BY %[1]s ORDER BY %[3]s`, e.expr, src, e.order, 0, shown)
	} else {
		prof.AllValues = sampled == 0 && distinct <= TopValues
		q = fmt.Sprintf(`SELECT %[5]s FROM %[2]s WHERE %[1]s IS NOT NULL GROUP BY %[1]s ORDER BY count(*) DESC, %[3]s LIMIT %[4]d`, e.expr, src, e.order, SampleCandidates, shown)
	}
	samples, err := p.Query(ctx, q, AllValuesMax)
	if err != nil {
		return nil, err
	}
	AddSamples(prof, DiverseSamples(samples.Rows, TopValues, top), nil)
	return prof, nil
}

// MaxSampleBytes bounds a sample value: a profile's samples reach every
// schema surface (describe_schema, search_schema, the planner's and the
// host's schema context), and a long text, however frequent, is no literal
// anyone filters on. A longer value is left out and the profile no longer
// says it lists every value.
const MaxSampleBytes = 200

// AddSamples adds the first value of each row, through encode when it is
// set, to p's samples (AddSample), whose array it allocates once at the
// size they need: a catalog's profiles hold a sample array per column for
// as long as the process serves it.
func AddSamples(p *schema.ColumnProfile, rows [][]any, encode func(any) any) {
	if len(rows) == 0 {
		return
	}
	p.SampleValues = slices.Grow(p.SampleValues, len(rows))
	for _, r := range rows {
		v := r[0]
		if encode != nil {
			v = encode(v)
		}
		AddSample(p, v)
	}
	if len(p.SampleValues) == 0 {
		p.SampleValues = nil // every value too long: no samples, nil as without rows
	}
}

// AddSample appends v (as the result encoding gives it) to p's samples
// unless its text is longer than MaxSampleBytes.
func AddSample(p *schema.ColumnProfile, v any) {
	n := 0
	switch x := v.(type) {
	case string:
		n = len(x)
	case map[string]any, []any:
		b, _ := json.Marshal(x)
		n = len(b)
	}
	if n > MaxSampleBytes {
		p.AllValues = false
		return
	}
	p.SampleValues = append(p.SampleValues, v)
}
