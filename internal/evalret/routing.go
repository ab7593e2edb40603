package evalret

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"github.com/nl2sql/nl2sql/engine/hostplan"
	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/engine/verified"
	"github.com/nl2sql/nl2sql/index"
)

// RoutingReport is the outcome of Routing. Ratios are 0..1.
type RoutingReport struct {
	Dataset string `json:"dataset"`
	Split   string `json:"split,omitempty"`
	// Questions counts the questions ranked; Datasources the databases each
	// was ranked against (every database of the suite, in either split).
	Questions   int `json:"questions"`
	Datasources int `json:"datasources"`
	// Top1 is the share of questions whose own database ranks first.
	Top1 float64 `json:"top1"`
	// Picked is the share of questions where the ranking leads enough for
	// a datasource to be chosen without a resolver model (hostplan.Leads);
	// PickedRight the share of those picks that are the question's own
	// database. A wrong pick answers from the wrong data; no pick offers
	// the candidates to the host instead.
	Picked      float64 `json:"picked"`
	PickedRight float64 `json:"picked_right"`
	// Offered is the share of questions whose own database is picked or
	// among the candidates offered when none is picked.
	Offered float64       `json:"offered"`
	Cases   []RoutingCase `json:"cases,omitempty"`
}

// RoutingCase is one question's ranking.
type RoutingCase struct {
	DB       string    `json:"db"`
	Question string    `json:"question"`
	Ranked   []string  `json:"ranked"`
	Scores   []float64 `json:"scores"`
	Picked   bool      `json:"picked"`
}

// Routing measures the choice of datasource: every database of the
// questions file is a datasource (its table and column names, and the
// question's stored values its value index finds, as the pipeline ranks
// them: multi.Shortlist with no descriptions, which benchmark databases
// lack), and each question of cfg.Split is ranked against all of them.
func Routing(ctx context.Context, cfg Config) (*RoutingReport, error) {
	split := cfg.Split
	cfg.Split = SplitAll
	all, err := loadQuestions(cfg)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var dbs []string
	for _, q := range all {
		if !seen[q.DB] {
			seen[q.DB] = true
			dbs = append(dbs, q.DB)
		}
	}
	sort.Strings(dbs)
	cands := make([]multi.Candidate, len(dbs))
	idx := make([]*index.Index, len(dbs))
	for i, db := range dbs {
		src, snap, err := Open(ctx, db, filepath.Join(cfg.DBRoot, db, db+".sqlite"), true)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", db, err)
		}
		ix, err := index.Build(ctx, snap, index.NGram{}, index.Options{Values: Values(src)})
		src.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", db, err)
		}
		defer ix.Close()
		idx[i] = ix
		cands[i] = multi.Candidate{ID: db, Tables: multi.TableNames(snap.Tables), Columns: multi.TableColumnNames(snap.Tables)}
	}
	rep := &RoutingReport{Dataset: cfg.Dataset, Split: split, Datasources: len(dbs)}
	var top1, picked, pickedRight, offered int
	for _, q := range all {
		if split != SplitAll && HalfOf(q.DB) != split {
			continue
		}
		cs := make([]multi.Candidate, len(cands))
		for i, c := range cands {
			c.Values = verified.NamedValues(ctx, idx[i], q.Text, nil)
			cs[i] = c
		}
		ranked := multi.Shortlist(q.Text, cs)
		c := RoutingCase{DB: q.DB, Question: q.Text}
		for _, r := range ranked {
			c.Ranked = append(c.Ranked, r.ID)
			c.Scores = append(c.Scores, r.Score)
		}
		c.Picked = hostplan.Leads(c.Scores)
		rep.Questions++
		if c.Ranked[0] == q.DB {
			top1++
		}
		switch {
		case c.Picked:
			picked++
			if c.Ranked[0] == q.DB {
				pickedRight++
				offered++
			}
		case slices.Contains(c.Ranked, q.DB):
			offered++
		}
		if cfg.Cases {
			rep.Cases = append(rep.Cases, c)
		}
	}
	if n := float64(rep.Questions); n > 0 {
		rep.Top1, rep.Picked, rep.Offered = float64(top1)/n, float64(picked)/n, float64(offered)/n
	}
	if picked > 0 {
		rep.PickedRight = float64(pickedRight) / float64(picked)
	}
	return rep, nil
}
