package scale

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/llm"
)

// CritiqueReport is one critique of a bucket's representative: the verdict,
// an error class from a closed set (wrong_join, missing_filter,
// wrong_aggregation, value_mismatch, evidence_ignored, other, none) and a
// fix hint; Revision is the index of the candidate it produced (-1: none).
type CritiqueReport struct {
	Pass       int    `json:"pass"`
	Bucket     int    `json:"bucket"`
	Candidate  int    `json:"candidate"`
	Verdict    string `json:"verdict"`
	ErrorClass string `json:"error_class"`
	FixHint    string `json:"fix_hint"`
	Revision   int    `json:"revision"`
	Error      string `json:"error,omitempty"`
}

// refine runs one critique pass: every bucket with a result not critiqued
// before gets one critique of its first candidate (step "critique", sample
// = the critique's index in the report); each "incorrect" verdict yields a
// revision candidate (step "plan_revise", sample = the revision's index)
// that the caller generates, executes and buckets with the rest.
func (s *Run[P]) refine(ctx context.Context, cands []*cand[P], pass int) []*cand[P] {
	critiqued := map[string]bool{}
	for _, cr := range s.report.Critiques {
		critiqued[cands[cr.Candidate].hash] = true
	}
	type job struct {
		c   *cand[P]
		cr  CritiqueReport
		req llm.Request
		n   int
	}
	var jobs []*job
	for _, b := range bucketize(cands) {
		rep := b.members[0]
		if b.err || critiqued[rep.hash] {
			continue
		}
		critiqued[rep.hash] = true
		req := s.auxRequest("critique", len(s.report.Critiques)+len(jobs), critiqueSystem, "critique_answer", critiqueSchema,
			"\n[CANDIDATE]\n"+resultPreview(rep))
		n, ok := s.reserve("critique", &req)
		if !ok {
			break
		}
		jobs = append(jobs, &job{c: rep, req: req, n: n, cr: CritiqueReport{Pass: pass, Bucket: b.id, Candidate: rep.idx, Revision: -1}})
	}
	s.parallel(len(jobs), func(i int) {
		j := jobs[i]
		resp, err := s.send(ctx, "critique", j.req, j.n, s.selector())
		if err != nil {
			j.cr.Error = fault.AsError(fault.Deadline(ctx, fault.Provider(err))).Msg
			return
		}
		var ans struct {
			Verdict    string `json:"verdict"`
			ErrorClass string `json:"error_class"`
			FixHint    string `json:"fix_hint"`
		}
		dec := json.NewDecoder(bytes.NewReader(resp.Content))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ans); err != nil || !slices.Contains(critiqueClasses, ans.ErrorClass) ||
			(ans.Verdict != "correct" && ans.Verdict != "incorrect") {
			j.cr.Error = "the critique is not {verdict, error_class, fix_hint} with a known error class"
			return
		}
		j.cr.Verdict, j.cr.ErrorClass, j.cr.FixHint = ans.Verdict, ans.ErrorClass, ans.FixHint
	})
	var revs []*cand[P]
	revisions := 0
	for _, c := range cands {
		if c.strategy == StrategyRevision {
			revisions++
		}
	}
	for _, j := range jobs {
		if j.cr.Error == "" && j.cr.Verdict == "incorrect" {
			rv := &cand[P]{idx: len(cands) + len(revs), strategy: StrategyRevision, sample: revisions + len(revs),
				revise: revisionBlock(j.c.sql, j.cr)}
			j.cr.Revision = rv.idx
			revs = append(revs, rv)
		}
		s.report.Critiques = append(s.report.Critiques, j.cr)
	}
	return revs
}
