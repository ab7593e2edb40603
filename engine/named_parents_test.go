package engine

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// namedParentsDB: a product-usage database loaded from files, declaring
// primary keys and no foreign key at all. Events name their workspace by
// ws_id, workspaces.ws_id being its key; one workspace of three is the
// staff's own (is_internal), and its events are most of them.
var namedParentsDB = []string{
	"CREATE TABLE workspaces (ws_id TEXT PRIMARY KEY, ws_name TEXT, is_internal INTEGER)",
	"INSERT INTO workspaces VALUES ('ws_a', 'Acme', 0), ('ws_b', 'Staff sandbox', 1), ('ws_c', 'Beta', 0)",
	"CREATE TABLE feature_events (event_id INTEGER, ws_id TEXT, event_name TEXT)",
	"INSERT INTO feature_events VALUES (1, 'ws_a', 'export'), (2, 'ws_a', 'export'), (3, 'ws_b', 'export'), (4, 'ws_b', 'export')," +
		" (5, 'ws_b', 'export'), (6, 'ws_b', 'view'), (7, 'ws_c', 'export'), (8, 'ws_c', 'view')",
}

// eventsCount counts the feature events; where is "" or a filter, and
// joined joins workspaces (alias "workspaces", as the warning's filter
// names it) on ws_id.
func eventsCount(joined bool, where string) string {
	p := `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"feature_events","alias":"e"}`
	if joined {
		p += `,{"table":"workspaces","alias":"workspaces"}],"joins":[{"type":"inner","left":"e","right":"workspaces","on":[{"left_column":"ws_id","right_column":"ws_id"}]}]`
	} else {
		p += `]`
	}
	if where != "" {
		p += `,"where":` + where
	}
	return p + `}`
}

// The threat: a DuckDB or SQLite database declares no foreign key, and a
// count of feature events took the staff workspaces' events with nothing
// said, where the same count over a schema declaring its keys was told of
// the flag on the table the rows belong to. A column named as one other
// table's key (feature_events.ws_id, workspaces.ws_id) is that link: the
// flag is named, the warning says the link is by name, not declared, and
// its filter, pasted with the join on that column, leaves the staff's
// events out. A plan reading the flag is told nothing.
func TestFlaggedParentByNameIsNamed(t *testing.T) {
	for _, en := range everyEngine(namedParentsDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res := runAir(t, e, eventsCount(false, ""))
			w := warningWith(res.Warnings, "belongs to one of workspaces")
			want := "each row of feature_events belongs to one of workspaces (feature_events.ws_id → workspaces, linked by name: no foreign key declares feature_events.ws_id to workspaces.ws_id), whose is_internal marks test or internal records with 1"
			if !strings.HasPrefix(w, want) {
				t.Fatalf("warnings %q\nwant one starting %q", res.Warnings, want)
			}
			filter, err := json.Marshal(jsonValuesAfter(t, w, "e.g. ")[0])
			if err != nil {
				t.Fatal(err)
			}
			got := runAir(t, e, eventsCount(true, string(filter)))
			if fmt.Sprint(got.Rows) != "[[4]]" || warningWith(got.Warnings, "is_internal") != "" {
				t.Errorf("joined with the filter %s: rows %v warnings %q, want 4 (not 8) and nothing more said", filter, got.Rows, got.Warnings)
			}
		})
	}
}

