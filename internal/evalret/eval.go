// Package evalret measures schema retrieval (package index) on Spider and
// BIRD: per question, whether the retrieved selection holds the tables,
// columns and stored string literals that the gold SQL uses, how much of
// the database it keeps, what the rendered context costs in tokens, and how
// long retrieval and index building take.
//
// Gold tables, columns and literals come from the lifter (planast/lift:
// the gold SQL lifted into a plan and walked with planast.Inspect), falling
// back per question to a conservative token scan when Lift fails; the
// report counts which produced them.
//
// Usage (from main's "nl2sql eval --measure retrieval"):
//
//	rep, err := evalret.Run(ctx, evalret.Config{Dataset: "spider",
//		Questions: "/work/shared/eval/spider/dev.json",
//		DBRoot: "/work/shared/eval/spider/database"})
//	json.NewEncoder(os.Stdout).Encode(rep)
package evalret

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/index/values"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// Config selects what Run measures.
type Config struct {
	// Dataset is "spider" (dev.json: db_id, question, query) or "bird"
	// (mini_dev_sqlite.json: db_id, question, evidence, SQL; the evidence
	// is appended to the question, as BIRD intends).
	Dataset string
	// Questions is the questions file; DBRoot holds <db>/<db>.sqlite.
	Questions, DBRoot string
	// Limit keeps the first Limit questions of each database (0: all).
	Limit int
	// DBs restricts the run to these databases (empty: all).
	DBs []string
	// Split restricts the run to one half of the databases (HalfOf):
	// SplitTuning, SplitHeldOut, or SplitAll.
	Split string
	// Embedder embeds documents and questions; nil means index.NGram{}.
	Embedder index.Embedder
	// Budget is passed to Retrieve with the whole-schema rule turned off,
	// so retrieval itself is measured.
	Budget index.Budget
	// Tuning is the index's selection policy (zero: the default).
	Tuning index.Tuning
	// NoComments skips reading column comments from the DDL; NoValues
	// indexes only profile samples (no values.Source).
	NoComments, NoValues bool
	// Semantic, when set, is Spider's tables.json: each database gets the
	// semantic layer SpiderSemantic drafts from it (descriptions from the
	// natural-language names), applied to the snapshot before the index
	// is built, and the prompt tokens count its context lines too.
	Semantic string
	// Cases includes the per-question cases in the report; Explain adds
	// each gold table's and column's rank in the fused ranking to them.
	Cases, Explain bool
}

// Report is the outcome of Run. Ratios are 0..1.
type Report struct {
	Dataset   string `json:"dataset"`
	Split     string `json:"split,omitempty"`
	Embedder  string `json:"embedder"`
	Questions int    `json:"questions"`
	// TableRecall is the share of questions whose gold tables were all
	// retrieved.
	TableRecall float64 `json:"table_recall"`
	// ColumnRecall is retrieved gold columns over all gold columns (all
	// questions pooled).
	ColumnRecall float64 `json:"column_recall"`
	// ColumnShare is retrieved columns over the database's columns,
	// averaged over questions.
	ColumnShare float64 `json:"column_share"`
	// ValueRecall is the share of gold string literals that are stored
	// values of the database and were reported with their exact spelling;
	// null (n/a) when no gold literal is stored (schema-only databases),
	// since 0 would read as "none found".
	ValueRecall *float64 `json:"value_recall"`
	// Literals counts gold string literals: all, those stored in some text
	// column (ValueRecall's denominator), and those found.
	Literals struct {
		Total  int `json:"total"`
		Stored int `json:"stored"`
		Found  int `json:"found"`
	} `json:"literals"`
	// PromptTokens is the median o200k_base token count of the rendered
	// selection (SchemaContext of Filter); P95 beside it.
	PromptTokens    int `json:"prompt_tokens"`
	PromptTokensP95 int `json:"prompt_tokens_p95"`
	// LatencyMS is Retrieve's wall time per question, median and p95.
	LatencyMS struct {
		Median float64 `json:"median"`
		P95    float64 `json:"p95"`
	} `json:"latency_ms"`
	// Gold counts questions by the extractor that produced their gold.
	Gold   map[string]int `json:"gold"`
	Builds []Build        `json:"builds"`
	Cases  []Case         `json:"cases,omitempty"`
}

