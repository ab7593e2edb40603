package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestTraces(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		t0 := time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)
		for i := range 5 {
			id := fmt.Sprintf("tr-%d", i)
			if err := s.PutTrace(ctx, id, t0.Add(time.Duration(i%3)*time.Minute), []byte(`{"n":`+fmt.Sprint(i)+`}`)); err != nil {
				t.Fatal(err)
			}
		}
		// created_at: tr-0 +0, tr-1 +1m, tr-2 +2m, tr-3 +0, tr-4 +1m
		cases := []struct {
			limit int
			ids   string
		}{
			{0, "tr-2 tr-4 tr-1 tr-3 tr-0"},
			{2, "tr-2 tr-4"},
			{100, "tr-2 tr-4 tr-1 tr-3 tr-0"},
		}
		for _, c := range cases {
			got, err := s.RecentTraces(ctx, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			ids := ""
			for i, e := range got {
				if i > 0 {
					ids += " "
				}
				ids += e.ID
			}
			if ids != c.ids {
				t.Errorf("RecentTraces(%d) = %s, want %s", c.limit, ids, c.ids)
			}
			if len(got) > 0 && got[0].CreatedAt != t0.Add(2*time.Minute) {
				t.Errorf("CreatedAt %v", got[0].CreatedAt)
			}
		}
		sum, err := s.Trace(ctx, "tr-3")
		if err != nil || string(sum) != `{"n":3}` {
			t.Errorf("Trace = %s, %v", sum, err)
		}
		// Re-putting an id replaces it.
		if err := s.PutTrace(ctx, "tr-3", t0.Add(time.Hour), nil); err != nil {
			t.Fatal(err)
		}
		if sum, err := s.Trace(ctx, "tr-3"); err != nil || sum == nil || len(sum) != 0 {
			t.Errorf("replaced Trace = %q, %v", sum, err)
		}
		if got, _ := s.RecentTraces(ctx, 1); got[0].ID != "tr-3" {
			t.Errorf("newest after replace: %s", got[0].ID)
		}
		if _, err := s.Trace(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Trace(nope) = %v", err)
		}
		if err := s.PutTrace(ctx, "", t0, nil); codeOfErr(t, err) != CodeInvalid {
			t.Errorf("PutTrace(\"\") = %v", err)
		}
	})
}
