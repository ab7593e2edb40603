package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/oauthtest"
)

// clientToken gets a token from the authorization server's token endpoint
// for client id (client_credentials, bound to resource).
func clientToken(t *testing.T, as *oauthtest.Server, id, secret, resource string) string {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {resource}}
	req, _ := http.NewRequest(http.MethodPost, as.URL+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(id, secret)
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(r.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
		t.Fatalf("token for %s: %d %v", id, r.StatusCode, err)
	}
	return tok.AccessToken
}

// toolResult is the part of a tools/call answer these tests read.
type toolResult struct {
	Result struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Rows       [][]any `json:"rows"`
			SubQueries []struct {
				PlanSource string `json:"plan_source"`
			} `json:"sub_queries"`
		} `json:"structuredContent"`
	} `json:"result"`
}

func callRows(t *testing.T, base, token, tool string, args map[string]any) toolResult {
	t.Helper()
	status, _, body := callOAuthTool(t, base, token, tool, args)
	if status != 200 {
		t.Fatalf("%s: HTTP %d %s", tool, status, body)
	}
	if i := strings.Index(body, "{"); i > 0 { // an SSE frame: data: {...}
		body = body[i:]
	}
	var r toolResult
	if err := json.Unmarshal([]byte(strings.TrimSpace(body)), &r); err != nil || r.Result.IsError {
		t.Fatalf("%s: %v %s", tool, err, body)
	}
	return r
}

func sumCol(rows [][]any, i int) int {
	n := 0
	for _, r := range rows {
		if f, ok := r[i].(float64); ok {
			n += int(f)
		}
	}
	return n
}

// Threat: the identity provider says who a rep is, but the row filters do
// not follow: a rep sees another rep's customers, through the model path
// (ask), a supplied plan (run_plan) or a verified query; or the plan cache
// hands one caller's rows (a plan with her filter baked in) to another.
// Chinook's reps 3, 4 and 5 support 21, 20 and 18 of its 59 customers
// (3, 6 and 4 of its 13 in the USA; sqlite3 chinook.sqlite "SELECT
// SupportRepId, COUNT(*) FROM Customer GROUP BY 1").
func TestOAuthClaimsDriveRowFilters(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.RS256)
	as.AddClient("jane-app", "j", janeClaims, "nl2sql:read")
	as.AddClient("margaret-app", "m", margaretClaims, "nl2sql:read")
	as.AddClient("ann-app", "a", annClaims, "nl2sql:read")
	srv := startOAuth(t, as)
	tokens := map[string]string{
		"jane (employee_id 3)":     clientToken(t, as, "jane-app", "j", srv.resource),
		"margaret (employee_id 4)": clientToken(t, as, "margaret-app", "m", srv.resource),
		"ann (analyst)":            clientToken(t, as, "ann-app", "a", srv.resource),
	}
	want := map[string]struct {
		customers, usa int
		rep            string
		source         string
	}{
		"jane (employee_id 3)":     {21, 3, "3", "llm"},
		"margaret (employee_id 4)": {20, 6, "4", "cache"},
		"ann (analyst)":            {59, 13, "", "cache"},
	}
	// jane asks first, so margaret and ann are served from the plan cache
	for _, who := range []string{"jane (employee_id 3)", "margaret (employee_id 4)", "ann (analyst)"} {
		tok, w := tokens[who], want[who]
		ask := callRows(t, srv.base, tok, "ask", map[string]any{"question": "How many customers are there in each country?"})
		src := ""
		if sq := ask.Result.StructuredContent.SubQueries; len(sq) > 0 {
			src = sq[0].PlanSource
		}
		plan := callRows(t, srv.base, tok, "run_plan", map[string]any{"datasource": "chinook", "plan": map[string]any{
			"select": []any{map[string]any{"expr": map[string]any{"kind": "func", "name": "COUNT", "args": []any{}}, "alias": "n"}},
			"from":   []any{map[string]any{"table": "Customer", "alias": "c"}}}})
		vq := callRows(t, srv.base, tok, "run_verified_query", map[string]any{"id": "customers_in_country", "params": map[string]any{"country": "USA"}})
		reps := map[string]bool{}
		for _, r := range vq.Result.StructuredContent.Rows {
			reps[fmt.Sprint(r[3])] = true
		}
		got := fmt.Sprintf("ask %d (%s), run_plan %v, run_verified_query USA %d rows, reps %v",
			sumCol(ask.Result.StructuredContent.Rows, 1), src, plan.Result.StructuredContent.Rows,
			len(vq.Result.StructuredContent.Rows), reps)
		t.Logf("%-26s %s", who, got)
		if sumCol(ask.Result.StructuredContent.Rows, 1) != w.customers || src != w.source {
			t.Errorf("%s: ask counted %d customers from %q, want %d from %q", who, sumCol(ask.Result.StructuredContent.Rows, 1), src, w.customers, w.source)
		}
		if fmt.Sprint(plan.Result.StructuredContent.Rows) != fmt.Sprintf("[[%d]]", w.customers) {
			t.Errorf("%s: run_plan %v, want %d", who, plan.Result.StructuredContent.Rows, w.customers)
		}
		if len(vq.Result.StructuredContent.Rows) != w.usa || (w.rep != "" && (len(reps) != 1 || !reps[w.rep])) {
			t.Errorf("%s: run_verified_query: %d rows of reps %v, want %d of rep %q", who, len(vq.Result.StructuredContent.Rows), reps, w.usa, w.rep)
		}
	}

	// A rep whose identity provider sends no employee_id is refused, not
	// served without her filter.
	as.AddClient("nora-app", "n", oauthtest.Claims{"sub": "u-1003", "preferred_username": "nora", "groups": []string{"sales-reps"}}, "nl2sql:read")
	nora := clientToken(t, as, "nora-app", "n", srv.resource)
	status, _, body := callOAuthTool(t, srv.base, nora, "run_plan", map[string]any{"datasource": "chinook", "plan": map[string]any{
		"select": []any{map[string]any{"expr": map[string]any{"kind": "func", "name": "COUNT", "args": []any{}}, "alias": "n"}},
		"from":   []any{map[string]any{"table": "Customer", "alias": "c"}}}})
	t.Logf("nora (rep, no employee_id claim): HTTP %d %.160s", status, body)
	if status != 200 || !strings.Contains(body, `"isError":true`) || !strings.Contains(body, "ACCESS_DENIED") {
		t.Errorf("a rep without employee_id: %d %s", status, body)
	}
}