// Build describes one database's index.
type Build struct {
	DB          string  `json:"db"`
	Tables      int     `json:"tables"`
	Columns     int     `json:"columns"`
	SchemaDocs  int     `json:"schema_docs"`
	ValueDocs   int     `json:"value_docs"`
	WholeTokens int     `json:"whole_tokens"` // the whole schema's context
	BuildMS     float64 `json:"build_ms"`     // index.Build wall time
	PeakHeapMB  float64 `json:"peak_heap_mb"` // peak live heap during Build above the baseline
}

// Case is one question's outcome.
type Case struct {
	DB              string   `json:"db"`
	Question        string   `json:"question"`
	Gold            Gold     `json:"gold"`
	MissingTables   []string `json:"missing_tables,omitempty"`
	MissingColumns  []string `json:"missing_columns,omitempty"`
	MissingLiterals []string `json:"missing_literals,omitempty"`
	Tables          []string `json:"tables"`
	Columns         int      `json:"columns"`
	// Kept are the retrieved columns (table.column), to tell the columns
	// a question did not need from those it did.
	Kept      []string `json:"kept"`
	Share     float64  `json:"share"`
	Tokens    int      `json:"tokens"`
	LatencyMS float64  `json:"latency_ms"`
	// GoldRanks maps each gold table to its 1-based rank among tables
	// (ordered by their best document) and each "table.column" to its
	// document's rank in the fused ranking (Config.Explain).
	GoldRanks map[string]int `json:"gold_ranks,omitempty"`
	// Ranking is the fused ranking (Config.Explain).
	Ranking []index.Ranked `json:"ranking,omitempty"`
}

type question struct {
	DB, Text, SQL string
}

