package index

import (
	"math"
)

// Evidence kinds: what ties a retrieved table to the question.
const (
	EvidenceText    = "text"    // BM25: a word of the question in a name, comment or sample of the table or its columns
	EvidenceValue   = "value"   // a stored value of a column spelled in the question
	EvidenceMention = "mention" // the question spells out a multi-word or identifier-like name
	EvidenceVector  = "vector"  // a document's embedding stands out from the rest (see vectorOutliers)
)

// annotate sets each kept table's Score (its best document's fused score)
// and Evidence. The rule for "relevant" is read from the signals, not
// tuned to a schema: BM25 lists only documents that share an analysed
// word with the question, value and mention hits are exact matches, so
// any of these is evidence; the vector ranking scores every document (a
// full scan), so a similarity counts only when it stands out from the
// document population (vectorOutliers). A table with no evidence was kept
// by rank alone (fill, or a bridge to join others).
func (ix *Index) annotate(sel *Selection, r *rankings) {
	byTable := map[int][]string{}
	add := func(list []ranked, kind string) {
		seen := map[int]bool{}
		for _, x := range list {
			t := ix.docs[x.doc].table
			if !seen[t] {
				seen[t] = true
				byTable[t] = append(byTable[t], kind)
			}
		}
	}
	add(r.lexical, EvidenceText)
	add(r.values, EvidenceValue)
	add(r.mentions, EvidenceMention)
	add(vectorOutliers(r.vector), EvidenceVector)
	best := map[int]float64{}
	for _, x := range r.fused {
		t := ix.docs[x.doc].table
		if x.score > best[t] {
			best[t] = x.score
		}
	}
	index := map[[2]string]int{}
	for i, t := range ix.snap.Tables {
		index[[2]string{t.Schema, t.Name}] = i
	}
	for i := range sel.Tables {
		t := index[[2]string{sel.Tables[i].Schema, sel.Tables[i].Name}]
		sel.Tables[i].Score = math.Round(best[t]*1e6) / 1e6
		sel.Tables[i].Evidence = byTable[t]
	}
}

// Relevant reports whether any selected table has evidence of matching
// the question (annotate); a selection without is the top of a ranking of
// unrelated tables.
func (s *Selection) Relevant() bool {
	for _, t := range s.Tables {
		if len(t.Evidence) > 0 {
			return true
		}
	}
	return len(s.Values) > 0
}

// vectorOutliers are the documents whose similarity to the question is
// more than four standard deviations above the mean over all documents:
// an embedding that stands out from the population, whatever the
// embedder's scale (cosines of a character n-gram embedder and of a
// sentence model differ in level, not in this). Fewer than 8 documents
// give no estimate and no outliers.
func vectorOutliers(vec []ranked) []ranked {
	if len(vec) < 8 {
		return nil
	}
	var sum, sq float64
	for _, x := range vec {
		sum += x.score
	}
	mean := sum / float64(len(vec))
	for _, x := range vec {
		sq += (x.score - mean) * (x.score - mean)
	}
	sd := math.Sqrt(sq / float64(len(vec)))
	if sd == 0 {
		return nil
	}
	var out []ranked
	for _, x := range vec { // best first
		if x.score <= mean+4*sd {
			break
		}
		out = append(out, x)
	}
	return out
}