// The threat, the other way: a warning that says each row belongs to one
// row of a table when it does not sends a host to join and filter rows
// away that were no test records. A column named as the keys of two
// tables (live and archived workspaces), a table sharing its own key's
// name with another (each workspace, and the few that had a trial), and a
// key that repeats (a plan's versions, no primary key declared) say
// nothing of the rows' one parent: no flag is named through them. A
// column named for a table whose key, never declared, profiling found
// unique (subscriptions.plan_id, plans.id) is a link.
func TestFlaggedParentByNameNeedsOneKey(t *testing.T) {
	for _, c := range []struct {
		name string
		db   []string
		plan string
		said string // the parent warning wanted, "" for none
	}{
		{"two tables keyed so", append([]string{
			"CREATE TABLE archived_workspaces (ws_id TEXT PRIMARY KEY, is_internal INTEGER)",
			"INSERT INTO archived_workspaces VALUES ('ws_x', 0), ('ws_y', 1)",
		}, namedParentsDB...), eventsCount(false, ""), ""},
		{"own key", []string{
			"CREATE TABLE workspaces (ws_id TEXT PRIMARY KEY, seats INTEGER)",
			"INSERT INTO workspaces VALUES ('ws_a', 3), ('ws_b', 5), ('ws_c', 7)",
			"CREATE TABLE workspace_trials (ws_id TEXT PRIMARY KEY, is_test INTEGER, days INTEGER)",
			"INSERT INTO workspace_trials VALUES ('ws_a', 1, 14), ('ws_c', 0, 30)",
		}, `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"w","column":"seats"}]},"alias":"seats"}],"from":[{"table":"workspaces","alias":"w"}]}`, ""},
		{"a repeated key", []string{
			"CREATE TABLE plans (id INTEGER, name TEXT, is_test INTEGER, valid_from DATE)",
			"INSERT INTO plans VALUES (1, 'Basic', 0, '2024-01-01'), (1, 'Basic', 1, '2025-01-01'), (2, 'Pro', 0, '2024-01-01')",
			"CREATE TABLE subscriptions (id INTEGER PRIMARY KEY, plan_id INTEGER, amount INTEGER)",
			"INSERT INTO subscriptions VALUES (1, 1, 10), (2, 2, 20), (3, 1, 40)",
		}, `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"s","column":"amount"}]},"alias":"total"}],"from":[{"table":"subscriptions","alias":"s"}]}`, ""},
		{"a key profiled unique", []string{
			"CREATE TABLE plans (id INTEGER, name TEXT, is_test INTEGER)",
			"INSERT INTO plans VALUES (1, 'Basic', 0), (2, 'QA plan', 1), (3, 'Pro', 0)",
			"CREATE TABLE subscriptions (id INTEGER PRIMARY KEY, plan_id INTEGER, amount INTEGER)",
			"INSERT INTO subscriptions VALUES (1, 1, 10), (2, 2, 20), (3, 3, 40)",
		}, `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"s","column":"amount"}]},"alias":"total"}],"from":[{"table":"subscriptions","alias":"s"}]}`,
			"each row of subscriptions belongs to one of plans (subscriptions.plan_id → plans, linked by name: no foreign key declares subscriptions.plan_id to plans.id), whose is_test"},
	} {
		for _, en := range everyEngine(c.db) {
			t.Run(c.name+"/"+en.name, func(t *testing.T) {
				res := runAir(t, specEngine(t, en.spec(t)), c.plan)
				w := warningWith(res.Warnings, "belongs to one of")
				if c.said == "" && w != "" || c.said != "" && !strings.HasPrefix(w, c.said) {
					t.Errorf("warnings %q\nwant the parent warning %q", res.Warnings, c.said)
				}
			})
		}
	}
}

// deletedJoinDB: workspaces, a few deleted in place (deleted_at), and
// their tickets; each workspace's seats a power of two, so that a sum
// names the workspaces it counts.
var deletedJoinDB = []string{
	"CREATE TABLE workspaces (ws_id TEXT PRIMARY KEY, region TEXT, seats INTEGER, deleted_at TIMESTAMP)",
	"INSERT INTO workspaces VALUES ('ws_a', 'eu', 1, NULL), ('ws_b', 'eu', 2, '2025-03-01 10:00:00'), ('ws_c', 'us', 4, NULL), ('ws_d', 'us', 8, '2025-04-01 09:00:00')",
	"CREATE TABLE tickets (ticket_id INTEGER PRIMARY KEY, ws_id TEXT, opened_at TIMESTAMP)",
	"INSERT INTO tickets VALUES (1, 'ws_a', '2025-01-05 10:00:00'), (2, 'ws_b', '2025-01-06 10:00:00'), (3, 'ws_b', '2025-02-07 10:00:00'), (4, 'ws_c', '2025-01-08 10:00:00')",
}

