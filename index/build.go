package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/nl2sql/nl2sql/index/joins"
	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/index/values"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// Options configure Build. The zero value indexes names, comments and
// profile sample values with the defaults below.
type Options struct {
	// Values, when set, supplies every distinct value of text columns with
	// at most MaxDistinctValues distinct values (per the profile; columns
	// without a profile are asked too, capped at that many), so literals
	// outside the profile's five most frequent values can be matched. When
	// nil only the profile's SampleValues are indexed.
	Values values.Source
	// MaxDistinctValues bounds the values fetched per column; ≤ 0 means
	// DefaultMaxDistinctValues.
	MaxDistinctValues int
	// MaxTotalValues bounds the values fetched over all columns, fewest
	// distinct first (values longer than MaxValueLen are dropped as they
	// arrive and not counted); ≤ 0 means DefaultMaxTotalValues. An indexed value
	// costs about 4 KiB of memory while the index is built.
	MaxTotalValues int
	// MaxValueLen skips longer values (in bytes): free text is not a
	// literal anyone types. ≤ 0 means DefaultMaxValueLen.
	MaxValueLen int
	// Tuning is the selection policy; the zero value means DefaultTuning.
	Tuning Tuning
	// EmbedBatch is how many texts go to the embedder per call; ≤ 0 means
	// 128.
	EmbedBatch int
	// Progress, when set, is told how far a build got.
	Progress Progress
	// Fingerprint, when set, is the snapshot's Fingerprint, which the
	// caller knows already (the stored version it loaded): IndexKey then
	// does not hash a large snapshot again. It must be exactly that.
	Fingerprint string
	// Prefetched, when set, is the stored index StartPrefetch began
	// reading: OpenOrBuild uses it when it is the one wanted.
	Prefetched *Prefetch
}

// Defaults of Options.
const (
	DefaultMaxDistinctValues = 10000
	DefaultMaxTotalValues    = 100000
	DefaultMaxValueLen       = 80
)

func (o Options) withDefaults() Options {
	if o.MaxDistinctValues <= 0 {
		o.MaxDistinctValues = DefaultMaxDistinctValues
	}
	if o.MaxTotalValues <= 0 {
		o.MaxTotalValues = DefaultMaxTotalValues
	}
	if o.MaxValueLen <= 0 {
		o.MaxValueLen = DefaultMaxValueLen
	}
	return o
}

// Index is the retrieval index of one snapshot: a bleve (scorch, in
// memory) full-text index over table and column documents, one vector per
// document, a bleve index over column values, and the join graph. It is
// immutable after Build and safe for concurrent Retrieve calls. Close
// releases the bleve indexes.
type Index struct {
	snap   *schema.Snapshot
	emb    Embedder
	opts   Options
	docs   []doc    // sorted by id
	vecs   []vector // vecs[i] embeds docs[i], unit length
	dims   int      // length of the embedder's vectors
	byID   map[string]int
	text   bleve.Index    // schema documents
	vals   *values.Index  // value documents
	graph  [][]joins.Edge // per table (snap order), sorted by (to, columns)
	keys   [][]int        // per table, its primary-key columns (declared or inferred)
	refCol [][]bool       // per table and column: joins another table and is not the primary key
	names  names          // the words of table and column names
	// inferred is true when the snapshot declares no foreign keys and the
	// graph holds inferred join keys (see joins.Graph).
	inferred    bool
	wholeTokens int // schemactx.SchemaTokens(snap): ContextTokens(SchemaContext(snap))
	closeOnce   sync.Once
	// Set by a build only: each vector's embedKey, and what the build
	// took from a previous index (reuse.go).
	embedKeys []string
	reused    Reused
}

// doc is one schema document: a table (col < 0) or a column.
type doc struct {
	id    string // "t/<table idx>" or "c/<table idx>/<column idx>", zero-padded
	table int    // index into snap.Tables
	col   int    // index into the table's Columns, -1 for the table itself
}

// Build indexes snap (which must not change afterwards: the index keeps
// it). It embeds one text per table and per column with emb (nil means
// NGram{}), fetches column values through opts.Values, and renders the
// whole schema once to count its tokens. The bleve indexes live in memory;
// OpenOrBuild (persist.go) builds them on disk and reuses them. Errors: the
// embedder's, the value source's (wrapped with the column), ctx's.
func Build(ctx context.Context, snap *schema.Snapshot, emb Embedder, opts Options) (*Index, error) {
	if snap == nil {
		return nil, errors.New("index: nil snapshot")
	}
	tokens := countTokens(snap) // before tightGC (wholeTokens)
	defer tightGC()()
	return build(ctx, snap, emb, opts, "", nil, tokens)
}

// A build's callers count the whole schema's tokens (wholeTokens, the
// Index field) before they tighten the GC (gc.go): the tokenizer
// allocates about 250 MB on 2,000 tables that dies at once (a few objects
// per piece it matches), over the small live heap of the snapshot alone.
// At countGCPercent that garbage costs a few collections; inside the
// build, at buildGCPercent, it cost dozens of them over the build's
// larger heap.
func countTokens(snap *schema.Snapshot) int {
	defer countGC()()
	return schemaTokens(snap)
}

