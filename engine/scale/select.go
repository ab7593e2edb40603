package scale

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/llm"
)

// selectBucket picks the answer among the buckets with a result: the only
// one; else, with the tournament on, the most pairwise wins over the
// DefaultMaxBuckets largest; else (or when a selector call fails) the
// largest bucket. Ties go to the larger bucket, then a non-empty one, then
// the better strategy, then the earlier bucket. nil when every candidate
// failed.
func (s *Run[P]) selectBucket(ctx context.Context, buckets []*bucket[P]) *bucket[P] {
	var live []*bucket[P]
	for _, b := range buckets {
		if !b.err {
			live = append(live, b)
		}
	}
	switch {
	case len(live) == 0:
		s.report.Selection = "none"
		return nil
	case len(live) == 1:
		s.report.Selection = "single_bucket"
		return live[0]
	}
	byMajority(live)
	if !s.cfg.Tournament {
		s.report.Selection = "majority"
		return live[0]
	}
	top := live[:min(len(live), DefaultMaxBuckets)]
	if err := s.tournament(ctx, top); err != nil {
		for _, b := range top {
			b.wins = 0
		}
		s.report.Selection, s.report.SelectorError = "majority_selector_failed", fault.Redact(err.Error())
		return live[0]
	}
	s.report.Selection = "tournament"
	sort.SliceStable(top, func(i, j int) bool { return top[i].wins > top[j].wins })
	return top[0]
}

// byMajority sorts buckets by size, non-empty first, best strategy, id.
func byMajority[P any](bs []*bucket[P]) {
	sort.SliceStable(bs, func(i, j int) bool {
		a, b := bs[i], bs[j]
		switch {
		case len(a.members) != len(b.members):
			return len(a.members) > len(b.members)
		case a.empty != b.empty:
			return !a.empty
		case a.bestRank() != b.bestRank():
			return a.bestRank() < b.bestRank()
		}
		return a.id < b.id
	})
}

// selectorAnswer is the selector's verdict on one pair.
type selectorAnswer struct {
	Winner string `json:"winner"`
	Reason string `json:"reason"`
}

// tournament compares every pair of bucket representatives (their first
// candidates) once, A being the earlier bucket id, and counts wins. Pair
// calls are reserved in order and run concurrently; step "select", sample
// = the pair's index in (i, j) order. Any failed or unbudgeted call fails
// the tournament.
func (s *Run[P]) tournament(ctx context.Context, top []*bucket[P]) error {
	type pair struct {
		a, b *bucket[P]
		req  llm.Request
		n    int
		win  *bucket[P]
		err  error
	}
	ordered := append([]*bucket[P](nil), top...)
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].id < ordered[j].id })
	var pairs []*pair
	for i := range ordered {
		for j := i + 1; j < len(ordered); j++ {
			a, b := ordered[i], ordered[j]
			extra := "\n[CANDIDATE A]\n" + resultPreview(a.members[0]) + "\n[CANDIDATE B]\n" + resultPreview(b.members[0])
			req := s.auxRequest("select", len(pairs), selectorSystem, "selector_answer", selectorSchema, extra)
			n, ok := s.reserve("select", &req)
			if !ok {
				return fault.Errorf(fault.CodeProvider, "raise scaling.token_budget", "the token budget could not hold every selector call")
			}
			pairs = append(pairs, &pair{a: a, b: b, req: req, n: n})
		}
	}
	s.parallel(len(pairs), func(i int) {
		p := pairs[i]
		resp, err := s.send(ctx, "select", p.req, p.n, s.selector())
		if err != nil {
			p.err = fault.Deadline(ctx, fault.Provider(err))
			return
		}
		var ans selectorAnswer
		dec := json.NewDecoder(bytes.NewReader(resp.Content))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ans); err != nil || (ans.Winner != "A" && ans.Winner != "B") {
			p.err = fault.Errorf(fault.CodeProvider, "check the selector model (llm.select)", "the selector's answer is not {\"winner\": \"A\"|\"B\"}: %s", resp.Content)
			return
		}
		p.win = map[string]*bucket[P]{"A": p.a, "B": p.b}[ans.Winner]
	})
	var errs []error
	for _, p := range pairs {
		if p.err != nil {
			errs = append(errs, fmt.Errorf("pair %d: %w", p.req.Sample, p.err))
			continue
		}
		p.win.wins++
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return nil
}

// selector is the model that compares candidates: Deps.Selector, else
// the planner.
func (s *Run[P]) selector() Model {
	if s.deps.Selector != nil {
		return s.deps.Selector
	}
	return s.deps.Planner
}
