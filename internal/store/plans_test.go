package store

import (
	"bytes"
	"context"
	"testing"
	"time"
)

func TestPlanKeyHash(t *testing.T) {
	k := PlanKey{Intent: "revenue by year", Datasource: "chinook", SchemaVersion: "v1", Today: "2026-03-01", Extra: "openai/gpt"}
	if len(k.Hash()) != 64 || k.Hash() != k.Hash() {
		t.Fatal("hash shape")
	}
	if got := string(mustJSON(t, k)); got != `{"intent":"revenue by year","datasource":"chinook","schema_version":"v1","today":"2026-03-01","extra":"openai/gpt"}` {
		t.Errorf("canonical JSON %s", got)
	}
	variants := []PlanKey{k, k, k, k, k}
	variants[0].Intent = "Revenue by year"
	variants[1].Datasource = "other"
	variants[2].SchemaVersion = "v2"
	variants[3].Today = "2026-03-02"
	variants[4].Extra = "openai/gpt-mini"
	for i, v := range variants {
		if v.Hash() == k.Hash() {
			t.Errorf("variant %d hashes like the key", i)
		}
	}
	// Field boundaries are part of the JSON: moving text between fields
	// changes the key.
	a := PlanKey{Intent: "a", Datasource: "bc", SchemaVersion: "v"}
	b := PlanKey{Intent: "ab", Datasource: "c", SchemaVersion: "v"}
	if a.Hash() == b.Hash() {
		t.Error("boundary collision")
	}
}

func TestPlanCache(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		clk := newClock()
		s := open(t, WithClock(clk.Now))
		key := func(ds, intent, version string) PlanKey {
			return PlanKey{Intent: intent, Datasource: ds, SchemaVersion: version, Today: "2026-03-01"}
		}
		plan := []byte(`{"tables":[{"name":"Invoice"}]}`)

		type op struct {
			do      string // put, get, clear
			key     PlanKey
			plan    []byte
			ds      string // clear
			wantOK  bool
			wantN   int
			wantHit int64 // after a get: the key's hits
		}
		cases := []struct {
			name string
			ops  []op
		}{
			{"miss on an empty cache", []op{{do: "get", key: key("c", "q", "v1")}}},
			{"put then get counts hits", []op{
				{do: "put", key: key("c", "q", "v1"), plan: plan},
				{do: "get", key: key("c", "q", "v1"), plan: plan, wantOK: true, wantHit: 1},
				{do: "get", key: key("c", "q", "v1"), plan: plan, wantOK: true, wantHit: 2},
				{do: "get", key: key("c", "q", "v2")},
				{do: "get", key: key("c", "Q", "v1")},
			}},
			{"no schema version: never cached", []op{
				{do: "put", key: key("c", "q", ""), plan: plan},
				{do: "get", key: key("c", "q", "")},
				{do: "clear", wantN: 0},
			}},
			{"same plan again keeps hits, a new plan resets them", []op{
				{do: "put", key: key("c", "q", "v1"), plan: plan},
				{do: "get", key: key("c", "q", "v1"), plan: plan, wantOK: true, wantHit: 1},
				{do: "put", key: key("c", "q", "v1"), plan: plan},
				{do: "get", key: key("c", "q", "v1"), plan: plan, wantOK: true, wantHit: 2},
				{do: "put", key: key("c", "q", "v1"), plan: []byte(`{}`)},
				{do: "get", key: key("c", "q", "v1"), plan: []byte(`{}`), wantOK: true, wantHit: 1},
			}},
			{"clear one datasource, then all", []op{
				{do: "put", key: key("a", "q1", "v1"), plan: plan},
				{do: "put", key: key("a", "q2", "v1"), plan: plan},
				{do: "put", key: key("b", "q1", "v1"), plan: plan},
				{do: "clear", ds: "a", wantN: 2},
				{do: "get", key: key("a", "q1", "v1")},
				{do: "get", key: key("b", "q1", "v1"), plan: plan, wantOK: true, wantHit: 1},
				{do: "clear", ds: "nobody", wantN: 0},
				{do: "clear", ds: "", wantN: 1},
				{do: "get", key: key("b", "q1", "v1")},
			}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				if _, err := s.ClearPlans(ctx, ""); err != nil {
					t.Fatal(err)
				}
				for i, o := range c.ops {
					clk.Advance(time.Second)
					switch o.do {
					case "put":
						if err := s.PutPlan(ctx, o.key, o.plan); err != nil {
							t.Fatalf("op %d: %v", i, err)
						}
					case "get":
						got, ok, err := s.GetPlan(ctx, o.key)
						if err != nil || ok != o.wantOK || !bytes.Equal(got, o.plan) {
							t.Fatalf("op %d: GetPlan = %s, %v, %v; want %s, %v", i, got, ok, err, o.plan, o.wantOK)
						}
						if ok {
							st, _, err := s.PlanStats(ctx, o.key)
							if err != nil || st.Hits != o.wantHit || !st.LastHitAt.Equal(clk.Now()) {
								t.Errorf("op %d: stats %+v, %v; want %d hits at %v", i, st, err, o.wantHit, clk.Now())
							}
						}
					case "clear":
						n, err := s.ClearPlans(ctx, o.ds)
						if err != nil || n != o.wantN {
							t.Fatalf("op %d: ClearPlans(%q) = %d, %v; want %d", i, o.ds, n, err, o.wantN)
						}
					}
				}
			})
		}

		t.Run("stats", func(t *testing.T) {
			k := key("c", "stats", "v9")
			t0 := clk.Now()
			if err := s.PutPlan(ctx, k, plan); err != nil {
				t.Fatal(err)
			}
			st, ok, err := s.PlanStats(ctx, k)
			want := PlanStats{Datasource: "c", SchemaVersion: "v9", CreatedAt: t0}
			if err != nil || !ok || st != want {
				t.Errorf("PlanStats = %+v, %v, %v; want %+v", st, ok, err, want)
			}
			if _, ok, _ := s.PlanStats(ctx, key("c", "none", "v9")); ok {
				t.Error("stats of a missing key")
			}
		})

		t.Run("empty plan", func(t *testing.T) {
			if err := s.PutPlan(ctx, key("c", "q", "v1"), nil); codeOfErr(t, err) != CodeInvalid {
				t.Errorf("PutPlan(nil) = %v", err)
			}
		})
	})
}
