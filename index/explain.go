package index

import (
	"context"
	"errors"
)

// Ranked is one document of the fused ranking, for traces and tuning: a
// table (Column empty) or a column, its fused score and its 1-based rank in
// each input ranking (0: not in that ranking).
type Ranked struct {
	Schema     string  `json:"schema"`
	Table      string  `json:"table"`
	Column     string  `json:"column,omitempty"`
	Score      float64 `json:"score"`
	BM25Rank   int     `json:"bm25_rank,omitempty"`
	VectorRank int     `json:"vector_rank,omitempty"`
	ValueRank  int     `json:"value_rank,omitempty"`
	// MentionRank is the rank among documents whose name the question
	// spells out.
	MentionRank int `json:"mention_rank,omitempty"`
	// Reference is true for a column that joins another table and is not
	// its table's primary key; it does not rank its own table.
	Reference bool `json:"reference,omitempty"`
}

// Explain returns the fused ranking Retrieve selects from (allowed
// documents only), best first. It ignores the whole-schema rule.
func (ix *Index) Explain(ctx context.Context, question string, allow Allow) ([]Ranked, error) {
	if ix == nil || ix.text == nil {
		return nil, errors.New("index: Explain on a closed or nil index")
	}
	r, err := ix.rank(ctx, question, ix.access(allow))
	if err != nil {
		return nil, err
	}
	pos := func(l []ranked) map[int]int {
		m := map[int]int{}
		for i, x := range l {
			m[x.doc] = i + 1
		}
		return m
	}
	lp, vp, xp, mp := pos(r.lexical), pos(r.vector), pos(r.values), pos(r.mentions)
	out := make([]Ranked, 0, len(r.fused))
	for _, f := range r.fused {
		d := ix.docs[f.doc]
		t := ix.snap.Tables[d.table]
		x := Ranked{Schema: t.Schema, Table: t.Name, Score: f.score, BM25Rank: lp[f.doc], VectorRank: vp[f.doc], ValueRank: xp[f.doc], MentionRank: mp[f.doc]}
		if d.col >= 0 {
			x.Column = t.Columns[d.col].Name
			x.Reference = ix.refCol[d.table][d.col]
		}
		out = append(out, x)
	}
	return out, nil
}
