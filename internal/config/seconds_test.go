package config

import (
	"strings"
	"testing"
)

// TestSecondsPastADayAreRefused: a number of seconds past MaxSeconds is
// refused with the bound, for every key that becomes a duration. Loaded, a
// value past about 9.2e9 seconds wraps when made a time.Duration: 18446744074
// seconds becomes 0.29 s, and every query would time out at once (or, wrapped
// negative, a model call would never be bounded).
func TestSecondsPastADayAreRefused(t *testing.T) {
	const ds = "datasources:\n  - {id: a, engine: sqlite, path: a.db%s}\n"
	with := func(rest string) string { return strings.Replace(ds, "%s", rest, 1) }
	tests := []struct {
		name    string
		body    string
		environ []string
		want    string // "" for loads
	}{
		{"datasource, wraps to 0.29 s", with(", timeout_seconds: 18446744074"), nil,
			"datasources[0].timeout_seconds: 18446744074 is too large (at most 86400)"},
		{"datasource, past a day", with(", timeout_seconds: 86401"), nil,
			"datasources[0].timeout_seconds: 86401 is too large (at most 86400)"},
		{"datasource, a day", with(", timeout_seconds: 86400"), nil, ""},
		{"datasource, past int64", with(", timeout_seconds: 99999999999999999999"), nil,
			"datasources[0].timeout_seconds: too large (at most 86400)"},
		{"datasource, from the environment", with(""), []string{"NL2SQL_DATASOURCES__A__TIMEOUT_SECONDS=9300000000"},
			"datasources[0].timeout_seconds: 9300000000 is too large (at most 86400)"},
		{"llm timeout", with("") + "llm:\n  default: {provider: ollama, timeout_seconds: 9300000000}\n", nil,
			"llm.default.timeout_seconds: 9300000000 is too large (at most 86400)"},
		{"llm retry budget", with("") + "llm:\n  default: {provider: ollama, retry_max_seconds: 9300000000}\n", nil,
			"llm.default.retry_max_seconds: 9300000000 is too large (at most 86400)"},
		{"scaling time budget", with("") + "scaling: {time_budget_seconds: 18446744074}\n", nil,
			"scaling.time_budget_seconds: 18446744074 is too large (at most 86400)"},
		{"datasource scaling time budget", with(", scaling: {time_budget_seconds: 18446744074}"), nil,
			"datasources[0].scaling.time_budget_seconds: 18446744074 is too large (at most 86400)"},
		{"telemetry interval", with("") + "telemetry: {export_interval_seconds: 18446744074}\n", nil,
			"telemetry.export_interval_seconds: 18446744074 is too large (at most 86400)"},
		{"jwks refresh", oauthBase +
			"oauth: {resource: https://x/mcp, issuers: [{issuer: https://i}], jwks_max_age_seconds: 18446744074}\n", nil,
			"oauth.jwks_max_age_seconds: 18446744074 is too large (at most 86400)"},
		{"hook timeout", with("") + "hooks: [{name: h, timeout_ms: 18446744073710, rule: {deny_tables: [a.main.t]}}]\n", nil,
			"hooks[0].timeout_ms: 18446744073710 is too large (at most 86400000)"},
		// days wrap too: 106,752 days past time.Duration, to an age that
		// deletes traces early
		{"trace age", with("") + "storage: {traces: {max_age_days: 200000}}\n", nil,
			"storage.traces.max_age_days: 200000 is too large (at most 36500)"},
		{"trace age, a century", with("") + "storage: {traces: {max_age_days: 36500}}\n", nil, ""},
		{"trace age below 0", with("") + "storage: {traces: {max_age_days: -1}}\n", nil,
			"storage.traces.max_age_days: -1 must be 0 (keep all) or more days"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(writeConfig(t, tt.body), tt.environ, lookupIn(nil))
			switch {
			case tt.want == "" && err != nil:
				t.Fatal(err)
			case tt.want == "":
			case err == nil:
				t.Fatal("loaded")
			case !strings.Contains(err.Error(), tt.want):
				t.Errorf("error %q, want %q", err, tt.want)
			}
		})
	}
}
