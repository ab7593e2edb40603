package index

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/nl2sql/nl2sql/index/datafile"
	"github.com/nl2sql/nl2sql/index/values"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// Persisted layout. OpenOrBuild keeps one index per key under its
// directory:
//
//	<dir>/<key>/text/      bleve (scorch) index of the schema documents
//	<dir>/<key>/values/    bleve index of the column values
//	<dir>/<key>/data.bin   vectors, value documents, whole-schema tokens
//	                       (persist_data.go)
//	<dir>/<key>/index.json format, key, counts and data.bin's SHA-256,
//	                       written last: without it the directory is
//	                       not an index
//
// A build writes to <dir>/.build-<key>-<random>/ and renames it to
// <dir>/<key> when complete, so a build killed half-way leaves only a
// temporary directory (removed by the next build) and whatever index was
// there before.
const (
	textDir     = "text"
	valuesDir   = "values"
	dataFile    = "data.bin"
	metaFile    = "index.json"
	buildPrefix = ".build-"
)

// persistFormat changes whenever the stored form or what Build derives
// changes, so an index written by another version is rebuilt, not misread.
const persistFormat = 4

// IndexKey is the key a snapshot's index is stored under: a hash of the
// snapshot's fingerprint (schema and profile), the embedder's name, the
// options that change what is indexed, and the stored format.
func IndexKey(snap *schema.Snapshot, emb Embedder, opts Options) string {
	if emb == nil {
		emb = NGram{}
	}
	o := opts.withDefaults()
	fp := o.Fingerprint
	if fp == "" {
		fp = snap.Fingerprint()
	}
	h := sha256.New()
	fmt.Fprintf(h, "format=%d\nsnapshot=%s\nembedder=%s\nvalues=%t\nmaxDistinct=%d\nmaxTotal=%d\nmaxLen=%d\n",
		persistFormat, fp, emb.Name(), o.Values != nil, o.MaxDistinctValues, o.MaxTotalValues, o.MaxValueLen)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// Opened says how OpenOrBuild got its index.
type Opened struct {
	Built bool   // built now (nothing usable was stored)
	Path  string // the index's directory
	// Rebuilt names why a stored index of the same key was not used
	// (unreadable or inconsistent: it was replaced); "" otherwise.
	Rebuilt string
	// Reused is what a build took from the datasource's previous index
	// (reuse.go).
	Reused Reused
}

type meta struct {
	Format int    `json:"format"`
	Key    string `json:"key"`
	Docs   int    `json:"docs"`
	Values int    `json:"values"`
	SHA256 string `json:"data_sha256"`
}

// OpenOrBuild opens the stored index of snap under dir, or builds it there
// and stores it when there is none (or it is unreadable: Opened.Rebuilt
// says why). Other keys' indexes and leftover temporary directories under
// dir are removed after a build. The returned index opens its bleve
// indexes read-only, so processes sharing dir never lock each other out.
func OpenOrBuild(ctx context.Context, dir string, snap *schema.Snapshot, emb Embedder, opts Options) (*Index, Opened, error) {
	if snap == nil {
		return nil, Opened{}, errors.New("index: nil snapshot")
	}
	if emb == nil {
		emb = NGram{}
	}
	key := IndexKey(snap, emb, opts)
	final := filepath.Join(dir, key)
	op := Opened{Path: final}
	var ix *Index
	var err error
	if p := opts.Prefetched.take(dir, key); p != nil {
		ix, err = p.attach(snap, emb, opts)
	} else {
		ix, err = openStored(final, key, snap, emb, opts)
	}
	if err == nil {
		return ix, op, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		op.Rebuilt = err.Error()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, op, fmt.Errorf("index: %w", err)
	}
	tokens := countTokens(snap) // before tightGC (wholeTokens)
	defer tightGC()()           // the build, and reading back what it stored
	tmp := filepath.Join(dir, buildPrefix+key+"-"+randomSuffix())
	reused, err := buildStored(ctx, tmp, key, snap, emb, opts, loadPrior(dir, key, emb), tokens)
	op.Reused = reused
	if err != nil {
		os.RemoveAll(tmp)
		return nil, op, err
	}
	if op.Rebuilt != "" {
		if err := os.RemoveAll(final); err != nil {
			os.RemoveAll(tmp)
			return nil, op, fmt.Errorf("index: remove unreadable index: %w", err)
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		// another process stored the same key meanwhile: use theirs
		os.RemoveAll(tmp)
	}
	op.Built = true
	removeOthers(dir, key)
	ix, err = openStored(final, key, snap, emb, opts)
	if err != nil {
		return nil, op, err
	}
	return ix, op, nil
}

// buildStored builds the index of snap in dir and writes its data and,
// last, its index.json; tokens is schemactx.SchemaTokens(snap).
func buildStored(ctx context.Context, dir, key string, snap *schema.Snapshot, emb Embedder, opts Options, p *prior, tokens int) (Reused, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Reused{}, fmt.Errorf("index: %w", err)
	}
	ix, err := build(ctx, snap, emb, opts, dir, p, tokens)
	if err != nil {
		return Reused{}, err
	}
	reused := ix.reused
	reused.Columns = ix.vals.Reused()
	vs := ix.vals.Docs()
	reuse, err := json.Marshal(reuseRecord{Embedder: emb.Name(), Dims: ix.dims, EmbedKeys: ix.embedKeys, Fetched: ix.vals.Fetched()})
	if err != nil {
		return reused, fmt.Errorf("index: encode: %w", err)
	}
	st := datafile.File{Vecs: ix.vecs, Dims: ix.dims, WholeTokens: ix.wholeTokens, Values: vs, Reuse: reuse}
	docs, values := ix.Docs()
	if err := ix.Close(); err != nil {
		return reused, fmt.Errorf("index: close: %w", err)
	}
	h := sha256.New()
	if err := writeSynced(filepath.Join(dir, dataFile), func(w io.Writer) error {
		if err := datafile.Write(io.MultiWriter(w, h), &st, persistFormat); err != nil {
			return fmt.Errorf("encode: %w", err)
		}
		return nil
	}); err != nil {
		return reused, err
	}
	m, _ := json.Marshal(meta{Format: persistFormat, Key: key, Docs: docs, Values: values, SHA256: hex.EncodeToString(h.Sum(nil))})
	return reused, writeSynced(filepath.Join(dir, metaFile), func(w io.Writer) error {
		_, err := w.Write(m)
		return err
	})
}

// openStored opens the index stored in dir and checks it against key and
// snap: fs.ErrNotExist when there is none, another error when it is
// unreadable or does not match.
func openStored(dir, key string, snap *schema.Snapshot, emb Embedder, opts Options) (*Index, error) {
	p, err := readPending(dir, key)
	if err != nil {
		return nil, err
	}
	return p.attach(snap, emb, opts)
}

// pending is a stored index read from disk (its data file decoded, its
// bleve indexes open) but not yet checked against its snapshot: the part
// of opening that needs only the key, so it can run while the snapshot is
// still being read (Prefetch).
type pending struct {
	dir        string
	m          meta
	st         *datafile.File
	text, vals bleve.Index
}

// readPending reads the index stored in dir under key: fs.ErrNotExist
// when there is none, another error when it is unreadable.
func readPending(dir, key string) (*pending, error) {
	data, m, err := readData(dir)
	if err != nil {
		return nil, err
	}
	if m.Key != key {
		return nil, fmt.Errorf("stored index %s: key %s, want %s", dir, m.Key, key)
	}
	st, err := datafile.Decode(data, persistFormat)
	if err != nil {
		return nil, fmt.Errorf("stored index %s: %s: %w", dir, dataFile, err)
	}
	p := &pending{dir: dir, m: m, st: st}
	ro := map[string]any{"read_only": true, "bolt_timeout": "5s"}
	if p.text, err = bleve.OpenUsing(filepath.Join(dir, textDir), ro); err != nil {
		return nil, fmt.Errorf("stored index %s: text: %w", dir, err)
	}
	if p.vals, err = bleve.OpenUsing(filepath.Join(dir, valuesDir), ro); err != nil {
		p.close()
		return nil, fmt.Errorf("stored index %s: values: %w", dir, err)
	}
	return p, nil
}

// close releases the bleve indexes of a pending index never attached.
func (p *pending) close() {
	for _, b := range []bleve.Index{p.text, p.vals} {
		if b != nil {
			b.Close()
		}
	}
}

// attach checks the pending index against snap and makes it the index of
// snap; on an error its bleve indexes are closed.
func (p *pending) attach(snap *schema.Snapshot, emb Embedder, opts Options) (*Index, error) {
	dir, m, st := p.dir, p.m, p.st
	ix := &Index{snap: snap, emb: emb, opts: opts.withDefaults(), vecs: st.Vecs, dims: st.Dims, wholeTokens: st.WholeTokens}
	ix.setDocs()
	if len(ix.vecs) != len(ix.docs) || m.Docs != len(ix.docs) || m.Values != len(st.Values) {
		p.close()
		return nil, fmt.Errorf("stored index %s: %d vectors and %d documents for %d schema documents", dir, len(ix.vecs), m.Docs, len(ix.docs))
	}
	vs := st.Values
	for _, v := range vs {
		if v.Table < 0 || v.Table >= len(snap.Tables) || v.Col < 0 || v.Col >= len(snap.Tables[v.Table].Columns) {
			p.close()
			return nil, fmt.Errorf("stored index %s: a value of a column the snapshot lacks", dir)
		}
	}
	ix.text = p.text
	ix.vals = values.Open(p.vals, vs)
	for _, c := range []struct {
		b    bleve.Index
		want int
	}{{ix.text, len(ix.docs)}, {p.vals, len(vs)}} {
		if n, err := c.b.DocCount(); err != nil || n != uint64(c.want) {
			ix.Close()
			return nil, fmt.Errorf("stored index %s: %d documents in bleve, want %d (%v)", dir, n, c.want, err)
		}
	}
	ix.derive()
	return ix, nil
}

// readData reads the index.json of the index in dir and its data file,
// checked against the format and checksum index.json records:
// fs.ErrNotExist when there is no index.json.
func readData(dir string) ([]byte, meta, error) {
	var m meta
	mb, err := os.ReadFile(filepath.Join(dir, metaFile))
	if err != nil {
		return nil, m, err
	}
	if err := json.Unmarshal(mb, &m); err != nil {
		return nil, m, fmt.Errorf("stored index %s: %s: %w", dir, metaFile, err)
	}
	if m.Format != persistFormat {
		return nil, m, fmt.Errorf("stored index %s: format %d, want %d", dir, m.Format, persistFormat)
	}
	data, err := os.ReadFile(filepath.Join(dir, dataFile))
	if err != nil {
		return nil, m, fmt.Errorf("stored index %s: %w", dir, err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != m.SHA256 {
		return nil, m, fmt.Errorf("stored index %s: %s does not match its checksum", dir, dataFile)
	}
	return data, m, nil
}

// removeOthers removes every entry of dir but key's index: older indexes
// of the datasource, and temporary directories of builds that were killed
// (untouched for staleBuild; a younger one may be another process's build
// still running).
func removeOthers(dir, key string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if e.Name() == key || !e.IsDir() {
			continue
		}
		if strings.HasPrefix(e.Name(), buildPrefix) {
			if info, err := e.Info(); err != nil || time.Since(info.ModTime()) < staleBuild {
				continue
			}
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// staleBuild is how long a temporary build directory stays untouched
// before it counts as left by a killed build.
var staleBuild = 10 * time.Minute

// writeSynced creates path, has write write it and syncs it to disk.
func writeSynced(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("index: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("index: %w", err)
	}
	return f.Close()
}

func randomSuffix() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
