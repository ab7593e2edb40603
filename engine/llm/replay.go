package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Recording is one recorded model answer, stored as a JSON file under the
// recordings directory, named "STEP--DATASOURCE--SLUG[--SAMPLE].json".
// It is keyed by Step, Datasource, the normalised Question and Sample, not
// by a hash of the prompt, so improving a prompt does not orphan it;
// PromptSHA256 records the prompt it answered so a test can list recordings
// whose prompt changed since.
type Recording struct {
	Step         string          `json:"step"`
	Datasource   string          `json:"datasource"`
	Question     string          `json:"question"`
	Sample       int             `json:"sample"`
	Note         string          `json:"note,omitempty"`
	PromptSHA256 string          `json:"prompt_sha256"`
	Answer       json.RawMessage `json:"answer"`
	// Usage is the token usage the provider reported (recorded runs); replay
	// returns it so that a replayed result equals the recorded one.
	Usage *Usage `json:"usage,omitempty"`
	// Invalid, when set, records an answer the provider found invalid: Answer
	// is then the raw text as a JSON string and Invalid the reason; replay
	// returns it as *InvalidOutputError so the engine repairs as it did.
	Invalid string `json:"invalid,omitempty"`
	// File is the recording's file name (not serialised).
	File string `json:"-"`
}

// Key is the lookup key of a recording or request.
func Key(step, datasource, intent string, sample int) string {
	return fmt.Sprintf("%s|%s|%s|%d", step, datasource, Normalize(intent), sample)
}

// FileName is the canonical file name for a recording.
func FileName(step, datasource, intent string, sample int) string {
	name := step + "--" + datasource + "--" + Slug(intent)
	if sample != 0 {
		name += fmt.Sprintf("--%d", sample)
	}
	return name + ".json"
}

// Replay answers requests from recordings. It never reaches a network.
type Replay struct {
	dir  string
	recs map[string]*Recording
}

// NoRecordingError is returned when no recording matches a request. Nearest
// is the closest recorded question for the same step and datasource ("" if
// there is none).
type NoRecordingError struct {
	Step, Datasource, Intent string
	Sample                   int
	Nearest                  string
}

func (e *NoRecordingError) Error() string {
	msg := fmt.Sprintf("no recorded %s answer for %q on datasource %q (sample %d)", e.Step, e.Intent, e.Datasource, e.Sample)
	if e.Nearest != "" {
		msg += fmt.Sprintf("; the nearest recorded question is %q", e.Nearest)
	}
	return msg
}

// OpenReplay loads every *.json recording under dir. Malformed files and two
// files with one key are errors naming the file.
func OpenReplay(dir string) (*Replay, error) {
	r := &Replay{dir: dir, recs: map[string]*Recording{}}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("recordings directory %q: %w", filepath.Base(dir), err)
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("read recording %s: %w", filepath.Base(f), err)
		}
		var rec Recording
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			return nil, fmt.Errorf("recording %s is malformed: %w", filepath.Base(f), err)
		}
		if rec.Step == "" || rec.Question == "" || len(rec.Answer) == 0 {
			return nil, fmt.Errorf("recording %s needs step, question and answer", filepath.Base(f))
		}
		rec.File = filepath.Base(f)
		k := Key(rec.Step, rec.Datasource, rec.Question, rec.Sample)
		if prev, dup := r.recs[k]; dup {
			return nil, fmt.Errorf("recordings %s and %s answer the same request", prev.File, rec.File)
		}
		r.recs[k] = &rec
	}
	return r, nil
}

// Complete returns the recorded answer for req, or *NoRecordingError.
func (r *Replay) Complete(ctx context.Context, req Request) (*Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rec, ok := r.Lookup(req)
	if !ok {
		return nil, &NoRecordingError{Step: req.Step, Datasource: req.Datasource, Intent: req.Intent, Sample: req.Sample, Nearest: r.nearest(req)}
	}
	if rec.Invalid != "" {
		var text string
		if json.Unmarshal(rec.Answer, &text) != nil {
			text = string(rec.Answer)
		}
		return nil, &InvalidOutputError{Content: text, Reason: rec.Invalid}
	}
	resp := &Response{Content: rec.Answer, Provider: "replay", Model: "recording"}
	if rec.Usage != nil {
		resp.Usage = *rec.Usage
	}
	return resp, nil
}

// Lookup finds the recording for req.
func (r *Replay) Lookup(req Request) (*Recording, bool) {
	rec, ok := r.recs[Key(req.Step, req.Datasource, req.Intent, req.Sample)]
	return rec, ok
}

// Recordings returns every loaded recording, sorted by file name.
func (r *Replay) Recordings() []*Recording {
	out := make([]*Recording, 0, len(r.recs))
	for _, rec := range r.recs {
		out = append(out, rec)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// Dir is the directory the recordings were loaded from.
func (r *Replay) Dir() string { return r.dir }

// nearest ranks recorded questions of the same step and datasource by the
// Jaccard similarity of their word sets; ties go to the alphabetically first.
func (r *Replay) nearest(req Request) string {
	want := words(req.Intent)
	best, bestScore := "", -1.0
	for _, rec := range r.Recordings() {
		if rec.Step != req.Step || rec.Datasource != req.Datasource {
			continue
		}
		have := words(rec.Question)
		inter := 0
		for w := range want {
			if have[w] {
				inter++
			}
		}
		union := len(want) + len(have) - inter
		score := 0.0
		if union > 0 {
			score = float64(inter) / float64(union)
		}
		if score > bestScore || (score == bestScore && rec.Question < best) {
			best, bestScore = rec.Question, score
		}
	}
	return best
}

func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(slugRe.ReplaceAllString(Normalize(s), " ")) {
		out[w] = true
	}
	return out
}

// Save writes rec as an indented JSON file in dir under its canonical name.
func Save(dir string, rec *Recording) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	name := rec.File
	if name == "" {
		name = FileName(rec.Step, rec.Datasource, rec.Question, rec.Sample)
	}
	return os.WriteFile(filepath.Join(dir, name), append(b, '\n'), 0o644)
}
