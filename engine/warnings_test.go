package engine

import (
	"context"
	"strings"
	"testing"
)

// A supplied plan joining on keys that are no foreign key still runs, and
// the result says so: a planner that joined Album.AlbumId to
// Artist.ArtistId learns that its rows may be nonsense.
func TestRunPlanWarnsUndeclaredJoin(t *testing.T) {
	e := chinookEngine(t, "")
	join := func(lc string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"column","table":"ar","column":"Name"},"alias":"n"}],
			"from":[{"table":"Album","alias":"al"},{"table":"Artist","alias":"ar"}],
			"joins":[{"type":"inner","left":"al","right":"ar","on":[{"left_column":"` + lc + `","right_column":"ArtistId"}]}],"limit":1}`)
	}
	res, err := e.RunPlan(context.Background(), "chinook", join("AlbumId"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "no foreign key or declared relationship joins al.AlbumId to ar.ArtistId") {
		t.Errorf("warnings %q", res.Warnings)
	}
	res, err = e.RunPlan(context.Background(), "chinook", join("ArtistId"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "foreign key") {
			t.Errorf("a foreign-key join was warned about: %q", w)
		}
	}
}