var schemaTokens = schemactx.SchemaTokens // a test watches when it runs

// Progress is told how far a build got: stage "tables" (schema documents
// indexed and embedded, table by table) then "values" (columns whose
// values were fetched), done of total. It must not block.
type Progress func(stage string, done, total int)

// tablesPerBatch is how many tables' documents go to bleve in one batch:
// one batch of a 2,000-table schema builds one huge in-memory segment
// (gigabytes of garbage); small batches keep memory flat.
const tablesPerBatch = 100

// build is Build with the bleve indexes under dir ("" keeps them in
// memory); tokens is schemactx.SchemaTokens(snap).
func build(ctx context.Context, snap *schema.Snapshot, emb Embedder, opts Options, dir string, p *prior, tokens int) (*Index, error) {
	if snap == nil {
		return nil, errors.New("index: nil snapshot")
	}
	if emb == nil {
		emb = NGram{}
	}
	opts = opts.withDefaults()
	if p != nil && dir == "" {
		p = nil // only a stored build has a previous index
	}
	ix := &Index{snap: snap, emb: emb, opts: opts}
	ix.setDocs()
	var err error
	if ix.text, err = newBleve(textMapping(), subdir(dir, textDir)); err != nil {
		return nil, err
	}
	if err := ix.indexDocs(ctx, p); err != nil {
		ix.Close()
		if errors.Is(err, errPriorDims) && os.RemoveAll(subdir(dir, textDir)) == nil {
			return build(ctx, snap, emb, opts, dir, &prior{fetched: p.fetched}, tokens)
		}
		return nil, err
	}
	vo := values.Options{Source: opts.Values, MaxDistinct: opts.MaxDistinctValues, MaxTotal: opts.MaxTotalValues, MaxLen: opts.MaxValueLen}
	if p != nil {
		vo.Prior = p.fetched
	}
	if opts.Progress != nil {
		vo.Progress = func(done, total int) { opts.Progress("values", done, total) }
	}
	if ix.vals, err = values.Build(ctx, snap, vo, subdir(dir, valuesDir)); err != nil {
		ix.Close()
		return nil, err
	}
	ix.derive()
	ix.wholeTokens = tokens
	return ix, nil
}

// setDocs makes the schema documents and their id lookup. The documents
// carry only their id, table and column: retrieval reads no more, an
// index opened from storage has its texts in bleve and its vectors
// already, and a build makes the texts a batch at a time (withText).
func (ix *Index) setDocs() {
	ix.docs = schemaDocs(ix.snap)
	ix.byID = make(map[string]int, len(ix.docs))
	for i, d := range ix.docs {
		ix.byID[d.id] = i
	}
}

// derive computes what the snapshot alone determines: the join graph, the
// keys and the referencing columns.
func (ix *Index) derive() {
	ix.graph, ix.keys, ix.inferred = joins.Graph(ix.snap)
	ix.refCol = joins.Referencing(ix.snap, ix.graph, ix.keys)
	ix.names = nameWords(ix.snap.Tables)
}

// indexDocs adds the schema documents to the text index and embeds them,
// tablesPerBatch tables at a time (docs are sorted by table), reporting
// each batch to opts.Progress. A text whose vector p holds is not
// embedded again.
func (ix *Index) indexDocs(ctx context.Context, p *prior) error {
	ix.vecs = make([]vector, 0, len(ix.docs))
	ix.embedKeys = make([]string, 0, len(ix.docs))
	total := len(ix.snap.Tables)
	name := ix.emb.Name()
	for start := 0; start < len(ix.docs); {
		end := start
		for end < len(ix.docs) && ix.docs[end].table < ix.docs[start].table+tablesPerBatch {
			end++
		}
		b := ix.text.NewBatch()
		var texts []string
		vecs := make([]vector, end-start)
		var todo []int // positions in vecs still to embed
		tw := tableWords{table: -1}
		for i, d := range ix.docs[start:end] {
			td, embed := withText(ix.snap, d, &tw)
			if err := b.Index(d.id, td); err != nil {
				return fmt.Errorf("index: %w", err)
			}
			k := embedKey(name, embed)
			ix.embedKeys = append(ix.embedKeys, k)
			if v, ok := p.vector(k); ok {
				vecs[i] = v
				ix.reused.Vectors++
				continue
			}
			todo = append(todo, i)
			texts = append(texts, embed)
		}
		if err := ix.text.Batch(b); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		vs, dims, err := embedVectors(ctx, ix.emb, texts, ix.opts.EmbedBatch)
		if err != nil {
			return err
		}
		if len(vs) > 0 {
			if ix.dims == 0 {
				ix.dims = dims
			} else if dims != ix.dims {
				return fmt.Errorf("embed with %s: vectors of %d and %d dimensions", ix.emb.Name(), ix.dims, dims)
			}
			if p != nil && len(p.vecs) > 0 && dims != p.dims {
				return errPriorDims
			}
		}
		for k, v := range vs {
			vecs[todo[k]] = v
		}
		ix.vecs = append(ix.vecs, vecs...)
		if ix.opts.Progress != nil {
			ix.opts.Progress("tables", min(ix.docs[end-1].table+1, total), total)
		}
		start = end
	}
	if ix.dims == 0 && p != nil {
		ix.dims = p.dims // every vector was reused
	}
	return ctx.Err()
}

