package scale

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/internal/source"
)

// bucket is a group of candidates whose results hash alike.
type bucket[P any] struct {
	id      int
	hash    string
	members []*cand[P] // in candidate order
	rows    int
	empty   bool
	err     bool
	wins    int
}

// BucketReport is one execution bucket: the candidates whose results are
// equal under the canonical hash, the strategies that agreed, and flags for
// an empty result and for the error bucket (candidates without a result).
type BucketReport struct {
	ID         int      `json:"id"`
	Hash       string   `json:"hash"`
	Size       int      `json:"size"`
	Candidates []int    `json:"candidates"`
	Strategies []string `json:"strategies"`
	RowCount   int      `json:"row_count"`
	Empty      bool     `json:"empty,omitempty"`
	Error      bool     `json:"error,omitempty"`
	Wins       int      `json:"wins,omitempty"`
}

// floatDigits is how many significant digits floats keep in the hash, so
// 0.1+0.2 and 0.3, or two databases' rounding of one average, agree.
const floatDigits = 10

// timestampLayouts are the text forms of timestamps the hash normalises to
// RFC 3339 in UTC, so "2025-01-02 03:04:05" and "2025-01-02T03:04:05Z" agree.
var timestampLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999"}

// canonicalValue is the hash form of one result value: NULL as the explicit
// token null, integers and integral floats as integers, other floats at
// floatDigits significant digits, timestamps in RFC 3339 UTC, and the rest
// as JSON.
func canonicalValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case int64:
		return strconv.FormatInt(x, 10)
	case json.Number: // a decimal at its engine's scale: 349.00 and 349 agree
		if f, err := x.Float64(); err == nil {
			return canonicalValue(f)
		}
		return string(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', floatDigits, 64)
	case time.Time:
		return `"` + x.UTC().Format(time.RFC3339Nano) + `"`
	case string:
		if len(x) >= 19 && x[4] == '-' && x[7] == '-' {
			for _, l := range timestampLayouts {
				if t, err := time.Parse(l, x); err == nil {
					return `"` + t.UTC().Format(time.RFC3339Nano) + `"`
				}
			}
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// resultHash is the canonical hash of a result: each row's values in
// column order (column names do not count), rows sorted, so two plans that
// return the same rows in another order or under other aliases agree.
func resultHash(res *source.Result) string {
	rows := make([]string, len(res.Rows))
	for i, row := range res.Rows {
		vals := make([]string, len(row))
		for j, v := range row {
			vals[j] = canonicalValue(v)
		}
		rows[i] = "[" + strings.Join(vals, ",") + "]"
	}
	sort.Strings(rows)
	h := sha256.New()
	h.Write([]byte(strconv.Itoa(len(res.Columns)) + "\n"))
	for _, r := range rows {
		h.Write([]byte(r + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// bucketize groups executed candidates by hash, buckets in order of their
// first candidate, and puts every candidate without a result in a final
// error bucket.
func bucketize[P any](cands []*cand[P]) []*bucket[P] {
	var out []*bucket[P]
	byHash := map[string]*bucket[P]{}
	var errB *bucket[P]
	for _, c := range cands {
		if c.rows == nil {
			if errB == nil {
				errB = &bucket[P]{hash: "error", err: true}
			}
			errB.members = append(errB.members, c)
			continue
		}
		b, ok := byHash[c.hash]
		if !ok {
			b = &bucket[P]{id: len(out), hash: c.hash, rows: len(c.rows.Rows), empty: len(c.rows.Rows) == 0}
			byHash[c.hash] = b
			out = append(out, b)
		}
		b.members = append(b.members, c)
	}
	if errB != nil {
		errB.id = len(out)
		out = append(out, errB)
	}
	for _, b := range out {
		for _, c := range b.members {
			c.bucket = b.id
		}
	}
	return out
}

// bucketReports describes the buckets for the report.
func bucketReports[P any](bs []*bucket[P]) []BucketReport {
	out := make([]BucketReport, 0, len(bs))
	for _, b := range bs {
		r := BucketReport{ID: b.id, Hash: b.hash, Size: len(b.members), RowCount: b.rows, Empty: b.empty, Error: b.err, Wins: b.wins,
			Candidates: []int{}, Strategies: []string{}}
		seen := map[string]bool{}
		for _, c := range b.members {
			r.Candidates = append(r.Candidates, c.idx)
			if !seen[c.strategy] {
				seen[c.strategy] = true
				r.Strategies = append(r.Strategies, c.strategy)
			}
		}
		out = append(out, r)
	}
	return out
}

// candidateReports describes the candidates for the report.
func candidateReports[P any](cands []*cand[P]) []CandidateReport {
	out := make([]CandidateReport, 0, len(cands))
	for _, c := range cands {
		r := CandidateReport{Index: c.idx, Strategy: c.strategy, Sample: c.sample, Attempts: c.attempts, SQL: c.sql, Bucket: c.bucket}
		if c.rows != nil {
			r.RowCount = len(c.rows.Rows)
		}
		if c.err != nil {
			r.Error = fault.AsError(c.err).Msg
		}
		out = append(out, r)
	}
	return out
}

// bestRank is the rank of a bucket's best strategy (strategyOrder).
func (b *bucket[P]) bestRank() int {
	best := len(strategyOrder)
	for _, c := range b.members {
		best = min(best, strategyOrder[c.strategy])
	}
	return best
}
