package index

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
)

func TestEdgeCases(t *testing.T) {
	ctx := context.Background()
	empty, err := Build(ctx, &schema.Snapshot{Datasource: "e"}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	for _, ix := range []*Index{empty} {
		sel, err := ix.Retrieve(ctx, "anything at all", retrieveOnly, nil)
		if err != nil || len(sel.Tables) != 0 {
			t.Errorf("empty snapshot: %+v, %v", sel, err)
		}
	}
	ix, err := Build(ctx, smallSnapshot(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for _, q := range []string{"", "   ", "?!", "the of and", "ÜÑÎÇÔDÉ 😀 ' \" ; DROP TABLE x; --"} {
		if _, err := ix.Retrieve(ctx, q, retrieveOnly, nil); err != nil {
			t.Errorf("Retrieve(%q): %v", q, err)
		}
	}
	none := func(string, string, string) bool { return false }
	sel, err := ix.Retrieve(ctx, "customers", retrieveOnly, none)
	if err != nil || len(sel.Tables) != 0 || len(sel.Values) != 0 {
		t.Errorf("deny-all: %+v, %v", sel, err)
	}
	sel, err = ix.Retrieve(ctx, "customers", Budget{}, none)
	if err != nil || len(sel.Tables) != 0 || !sel.Whole {
		t.Errorf("deny-all whole: %+v, %v", sel, err)
	}
	if _, err := Build(ctx, nil, nil, Options{}); err == nil {
		t.Error("Build(nil) succeeded")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ix.Retrieve(cctx, "customers", retrieveOnly, nil); err == nil {
		t.Error("Retrieve with a cancelled context succeeded")
	}
}