// Close releases the full-text indexes; closing again does nothing.
func (ix *Index) Close() error {
	var errs []error
	ix.closeOnce.Do(func() {
		if ix.text != nil {
			errs = append(errs, ix.text.Close())
		}
		if ix.vals != nil {
			errs = append(errs, ix.vals.Close())
		}
	})
	return errors.Join(errs...)
}

// Snapshot is the snapshot the index was built from.
func (ix *Index) Snapshot() *schema.Snapshot { return ix.snap }

// Embedder is the embedder's Name.
func (ix *Index) Embedder() string { return ix.emb.Name() }

// WholeTokens is the token count of the whole snapshot's schema context.
func (ix *Index) WholeTokens() int { return ix.wholeTokens }

// JoinKeysInferred reports whether the snapshot declares no foreign keys
// and the join graph holds inferred ones (see joins.Graph).
func (ix *Index) JoinKeysInferred() bool { return ix.inferred }

// Docs is the number of schema documents and of value documents.
func (ix *Index) Docs() (schemaDocs, valueDocs int) { return len(ix.docs), len(ix.vals.Docs()) }

// newBleve creates a scorch index at path ("" keeps it in memory).
func newBleve(m mapping.IndexMapping, path string) (bleve.Index, error) {
	b, err := bleve.NewUsing(path, m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("index: open bleve: %w", err)
	}
	return b, nil
}

// textMapping: English analysis (possessives, lower case, stop words,
// Porter stems) on every field, BM25 scoring. No "_all" field: every
// search names its field, and bleve built an empty one per document.
func textMapping() mapping.IndexMapping {
	m := bleve.NewIndexMapping()
	m.ScoringModel = bindex.BM25Scoring
	m.DefaultAnalyzer = en.AnalyzerName
	dm := bleve.NewDocumentStaticMapping()
	for _, f := range []string{"name", "table", "text", "cols", "samples"} {
		fm := bleve.NewTextFieldMapping()
		fm.Analyzer = en.AnalyzerName
		fm.Store = false
		fm.IncludeInAll = false
		fm.IncludeTermVectors = false
		dm.AddFieldMappingsAt(f, fm)
	}
	dm.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping())
	m.DefaultMapping = dm
	return m
}

// textDoc is what bleve maps of a schema document: the fields
// textMapping analyses (a struct rather than a map, which cost a few
// hundred bytes per document).
type textDoc struct {
	Name    string `json:"name"`
	Table   string `json:"table"`
	Text    string `json:"text"`
	Cols    string `json:"cols"`
	Samples string `json:"samples"`
}

// schemaDocs builds one document per table and column, sorted by id,
// with their ids, tables and columns; withText makes a document's texts.
func schemaDocs(snap *schema.Snapshot) []doc {
	n := len(snap.Tables)
	for _, t := range snap.Tables {
		n += len(t.Columns)
	}
	docs := make([]doc, 0, n)
	for ti, t := range snap.Tables {
		docs = append(docs, doc{id: fmt.Sprintf("t/%05d", ti), table: ti, col: -1})
		for ci := range t.Columns {
			docs = append(docs, doc{id: fmt.Sprintf("c/%05d/%05d", ti, ci), table: ti, col: ci})
		}
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].id < docs[j].id })
	return docs
}

// tableWords are one table's name and column names split into words
// (lex.SplitName), kept while its documents are made.
type tableWords struct {
	table int // -1 before the first
	name  string
	cols  []string
}

// withText is d's full-text fields and the text embedded: a table
// document holds its split name, comment and columns' names, a column
// document its split name, its table's, its comment and up to ten
// samples. A build makes them a batch at a time, so only one batch's
// texts are held (the documents keep only their ids, tables and
// columns); tw keeps the words of the last table asked.
func withText(snap *schema.Snapshot, d doc, tw *tableWords) (textDoc, string) {
	t := &snap.Tables[d.table]
	if tw.table != d.table {
		tw.table, tw.name, tw.cols = d.table, lex.SplitName(t.Name), make([]string, len(t.Columns))
		for ci, c := range t.Columns {
			tw.cols[ci] = lex.SplitName(c.Name)
		}
	}
	if d.col < 0 {
		return textDoc{Name: tw.name, Text: t.Comment, Cols: strings.Join(tw.cols, " ")},
			joinNonEmpty(". ", "table "+tw.name, t.Comment)
	}
	c := t.Columns[d.col]
	samples := values.Samples(c)
	if len(samples) > 10 {
		samples = samples[:10]
	}
	return textDoc{Name: tw.cols[d.col], Table: tw.name, Text: c.Comment, Samples: strings.Join(samples, " ")},
		joinNonEmpty(". ", tw.cols[d.col]+" of "+tw.name, c.Comment)
}

// subdir is dir/name, or "" (in memory) when dir is "".
func subdir(dir, name string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, name)
}