// The threat: a count of the workspaces that opened tickets counted the
// deleted workspaces, with nothing said, while the same count over
// workspaces alone was told: joined by its key to the tickets, the table
// was taken to describe each ticket, as a workspace deleted since does
// (its tickets were opened; leaving them out cut a right figure). Where
// the plan counts or sums the joined table's own rows through the join
// (COUNT(DISTINCT w.ws_id), SUM(w.seats)), or keeps every one of them
// (workspaces LEFT JOIN tickets), its deleted rows are named, with the
// filter that, pasted, leaves them out; a count of tickets by their
// workspace's region, or one choosing tickets by a condition on their
// workspace, is told nothing of them.
func TestDeletedRowsCountedThroughAKeyJoin(t *testing.T) {
	plan := func(sel, join, group, where string) string {
		p := `{"select":[` + sel + `],"from":[{"table":"workspaces","alias":"w"},{"table":"tickets","alias":"t"}],` +
			`"joins":[{"type":"` + join + `","left":"w","right":"t","on":[{"left_column":"ws_id","right_column":"ws_id"}]}]`
		if where != "" {
			p += `,"where":` + where
		}
		if group != "" {
			p += `,"group_by":[` + group + `],"order_by":[{"expr":` + group + `}]`
		}
		return p + `}`
	}
	region := `{"kind":"column","table":"w","column":"region"}`
	regionSel := `{"expr":` + region + `,"alias":"region"}`
	count := `{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}`
	for _, en := range everyEngine(deletedJoinDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				name, sel, join, group, want string
			}{
				// ws_a, ws_b and ws_c opened tickets; ws_b is deleted
				{"workspaces counted", `{"expr":{"kind":"func","name":"COUNT","args":[{"kind":"column","table":"w","column":"ws_id"}],"distinct":true},"alias":"n"}`, "inner", "", "[[2]]"},
				// the tickets' workspaces' seats: 1 + 2 + 2 + 4
				{"seats summed", `{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"w","column":"seats"}]},"alias":"seats"}`, "inner", "", "[[5]]"},
				// every workspace a row, with its tickets or none
				{"every workspace kept", regionSel + "," + count, "left", region, "[[eu 1] [us 1]]"},
			} {
				res := runAir(t, e, plan(c.sel, c.join, c.group, ""))
				w := warningWith(res.Warnings, "workspaces.deleted_at ")
				_, fix, ok := strings.Cut(w, "if they should not, add ")
				fix, _, _ = strings.Cut(fix, ` to the filters with "and"`)
				if !ok || !strings.Contains(w, "marks the rows deleted in place") {
					t.Fatalf("%s: warnings %q, want workspaces.deleted_at named with a filter", c.name, res.Warnings)
				}
				if got := runAir(t, e, plan(c.sel, c.join, c.group, fix)); fmt.Sprint(got.Rows) != c.want || warningWith(got.Warnings, "deleted in place") != "" {
					t.Errorf("%s, with the filter %s: rows %v warnings %q, want %s and nothing more said", c.name, fix, got.Rows, got.Warnings, c.want)
				}
			}
			for _, c := range []struct{ name, sel, group string }{
				{"tickets by region", regionSel + "," + count, region},
				{"tickets chosen by workspace", `{"expr":{"kind":"func","name":"COUNT","args":[{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":` + region + `,"right":{"kind":"literal","value":"eu"}},"then":{"kind":"column","table":"t","column":"ticket_id"}}]}]},"alias":"eu_tickets"}`, ""},
			} {
				if res := runAir(t, e, plan(c.sel, "inner", c.group, "")); warningWith(res.Warnings, "deleted in place") != "" {
					t.Errorf("%s: warnings %q, want the workspaces' deleted rows not named: the tickets were opened", c.name, res.Warnings)
				}
			}
		})
	}
}
