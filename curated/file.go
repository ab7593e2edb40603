package curated

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/nl2sql/nl2sql/internal/config"
)

// Defaults of the file's settings.
const (
	DefaultMinSimilarity = 0.6
	DefaultPlanTimeout   = 5 * time.Second
)

// File is a loaded verified-queries file (the one config.Config.Curated
// names), not yet checked against databases:
//
//	min_similarity: 0.6        # Match threshold in [0, 1] (default 0.6)
//	allow_recursive: false     # WITH RECURSIVE allowed (default false)
//	plan_timeout_seconds: 5    # bound on planning one query at validation (default 5)
//	verified_queries:
//	  - id: revenue_by_country            # ^[a-z][a-z0-9_]*$, unique
//	    datasource: chinook               # a configured datasource id
//	    description: Revenue per billing country for one year
//	    questions: ["What was revenue by country in 2024?"]   # at least one
//	    sql: SELECT … WHERE strftime('%Y', InvoiceDate) = :year
//	    params:
//	      - {name: year, type: string, required: true, pattern: "^[0-9]{4}$", example: "2024"}
//
// See Param for the parameter keys.
type File struct {
	Path           string
	MinSimilarity  float64
	AllowRecursive bool
	PlanTimeout    time.Duration
	Queries        []*Query
}

// Query is one verified query. Exported fields are as written in the file;
// Check fills in what running it needs.
type Query struct {
	ID          string   `yaml:"id" json:"id"`
	Datasource  string   `yaml:"datasource" json:"datasource"`
	Description string   `yaml:"description" json:"description"`
	Questions   []string `yaml:"questions" json:"questions"`
	SQL         string   `yaml:"sql" json:"-"`
	Params      []Param  `yaml:"params" json:"params,omitempty"`

	dialect string
	prep    *prepared
	an      *analysis
	tables  []resolved // set by Check
	// sent is the parse text with its placeholders in the dialect's form
	// (placeholders), set by Check: what a run without row filters sends.
	sent    string
	checked bool
}

// Dialect is the query's datasource engine ("sqlite", "duckdb", "postgres").
func (q *Query) Dialect() string { return q.dialect }

type fileShape struct {
	MinSimilarity      *float64 `yaml:"min_similarity"`
	AllowRecursive     bool     `yaml:"allow_recursive"`
	PlanTimeoutSeconds *float64 `yaml:"plan_timeout_seconds"`
	Queries            []*Query `yaml:"verified_queries"`
}

var idPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// Load reads cfg.Curated strictly (an unknown key, a wrong type or bad
// YAML is an error naming the file). It returns (nil, nil) when cfg names
// no curated file. Problems of single queries are not errors here: Check
// refuses those queries with a reason each.
func Load(cfg *config.Config) (*File, error) {
	if cfg.Curated == "" {
		return nil, nil
	}
	b, err := os.ReadFile(cfg.Curated)
	if err != nil {
		return nil, fmt.Errorf("curated %s: %w", cfg.CuratedAsWritten, err)
	}
	return parseFile(cfg.CuratedAsWritten, b)
}

func parseFile(name string, b []byte) (*File, error) {
	var fs fileShape
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&fs); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("curated %s: %w", name, keyErrors(err))
	}
	f := &File{Path: name, MinSimilarity: DefaultMinSimilarity, AllowRecursive: fs.AllowRecursive, PlanTimeout: DefaultPlanTimeout, Queries: fs.Queries}
	if fs.MinSimilarity != nil {
		if *fs.MinSimilarity < 0 || *fs.MinSimilarity > 1 {
			return nil, fmt.Errorf("curated %s: min_similarity: %v must be between 0 and 1", name, *fs.MinSimilarity)
		}
		f.MinSimilarity = *fs.MinSimilarity
	}
	if fs.PlanTimeoutSeconds != nil {
		if *fs.PlanTimeoutSeconds <= 0 || *fs.PlanTimeoutSeconds > 60 {
			return nil, fmt.Errorf("curated %s: plan_timeout_seconds: %v must be in (0, 60]", name, *fs.PlanTimeoutSeconds)
		}
		f.PlanTimeout = time.Duration(*fs.PlanTimeoutSeconds * float64(time.Second))
	}
	for i, q := range f.Queries {
		if q == nil {
			f.Queries[i] = &Query{}
		}
	}
	return f, nil
}

// label is how refusals name a query.
func label(q *Query, i int) string {
	if q.ID != "" {
		return q.ID
	}
	return fmt.Sprintf("#%d", i+1)
}

// define checks everything that needs no parser and no database: the
// query's own fields, its params and their examples, and the lexical pass
// with its placeholders. seen holds the ids so far.
func (f *File) define(q *Query, cfg *config.Config, seen map[string]bool) *Error {
	switch {
	case !idPattern.MatchString(q.ID):
		return refusef(CodeDefinition, "id %q must match %s", q.ID, idPattern)
	case seen[q.ID]:
		return refusef(CodeDefinition, "id %q is used twice", q.ID)
	}
	seen[q.ID] = true
	ds, ok := cfg.Datasource(q.Datasource)
	if !ok {
		return refusef(CodeDefinition, "datasource %q is not configured", q.Datasource)
	}
	q.dialect = ds.Engine
	if len(q.Questions) == 0 || slices.ContainsFunc(q.Questions, func(s string) bool { return strings.TrimSpace(s) == "" }) {
		return refusef(CodeDefinition, "questions must list at least one non-empty question")
	}
	if strings.TrimSpace(q.SQL) == "" {
		return refusef(CodeStatements, "sql is empty")
	}
	names := map[string]bool{}
	for i := range q.Params {
		p := &q.Params[i]
		if err := p.define(); err != nil {
			return err
		}
		if names[p.Name] {
			return refusef(CodeDefinition, "param %q is declared twice", p.Name)
		}
		names[p.Name] = true
	}
	prep, err := prepare(q.SQL, q.dialect)
	if err != nil {
		return err.(*Error)
	}
	var used []string
	for _, n := range prep.order {
		if !names[n] {
			return refusef(CodePlacehold, "placeholder :%s is not a declared param", n)
		}
		used = append(used, n)
	}
	for _, p := range q.Params {
		if !slices.Contains(used, p.Name) {
			return refusef(CodePlacehold, "param %q is declared but the SQL has no :%s", p.Name, p.Name)
		}
	}
	q.prep = prep
	return nil
}
