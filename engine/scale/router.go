package scale

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
)

// Thresholds of the feature router: a question is hard when it scores at
// least routerHardScore points: one for a schema of more than
// routerManyTables tables, one for a question of more than routerLongWords
// words, and one per routerKeywordsHard of the keywords below (comparisons,
// ratios, per-group aggregation, negation), at most two.
const (
	routerManyTables   = 20
	routerLongWords    = 16
	routerKeywordsHard = 2
	routerHardScore    = 2
)

var routerKeywords = regexp.MustCompile(`\b(each|per|ratio|percent|percentage|share|compared?|than|both|either|at least|at most|average|median|rank|top|most|least|between|without|never|not|only|every|difference|growth|more|fewer|highest|lowest)\b`)

// route decides single call (false) or scaling (true), with the reason.
// Hooks do not change the route: every candidate passes them
// (candidates.go).
func (s *Run[P]) route(ctx context.Context) (bool, string) {
	switch s.cfg.Router {
	case RouterFeatures:
		return routeFeatures(s.q.Tables, s.q.Text)
	case RouterModel:
		return s.routeModel(ctx)
	}
	return true, "router off"
}

// routeFeatures scores the schema size and the question's features.
func routeFeatures(tables int, q string) (bool, string) {
	score := 0
	var why []string
	if tables > routerManyTables {
		score++
		why = append(why, fmt.Sprintf("%d tables", tables))
	}
	if n := len(strings.Fields(q)); n > routerLongWords {
		score++
		why = append(why, fmt.Sprintf("%d words", n))
	}
	kws := routerKeywords.FindAllString(strings.ToLower(q), -1)
	if len(kws) >= routerKeywordsHard {
		score += min(2, len(kws)/routerKeywordsHard)
		why = append(why, "keywords "+strings.Join(kws, ", "))
	}
	hard := score >= routerHardScore
	verdict := "easy"
	if hard {
		verdict = "hard"
	}
	if len(why) == 0 {
		why = []string{"small schema, short question, no comparison keywords"}
	}
	return hard, fmt.Sprintf("features: %s (score %d of 4) → %s", strings.Join(why, "; "), score, verdict)
}

// routeModel asks the planner's model once (step "route", sample 0). A
// failed or unbudgeted call scales: the router saves cost, never accuracy.
func (s *Run[P]) routeModel(ctx context.Context) (bool, string) {
	req := s.auxRequest("route", 0, routerSystem, "route_answer", routerSchema, "")
	n, ok := s.reserve("route", &req)
	if !ok {
		return true, "model router skipped (token budget) → hard"
	}
	resp, err := s.send(ctx, "route", req, n, s.deps.Planner)
	if err != nil {
		return true, "model router failed (" + fault.Redact(fault.Provider(err).Msg) + ") → hard"
	}
	var ans struct {
		Difficulty string `json:"difficulty"`
	}
	dec := json.NewDecoder(bytes.NewReader(resp.Content))
	dec.DisallowUnknownFields()
	if dec.Decode(&ans) != nil || (ans.Difficulty != "easy" && ans.Difficulty != "hard") {
		return true, "model router answered no difficulty → hard"
	}
	return ans.Difficulty == "hard", "model: " + ans.Difficulty
}