func loadQuestions(cfg Config) ([]question, error) {
	if err := CheckSplit(cfg.Split); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(cfg.Questions)
	if err != nil {
		return nil, err
	}
	var raw []struct {
		DB       string `json:"db_id"`
		Question string `json:"question"`
		Evidence string `json:"evidence"`
		Query    string `json:"query"`
		// BIRD's "SQL"; Spider's "sql" (a parse tree) matches this key too
		// (encoding/json folds case), hence raw.
		SQL json.RawMessage `json:"SQL"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.Questions, err)
	}
	want := map[string]bool{}
	for _, d := range cfg.DBs {
		want[d] = true
	}
	perDB := map[string]int{}
	var out []question
	for _, r := range raw {
		if len(want) > 0 && !want[r.DB] {
			continue
		}
		if cfg.Split != SplitAll && HalfOf(r.DB) != cfg.Split {
			continue
		}
		if cfg.Limit > 0 && perDB[r.DB] >= cfg.Limit {
			continue
		}
		perDB[r.DB]++
		q := question{DB: r.DB, Text: r.Question, SQL: r.Query}
		switch cfg.Dataset {
		case "bird":
			if err := json.Unmarshal(r.SQL, &q.SQL); err != nil {
				return nil, fmt.Errorf("%s: SQL of %q: %w", cfg.Questions, r.Question, err)
			}
			if r.Evidence != "" {
				q.Text += " " + r.Evidence
			}
		case "spider":
		default:
			return nil, fmt.Errorf("unknown dataset %q (want spider or bird)", cfg.Dataset)
		}
		out = append(out, q)
	}
	return out, nil
}

// Run measures retrieval over the configured questions, database by
// database (in name order), and aggregates. Errors: unreadable files, a
// database that fails to open, snapshot, profile or index.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	qs, err := loadQuestions(cfg)
	if err != nil {
		return nil, err
	}
	emb := cfg.Embedder
	if emb == nil {
		emb = index.NGram{}
	}
	byDB := map[string][]question{}
	var dbs []string
	for _, q := range qs {
		if byDB[q.DB] == nil {
			dbs = append(dbs, q.DB)
		}
		byDB[q.DB] = append(byDB[q.DB], q)
	}
	sort.Strings(dbs)
	rep := &Report{Dataset: cfg.Dataset, Split: cfg.Split, Embedder: emb.Name(), Gold: map[string]int{}}
	schemactx.ContextTokens("") // load the tokenizer before any build is measured
	var acc tally
	for _, db := range dbs {
		if err := runDB(ctx, cfg, emb, db, byDB[db], rep, &acc); err != nil {
			return nil, fmt.Errorf("%s: %w", db, err)
		}
	}
	acc.finish(rep)
	if !cfg.Cases {
		rep.Cases = nil
	}
	return rep, nil
}

// tally accumulates per-question figures.
type tally struct {
	questions, tablesOK, goldCols, foundCols int
	share                                    float64
	tokens                                   []int
	latency                                  []float64
}

func (t *tally) finish(rep *Report) {
	rep.Questions = t.questions
	if t.questions > 0 {
		rep.TableRecall = float64(t.tablesOK) / float64(t.questions)
		rep.ColumnShare = t.share / float64(t.questions)
	}
	if t.goldCols > 0 {
		rep.ColumnRecall = float64(t.foundCols) / float64(t.goldCols)
	}
	if rep.Literals.Stored > 0 {
		vr := float64(rep.Literals.Found) / float64(rep.Literals.Stored)
		rep.ValueRecall = &vr
	}
	sort.Ints(t.tokens)
	sort.Float64s(t.latency)
	if n := len(t.tokens); n > 0 {
		rep.PromptTokens = t.tokens[n/2]
		rep.PromptTokensP95 = t.tokens[min(n-1, n*95/100)]
		rep.LatencyMS.Median = t.latency[n/2]
		rep.LatencyMS.P95 = t.latency[min(n-1, n*95/100)]
	}
}

// Open opens an evaluation database read-only and snapshots and profiles
// it, with DDL comments unless noComments. The caller closes the source.
func Open(ctx context.Context, id, path string, noComments bool) (*sqlite.SQLite, *schema.Snapshot, error) {
	src, err := sqlite.OpenSQLite(ctx, id, path, source.Options{RowLimit: 100000, Timeout: time.Minute})
	if err != nil {
		return nil, nil, err
	}
	snap, err := src.Snapshot(ctx)
	if err == nil {
		err = src.Profile(ctx, snap)
	}
	if err != nil {
		src.Close()
		return nil, nil, err
	}
	if !noComments {
		if r, err := src.Query(ctx, "SELECT name, sql FROM sqlite_master WHERE type = 'table'", nil, 0); err == nil {
			ddl := map[string]string{}
			for _, row := range r.Rows {
				n, _ := row[0].(string)
				s, _ := row[1].(string)
				ddl[n] = s
			}
			DDLComments(snap, ddl)
		}
	}
	return src, snap, nil
}

// Values is the values.Source of an evaluation database.
func Values(src *sqlite.SQLite) values.Source {
	return values.FromQuery(func(ctx context.Context, sql string, n int) ([][]any, bool, error) {
		r, err := src.Query(ctx, sql, nil, n)
		if err != nil {
			return nil, false, err
		}
		return r.Rows, r.Truncated, nil
	})
}

func runDB(ctx context.Context, cfg Config, emb index.Embedder, db string, qs []question, rep *Report, acc *tally) error {
	src, snap, err := Open(ctx, db, filepath.Join(cfg.DBRoot, db, db+".sqlite"), cfg.NoComments)
	if err != nil {
		return err
	}
	defer src.Close()
	render := schemactx.SchemaContext
	if cfg.Semantic != "" {
		l, err := spiderLayer(cfg.Semantic, db, snap)
		if err != nil {
			return err
		}
		snap = l.Apply(snap)
		render = func(s *schema.Snapshot) string {
			out := schemactx.SchemaContext(s)
			if extra := l.Context(s); extra != "" {
				out += "\n" + extra
			}
			return out
		}
	}
	opts := index.Options{Tuning: cfg.Tuning}
	if !cfg.NoValues {
		opts.Values = Values(src)
	}
	var ix *index.Index
	ms, peak, err := measure(func() error {
		var err error
		ix, err = index.Build(ctx, snap, emb, opts)
		return err
	})
	if err != nil {
		return err
	}
	defer ix.Close()
	nCols := 0
	for _, t := range snap.Tables {
		nCols += len(t.Columns)
	}
	sd, vd := ix.Docs()
	rep.Builds = append(rep.Builds, Build{DB: db, Tables: len(snap.Tables), Columns: nCols, SchemaDocs: sd, ValueDocs: vd,
		WholeTokens: ix.WholeTokens(), BuildMS: ms, PeakHeapMB: peak})
	budget := cfg.Budget
	budget.WholeSchemaTokens = -1
	stored := storedCheck(ctx, src, snap)
	for _, q := range qs {
		gold := goldOf(q.SQL, snap)
		rep.Gold[gold.Source]++
		start := time.Now()
		sel, err := ix.Retrieve(ctx, q.Text, budget, nil)
		lat := float64(time.Since(start).Microseconds()) / 1000
		if err != nil {
			return err
		}
		c := score(db, q, gold, sel, snap, nCols, stored, render, rep, acc)
		c.LatencyMS = lat
		if cfg.Explain {
			if c.GoldRanks, c.Ranking, err = goldRanks(ctx, ix, q.Text, gold); err != nil {
				return err
			}
		}
		acc.latency = append(acc.latency, lat)
		rep.Cases = append(rep.Cases, c)
	}
	return nil
}

// score compares one selection with its gold.
// render writes the selection's context, whose tokens are counted.
func score(db string, q question, gold Gold, sel *index.Selection, snap *schema.Snapshot, nCols int, stored func(string) bool,
	render func(*schema.Snapshot) string, rep *Report, acc *tally) Case {
	tables := map[string]bool{}
	cols := map[string]bool{}
	var names, kept []string
	n := 0
	for _, t := range sel.Tables {
		tables[t.Name] = true
		names = append(names, t.Name)
		for _, c := range t.Columns {
			cols[t.Name+"."+c] = true
			kept = append(kept, t.Name+"."+c)
			n++
		}
	}
	c := Case{DB: db, Question: q.Text, Gold: gold, Tables: names, Columns: n, Kept: kept}
	for _, t := range gold.Tables {
		if !tables[t] {
			c.MissingTables = append(c.MissingTables, t)
		}
	}
	for _, col := range gold.Columns {
		if !cols[col] {
			c.MissingColumns = append(c.MissingColumns, col)
		}
	}
	found := map[string]bool{}
	for _, v := range sel.Values {
		found[v.Value] = true
	}
	for _, l := range gold.Literals {
		rep.Literals.Total++
		if !stored(l) {
			continue
		}
		rep.Literals.Stored++
		if found[l] {
			rep.Literals.Found++
		} else {
			c.MissingLiterals = append(c.MissingLiterals, l)
		}
	}
	if nCols > 0 {
		c.Share = float64(n) / float64(nCols)
	}
	c.Tokens = schemactx.ContextTokens(render(sel.Filter(snap)))
	acc.questions++
	if len(c.MissingTables) == 0 {
		acc.tablesOK++
	}
	acc.goldCols += len(gold.Columns)
	acc.foundCols += len(gold.Columns) - len(c.MissingColumns)
	acc.share += c.Share
	acc.tokens = append(acc.tokens, c.Tokens)
	return c
}

// storedCheck reports whether a literal is a stored value of some text
// column (exact spelling), asking the database once per literal.
func storedCheck(ctx context.Context, src *sqlite.SQLite, snap *schema.Snapshot) func(string) bool {
	memo := map[string]bool{}
	return func(lit string) bool {
		if v, ok := memo[lit]; ok {
			return v
		}
		hit := false
		for _, t := range snap.Tables {
			for _, c := range t.Columns {
				if c.Type != planast.TypeText && c.Type != planast.TypeUnknown {
					continue
				}
				q := fmt.Sprintf(`SELECT 1 FROM %s WHERE %s = ? LIMIT 1`, quoteIdent(t.Name), quoteIdent(c.Name))
				if r, err := src.Query(ctx, q, []any{lit}, 1); err == nil && len(r.Rows) > 0 {
					hit = true
					break
				}
			}
			if hit {
				break
			}
		}
		memo[lit] = hit
		return hit
	}
}

func goldRanks(ctx context.Context, ix *index.Index, question string, gold Gold) (map[string]int, []index.Ranked, error) {
	rs, err := ix.Explain(ctx, question, nil)
	if err != nil {
		return nil, nil, err
	}
	want := map[string]bool{}
	for _, t := range gold.Tables {
		want[t] = true
	}
	for _, c := range gold.Columns {
		want[c] = true
	}
	out := map[string]int{}
	tables := 0
	seen := map[string]bool{}
	for i, r := range rs {
		if !seen[r.Table] {
			seen[r.Table] = true
			tables++
			if want[r.Table] {
				out[r.Table] = tables
			}
		}
		if k := r.Table + "." + r.Column; r.Column != "" && want[k] {
			out[k] = i + 1
		}
	}
	return out, rs, nil
}
