package hooks

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"testing"
	"time"
)

type fn func(context.Context, Input) (Decision, error)

func (f fn) Decide(ctx context.Context, in Input) (Decision, error) { return f(ctx, in) }

func run(t *testing.T, p Point, in Input, entries ...Entry) (Outcome, error) {
	t.Helper()
	for i := range entries {
		if entries[i].Name == "" {
			entries[i].Name = "h"
		}
		entries[i].Points = []Point{p}
	}
	r, err := NewRunner(entries, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.Run(context.Background(), p, in)
}

// Every action outside a point's row of the table denies, whatever
// on_error says.
func TestDecisionTable(t *testing.T) {
	all := []Action{Allow, Deny, Rewrite, Narrow, Modify, RequireApproval}
	full := Decision{Question: "q2", Datasources: []string{"a"}, Plan: []byte(`{}`)}
	for _, p := range Points {
		for _, a := range all {
			d := full
			d.Action = a
			_, err := run(t, p, Input{Question: "q", Datasources: []string{"a", "b"}},
				Entry{Hook: fn(func(context.Context, Input) (Decision, error) { return d, nil }), OnErrorOpen: true})
			denied := err != nil
			if want := a == Deny || !Permits(p, a); denied != want {
				t.Errorf("%s %s: denied %v, want %v", p, a, denied, want)
			}
		}
	}
}

// Narrowing may not widen; a rewrite and a plan change pass to the next
// hook; hooks get deep copies.
func TestRunnerSemantics(t *testing.T) {
	widen := Entry{Hook: fn(func(context.Context, Input) (Decision, error) {
		return Decision{Action: Narrow, Datasources: []string{"a", "z"}}, nil
	})}
	if _, err := run(t, AfterResolution, Input{Datasources: []string{"a", "b"}}, widen); err == nil {
		t.Error("a narrowing that adds a datasource was accepted")
	}
	in := Input{Question: "q", Roles: []string{"r"}, Plan: []byte(`{"x":1}`)}
	var second Input
	out, err := run(t, AfterPlanning, in,
		Entry{Name: "a", Hook: fn(func(_ context.Context, got Input) (Decision, error) {
			got.Roles[0], got.Plan[2] = "admin", 'Y' // scribbles on its copy
			return Decision{Action: Modify, Plan: []byte(`{"y":2}`)}, nil
		})},
		Entry{Name: "b", Hook: fn(func(_ context.Context, got Input) (Decision, error) {
			second = got
			return Decision{Action: Allow}, nil
		})})
	if err != nil || string(out.Plan) != `{"y":2}` || string(second.Plan) != `{"y":2}` {
		t.Errorf("modify: %v %s %s", err, out.Plan, second.Plan)
	}
	if in.Roles[0] != "r" || string(in.Plan) != `{"x":1}` || second.Roles[0] != "r" {
		t.Errorf("a hook changed what it was handed: %v %s / %v", in.Roles, in.Plan, second.Roles)
	}
	if len(out.Records) != 2 || out.Records[0].Action != Modify {
		t.Errorf("records %+v", out.Records)
	}
}

// Errors, panics and timeouts deny unless on_error: open.
func TestFailClosed(t *testing.T) {
	hang := fn(func(ctx context.Context, _ Input) (Decision, error) {
		time.Sleep(time.Second)
		return Decision{Action: Allow}, nil
	})
	boom := fn(func(context.Context, Input) (Decision, error) { panic("bug") })
	bad := fn(func(context.Context, Input) (Decision, error) { return Decision{}, errors.New("down") })
	for _, h := range []Hook{hang, boom, bad} {
		for _, open := range []bool{false, true} {
			start := time.Now()
			_, err := run(t, BeforeRun, Input{Question: "q"}, Entry{Hook: h, Timeout: 50 * time.Millisecond, OnErrorOpen: open})
			var de *DeniedError
			if got := errors.As(err, &de); got == open {
				t.Errorf("%T open=%v: err %v", h, open, err)
			}
			if time.Since(start) > 500*time.Millisecond {
				t.Errorf("the runner waited %v past the timeout", time.Since(start))
			}
		}
	}
}

func TestRule(t *testing.T) {
	w, err := ParseWindow("22:00-06:00")
	if err != nil {
		t.Fatal(err)
	}
	r := &Rule{QuestionPatterns: []*regexp.Regexp{regexp.MustCompile(`(?i)salary`)}, Window: w,
		DenyTables: []string{"db.main.Employee"}, DenyColumns: []string{"db.main.Customer.Email"},
		ApprovalTables: []string{"db.main.Invoice"}, RowCaps: map[string]int{"analyst": 10, "lead": 100}}
	if got := r.Points(); !slices.Equal(got, []Point{BeforeRun, AfterPlanning, BeforeExecution, AfterExecution}) {
		t.Errorf("points %v", got)
	}
	night, day := "2026-01-15T23:00:00Z", "2026-01-15T12:00:00Z"
	cases := []struct {
		name string
		in   Input
		want Action
	}{
		{"pattern", Input{Point: BeforeRun, Question: "my SALARY", Time: night}, Deny},
		{"outside window", Input{Point: BeforeRun, Question: "q", Time: day}, Deny},
		{"inside window", Input{Point: BeforeRun, Question: "q", Time: night}, Allow},
		{"denied table", Input{Point: AfterPlanning, Tables: []string{"db.main.employee"}}, Deny},
		{"denied column", Input{Point: AfterPlanning, ReadColumns: []string{"db.main.Customer.Email"}}, Deny},
		{"approval", Input{Point: BeforeExecution, Tables: []string{"db.main.Invoice"}}, RequireApproval},
		{"row cap", Input{Point: AfterExecution, Roles: []string{"analyst"}, RowCount: 11}, Deny},
		{"largest cap", Input{Point: AfterExecution, Roles: []string{"analyst", "lead"}, RowCount: 11}, Allow},
		{"uncapped role", Input{Point: AfterExecution, Roles: []string{"other"}, RowCount: 1e6}, Allow},
	}
	for _, c := range cases {
		d, err := r.Decide(context.Background(), c.in)
		if err != nil || d.Action != c.want {
			t.Errorf("%s: %v %v, want %s", c.name, d, err, c.want)
		}
	}
}
