package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Suites Run reads.
const (
	SuiteSpider = "spider"
	SuiteBird   = "bird"
)

// Question is one benchmark question with its gold SQL (SQLite).
type Question struct {
	ID       string // "spider-0007" (position in the file) or "bird-1312" (question_id)
	DBID     string
	Question string
	Evidence string // BIRD's hint; empty for Spider
	Gold     string
}

// spiderItem is one entry of Spider's dev.json; only these fields are read.
type spiderItem struct {
	DBID     string `json:"db_id"`
	Question string `json:"question"`
	Query    string `json:"query"`
}

// birdItem is one entry of BIRD's mini_dev_sqlite.json.
type birdItem struct {
	QuestionID *int   `json:"question_id"`
	DBID       string `json:"db_id"`
	Question   string `json:"question"`
	Evidence   string `json:"evidence"`
	SQL        string `json:"SQL"`
}

// LoadQuestions reads a benchmark file in its own JSON shape: Spider's
// [{db_id, question, query}] or BIRD's [{question_id, db_id, question,
// evidence, SQL}]. Other fields are ignored; a missing db_id or gold SQL is
// an error naming the entry.
func LoadQuestions(suite, file string) ([]Question, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("eval: read questions: %w", err)
	}
	var out []Question
	switch suite {
	case SuiteSpider:
		var items []spiderItem
		if err := json.Unmarshal(data, &items); err != nil {
			return nil, fmt.Errorf("eval: %s is not a Spider question file: %w", filepath.Base(file), err)
		}
		for i, it := range items {
			out = append(out, Question{ID: fmt.Sprintf("spider-%04d", i), DBID: it.DBID, Question: it.Question, Gold: it.Query})
		}
	case SuiteBird:
		var items []birdItem
		if err := json.Unmarshal(data, &items); err != nil {
			return nil, fmt.Errorf("eval: %s is not a BIRD question file: %w", filepath.Base(file), err)
		}
		for i, it := range items {
			id := fmt.Sprintf("bird-i%04d", i)
			if it.QuestionID != nil {
				id = fmt.Sprintf("bird-%d", *it.QuestionID)
			}
			out = append(out, Question{ID: id, DBID: it.DBID, Question: it.Question, Evidence: it.Evidence, Gold: it.SQL})
		}
	default:
		return nil, fmt.Errorf("eval: unknown suite %q (want spider or bird)", suite)
	}
	for i, q := range out {
		if q.DBID == "" || q.Gold == "" {
			return nil, fmt.Errorf("eval: %s entry %d has no db_id or no gold SQL", filepath.Base(file), i)
		}
	}
	return out, nil
}

// DBPath is where a benchmark keeps database dbID under root:
// root/dbID/dbID.sqlite (Spider's and BIRD's layout).
func DBPath(root, dbID string) string {
	return filepath.Join(root, dbID, dbID+".sqlite")
}
