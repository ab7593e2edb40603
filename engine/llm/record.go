package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Recorder wraps a provider and saves each answered call as a Recording in
// a directory, so that OpenReplay on that directory answers the same
// requests the same way: a replayed run gives a byte-identical engine
// result. It records answers (with their usage) and invalid answers (as
// Invalid recordings, which replay returns as *InvalidOutputError); provider
// failures are returned unrecorded. Recordings are keyed like replay (step,
// datasource, normalised intent, sample); a second answer to the same key
// replaces the first. Recordings hold no API key: only the request's
// identity, its prompt hash and the answer. It is safe for concurrent use.
type Recorder struct {
	p    Provider
	dir  string
	note string
	mu   sync.Mutex
	// names maps a file name to the key it holds, to notice two keys whose
	// slugs collide.
	names map[string]string
}

// NewRecorder records p's answers into dir, creating it if needed. note
// goes into each recording ("" for a default naming the provider).
func NewRecorder(p Provider, dir, note string) (*Recorder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("recordings directory %q: %w", filepath.Base(dir), err)
	}
	return &Recorder{p: p, dir: dir, note: note, names: map[string]string{}}, nil
}

// Dir is the directory recordings are written to.
func (r *Recorder) Dir() string { return r.dir }

// Complete calls the wrapped provider and records its answer. A failure to
// write the recording is returned as an error (a recording run that loses
// answers is worse than one that stops).
func (r *Recorder) Complete(ctx context.Context, req Request) (*Response, error) {
	resp, err := r.p.Complete(ctx, req)
	rec := &Recording{Step: req.Step, Datasource: req.Datasource, Question: req.Intent, Sample: req.Sample,
		PromptSHA256: req.PromptHash}
	var bad *InvalidOutputError
	switch {
	case err == nil:
		rec.Answer = resp.Content
		u := resp.Usage
		rec.Usage = &u
		rec.Note = r.noteFor(resp.Provider, resp.Model)
	case errors.As(err, &bad):
		text, _ := json.Marshal(bad.Content)
		rec.Answer, rec.Invalid = text, bad.Reason
		rec.Note = r.noteFor("", "")
	default:
		return nil, err
	}
	if werr := r.save(rec); werr != nil {
		return nil, fmt.Errorf("recording the answer: %w", werr)
	}
	return resp, err
}

func (r *Recorder) noteFor(provider, model string) string {
	if r.note != "" {
		return r.note
	}
	if provider == "" {
		return "Recorded by nl2sql: an answer the provider found invalid."
	}
	return fmt.Sprintf("Recorded by nl2sql from %s model %s.", provider, model)
}

// save writes rec under its canonical name, or the name plus a short hash
// of its key when another key already uses that name (slugs are cut at 80
// characters, so long questions can collide).
func (r *Recorder) save(rec *Recording) error {
	if !json.Valid(rec.Answer) {
		return fmt.Errorf("the answer is not JSON")
	}
	key := Key(rec.Step, rec.Datasource, rec.Question, rec.Sample)
	r.mu.Lock()
	defer r.mu.Unlock()
	name := FileName(rec.Step, rec.Datasource, rec.Question, rec.Sample)
	if held, ok := r.names[name]; (ok && held != key) || (!ok && r.fileHoldsOtherKey(name, key)) {
		sum := sha256.Sum256([]byte(key))
		name = strings.TrimSuffix(name, ".json") + "--" + hex.EncodeToString(sum[:4]) + ".json"
	}
	r.names[name] = key
	rec.File = name
	return Save(r.dir, rec)
}

// fileHoldsOtherKey reports whether dir already has name for another key.
func (r *Recorder) fileHoldsOtherKey(name, key string) bool {
	b, err := os.ReadFile(filepath.Join(r.dir, name))
	if err != nil {
		return false
	}
	var old Recording
	if json.Unmarshal(b, &old) != nil {
		return false
	}
	return Key(old.Step, old.Datasource, old.Question, old.Sample) != key
}
