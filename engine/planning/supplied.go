package planning

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// SuppliedHint says what to do about a refused supplied plan (run_plan,
// check_plan), naming the wrong forms a plan most often arrives in: the
// plan as a JSON string (serialised twice) and SQL text, bare or as a
// field of an object.
func SuppliedHint(doc []byte) string {
	trimmed := bytes.TrimSpace(doc)
	var inner string
	if json.Unmarshal(trimmed, &inner) == nil && strings.HasPrefix(strings.TrimSpace(inner), "{") {
		// a string that holds broken JSON must say so: told to "send the
		// object itself", its author sends the same broken text unquoted
		if bad := planast.JSONTextError(inner); bad != "" {
			return "the plan arrived as a JSON string, and its text is not valid JSON: " + bad + "; fix the JSON and send the plan as an object"
		}
		return "the plan arrived as a JSON string holding JSON: send the object itself, not its text"
	}
	if !json.Valid(trimmed) || inner != "" {
		if sqlStart.Match(trimmed) || sqlStart.MatchString(inner) {
			return HintSQLText
		}
	}
	// SQL wrapped in an object ({"sql": "SELECT …"}, {"query": …}): a
	// top-level string that opens like a statement
	var fields map[string]any
	if json.Unmarshal(trimmed, &fields) == nil {
		for _, v := range fields {
			if s, ok := v.(string); ok && sqlStart.MatchString(s) {
				return HintSQLText
			}
		}
	}
	return "fix the listed issues (each names its path in the plan); get_plan_schema describes the language"
}

// HintSQLText is the hint for SQL text sent as a plan. It names what a
// host over MCP can do (read get_plan_schema and write the plan); the
// command line, whose user can lift SQL, adds its own command to it.
const HintSQLText = "a plan is a JSON query tree, never SQL text: the server never runs SQL text. get_plan_schema gives the plan language with worked plans; write the query as a plan"

// sqlStart matches text that opens like a SQL statement.
var sqlStart = regexp.MustCompile(`(?i)^\s*(select|with|insert|update|delete|create|drop|pragma|explain)\b`)
