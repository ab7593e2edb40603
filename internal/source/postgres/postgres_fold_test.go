package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/render"
)

// A user on a database created with LC_CTYPE C (the default of many
// installers and of containers) searching case-insensitively for
// "ångström" must find "Zoë Ångström": the adapter names a collation that
// folds every letter, and the renderer's LOWER under it finds the row
// where the database's own LOWER does not.
func TestFoldCollationFindsLettersBeyondASCII(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE people (name text)", "INSERT INTO people VALUES ('Zoë Ångström'), ('Ann')")
	p := openPGTest(t, f.ReadOnly, source.Options{})
	ctx := context.Background()
	res, err := p.Query(ctx, pgFoldsItself, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if itself, _ := res.Rows[0][0].(bool); itself {
		if p.FoldCollation() != "" {
			t.Errorf("the database folds every letter itself, yet the adapter names %q", p.FoldCollation())
		}
		t.Skip("the test server's LC_CTYPE folds every letter: no fold collation needed")
	}
	if p.FoldCollation() == "" {
		t.Fatal("LC_CTYPE C and no fold collation: case-insensitive matches miss letters beyond A-Z")
	}
	d := render.WithFold(render.Postgres{}, p.FoldCollation())
	lower := func(x string) string { s, _ := d.Func("LOWER", []string{x}); return s }
	upper := func(x string) string { s, _ := d.Func("UPPER", []string{x}); return s }
	res, err = p.Query(ctx, "SELECT name, "+upper("name")+" FROM people WHERE "+lower("name")+" LIKE "+lower("'%ÅNGSTRÖM%'"), nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || res.Rows[0][0] != "Zoë Ångström" || res.Rows[0][1] != "ZOË ÅNGSTRÖM" {
		t.Errorf("case-insensitive search under %q found %v, want [[Zoë Ångström ZOË ÅNGSTRÖM]]", p.FoldCollation(), res.Rows)
	}
}

// Only the server's refusal of a collation passes it over; a check that
// could not run (the open cancelled as a one-shot command ended, a
// timeout, a lost server) is no finding, where it used to end in the
// warning that the database folds only A-Z although a UTF-8 collation was
// there and in use the next run.
func TestFoldCheckThatCouldNotRunIsNoFinding(t *testing.T) {
	for _, c := range []struct {
		code string
		skip bool
	}{
		{source.CodeQueryFailed, true},
		{source.CodeCancelled, false},
		{source.CodeTimeout, false},
		{source.CodeUnavailable, false},
	} {
		err := fmt.Errorf("try: %w", source.Errorf(c.code, nil, "", "x"))
		if got := loadFailed(err); got != c.skip {
			t.Errorf("%s: passed over = %v, want %v", c.code, got, c.skip)
		}
	}
	if loadFailed(context.Canceled) {
		t.Error("a bare context error passed the collation over")
	}
}
