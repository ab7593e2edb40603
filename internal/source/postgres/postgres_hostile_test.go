package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// wantPGHostileCode is the code each PostgreSQL case must fail with
// through Query; anything not listed is READ_ONLY_VIOLATION.
var wantPGHostileCode = map[string]string{
	"-- weekly":             source.CodeQueryFailed, // no statement
	"SELECT pg_sleep(3600)": source.CodeTimeout,
}

// pgHostileFixture is a database with a table t (and its sequence t_id_seq)
// for the hostile cases, and a function that reports t's contents.
func pgHostileFixture(t *testing.T) (*sourcetest.PGFixture, func() string) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE t (id serial PRIMARY KEY, a integer)", "INSERT INTO t (a) VALUES (1), (2)")
	contents := func() string {
		return sourcetest.PGQueryString(t, f.Super, `SELECT (SELECT string_agg(id || ':' || a, ',' ORDER BY id) FROM t)
			|| ' seq=' || (SELECT last_value FROM t_id_seq)
			|| ' tables=' || (SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace)
			|| ' lo=' || (SELECT count(*) FROM pg_largeobject_metadata)`)
	}
	return f, contents
}

// TestPostgresHostileCurated sends every postgres and any line of the
// hostile curated SQL straight to Query as the read-only role. Each must be
// refused with a typed error (pg_sleep(3600) ends by the timeout);
// afterwards t, its sequence, the schema and the large objects are
// unchanged, no /tmp/hostile* entry appeared, and the adapter still
// answers.
func TestPostgresHostileCurated(t *testing.T) {
	cases := sourcetest.HostileCasesFor(t, "postgres")
	f, contents := pgHostileFixture(t)
	before, tmp := contents(), sourcetest.TmpState(t, cases)

	p := openPGTest(t, f.ReadOnly, source.Options{Timeout: time.Second})
	sourcetest.RunHostileQueries(t, p, cases, wantPGHostileCode, 5*time.Second, "")
	if after := contents(); after != before {
		t.Errorf("the database changed: %s, was %s", after, before)
	}
	if got := sourcetest.TmpState(t, cases); !sourcetest.EqualMaps(got, tmp) {
		t.Errorf("/tmp/hostile* changed: %v, was %v", got, tmp)
	}
}

// TestPostgresHostileBelowLexicalGate sends the same cases past Query's
// lexical check, straight to fetch, as the read-only role: the read-only
// transaction, the role's privileges, the extended protocol and the
// rollback must hold on their own. A SET may run (PostgreSQL allows it in a
// read-only transaction) but the rollback undoes it.
func TestPostgresHostileBelowLexicalGate(t *testing.T) {
	cases := sourcetest.HostileCasesFor(t, "postgres")
	f, contents := pgHostileFixture(t)
	before, tmp := contents(), sourcetest.TmpState(t, cases)
	p := openPGTest(t, f.ReadOnly, source.Options{Timeout: time.Second})
	for _, c := range cases {
		_, err := p.fetch(context.Background(), c.SQL, nil, 10)
		shape, _ := source.ShapeOf("postgres", c.SQL)
		if err == nil {
			if shape.Keyword != "SET" && !shape.Empty {
				t.Errorf("%q: accepted by the engine", c.SQL)
			}
			continue
		}
		se := sourcetest.AsError(t, err)
		t.Logf("%-70q %s", c.SQL, se)
		if se.Code != source.CodeReadOnly && se.Code != source.CodeQueryFailed && se.Code != source.CodeTimeout {
			t.Errorf("%q: code %s", c.SQL, se.Code)
		}
		if shape.Multiple && (se.Code != source.CodeReadOnly || !strings.Contains(se.Msg, "multiple commands")) {
			t.Errorf("%q: several statements gave %v", c.SQL, se)
		}
	}
	for range 8 { // every pooled connection
		res, err := p.Query(context.Background(), "SELECT current_setting('default_transaction_read_only')", nil, 1)
		if err != nil || res.Rows[0][0] != "on" {
			t.Errorf("a SET outlived its transaction: %v, %v", res, err)
		}
	}
	if after := contents(); after != before {
		t.Errorf("the database changed: %s, was %s", after, before)
	}
	if got := sourcetest.TmpState(t, cases); !sourcetest.EqualMaps(got, tmp) {
		t.Errorf("/tmp/hostile* changed: %v, was %v", got, tmp)
	}
}
