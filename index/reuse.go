package index

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nl2sql/nl2sql/index/datafile"
)

// A build reuses what the datasource's previous index (another key in the
// same directory: the snapshot changed) already derived and that does not
// depend on what changed: each column's values fetched from the database
// (index/values: reuse.go says when a column counts as unchanged) and the
// vector of each embedded text (a remote embedder is a network call per
// batch). The text indexes themselves are rebuilt from the documents, which
// is quick. A build with nothing to reuse, or whose previous index is
// unreadable, builds everything, with the same result.

// prior is the reusable part of a previous index.
type prior struct {
	fetched map[string][]string // values.Index.Fetched of the previous build
	vecs    map[string]vector   // embedKey → vector
	dims    int                 // the length of the embedder's vectors then
}

// vector is the previous index's vector of the text with embedKey k.
func (p *prior) vector(k string) (vector, bool) {
	if p == nil {
		return vector{}, false
	}
	v, ok := p.vecs[k]
	return v, ok
}

// errPriorDims: the embedder's vectors now have another length than the
// previous index's, so none of those can be mixed with new ones.
var errPriorDims = errors.New("index: the previous index's vectors have another length")

// reuseRecord is the data file's last section: what a later build may
// reuse. Opening an index for retrieval never reads it.
type reuseRecord struct {
	Embedder  string              `json:"embedder"`
	Dims      int                 `json:"dims"`
	EmbedKeys []string            `json:"embed_keys"` // per vector, in document order
	Fetched   map[string][]string `json:"fetched"`
}

// embedKey names one embedded text under one embedder.
func embedKey(embedder, text string) string {
	sum := sha256.Sum256([]byte(embedder + "\x00" + text))
	return hex.EncodeToString(sum[:16])
}

// Reused says what a build took from the previous index.
type Reused struct {
	Columns int // columns whose values were not read from the database again
	Vectors int // documents whose text was not embedded again
}

// loadPrior reads the reusable part of the newest other index under dir
// built by the same format and embedder; nil when there is none or it is
// unreadable (the build then derives everything).
func loadPrior(dir, key string, emb Embedder) *prior {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var best string
	var bestMod int64
	for _, e := range ents {
		if !e.IsDir() || e.Name() == key || strings.HasPrefix(e.Name(), buildPrefix) {
			continue
		}
		info, err := os.Stat(filepath.Join(dir, e.Name(), metaFile))
		if err != nil {
			continue
		}
		if m := info.ModTime().UnixNano(); best == "" || m > bestMod {
			best, bestMod = e.Name(), m
		}
	}
	if best == "" {
		return nil
	}
	rec, err := readReuse(filepath.Join(dir, best))
	if err != nil || rec.Embedder != emb.Name() {
		return nil
	}
	p := &prior{fetched: rec.Fetched, vecs: map[string]vector{}, dims: rec.Dims}
	st, err := readStored(filepath.Join(dir, best))
	if err != nil || len(st.Vecs) != len(rec.EmbedKeys) || st.Dims != rec.Dims {
		return &prior{fetched: rec.Fetched}
	}
	for i, k := range rec.EmbedKeys {
		p.vecs[k] = st.Vecs[i]
	}
	return p
}

// readStored reads and checks the data file of the index in dir.
func readStored(dir string) (*datafile.File, error) {
	data, _, err := readData(dir)
	if err != nil {
		return nil, err
	}
	return datafile.Decode(data, persistFormat)
}

// readReuse reads the reuse section of the index in dir.
func readReuse(dir string) (*reuseRecord, error) {
	data, _, err := readData(dir)
	if err != nil {
		return nil, err
	}
	raw, err := datafile.ReuseSection(data)
	if err != nil {
		return nil, err
	}
	var rec reuseRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reuse section: %w", err)
	}
	return &rec, nil
}
