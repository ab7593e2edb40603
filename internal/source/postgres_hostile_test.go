package source

import (
	"context"
	"strings"
	"testing"
	"time"
)

// wantPGHostileCode is the code each PostgreSQL case must fail with
// through Query; anything not listed is READ_ONLY_VIOLATION.
var wantPGHostileCode = map[string]string{
	"-- weekly":             CodeQueryFailed, // no statement
	"SELECT pg_sleep(3600)": CodeTimeout,
}

// pgHostileFixture is a database with a table t (and its sequence t_id_seq)
// for the hostile cases, and a function that reports t's contents.
func pgHostileFixture(t *testing.T) (*pgFixture, func() string) {
	f := newPGFixture(t, "CREATE TABLE t (id serial PRIMARY KEY, a integer)", "INSERT INTO t (a) VALUES (1), (2)")
	contents := func() string {
		return pgQueryString(t, f.Super, `SELECT (SELECT string_agg(id || ':' || a, ',' ORDER BY id) FROM t)
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
	cases := hostileCasesFor(t, "postgres")
	f, contents := pgHostileFixture(t)
	before, tmp := contents(), tmpState(t, cases)

	p := openPGTest(t, f.ReadOnly, Options{Timeout: time.Second})
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			start := time.Now()
			res, err := p.Query(context.Background(), c.sql, nil, 10)
			if err == nil {
				t.Fatalf("accepted, returned %+v", res)
			}
			se := asError(t, err)
			want := CodeReadOnly
			if w, ok := wantPGHostileCode[c.sql]; ok {
				want = w
			}
			if se.Code != want {
				t.Errorf("code %s (%v), want %s", se.Code, se, want)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
	res, err := p.Query(context.Background(), "SELECT count(*) FROM t", nil, 10)
	if err != nil || res.Rows[0][0] != int64(2) {
		t.Errorf("after the hostile cases: %v, %v", res, err)
	}
	if after := contents(); after != before {
		t.Errorf("the database changed: %s, was %s", after, before)
	}
	if got := tmpState(t, cases); !equalMaps(got, tmp) {
		t.Errorf("/tmp/hostile* changed: %v, was %v", got, tmp)
	}
}

// TestPostgresHostileBelowLexicalGate sends the same cases past Query's
// lexical check, straight to fetch, as the read-only role: the read-only
// transaction, the role's privileges, the extended protocol and the
// rollback must hold on their own. A SET may run (PostgreSQL allows it in a
// read-only transaction) but the rollback undoes it.
func TestPostgresHostileBelowLexicalGate(t *testing.T) {
	cases := hostileCasesFor(t, "postgres")
	f, contents := pgHostileFixture(t)
	before, tmp := contents(), tmpState(t, cases)
	p := openPGTest(t, f.ReadOnly, Options{Timeout: time.Second})
	for _, c := range cases {
		_, err := p.fetch(context.Background(), c.sql, nil, 10)
		shape, _ := shapeOfDialect("postgres", c.sql)
		if err == nil {
			if shape.Keyword != "SET" && !shape.Empty {
				t.Errorf("%q: accepted by the engine", c.sql)
			}
			continue
		}
		se := asError(t, err)
		t.Logf("%-70q %s", c.sql, se)
		if se.Code != CodeReadOnly && se.Code != CodeQueryFailed && se.Code != CodeTimeout {
			t.Errorf("%q: code %s", c.sql, se.Code)
		}
		if shape.Multiple && (se.Code != CodeReadOnly || !strings.Contains(se.Msg, "multiple commands")) {
			t.Errorf("%q: several statements gave %v", c.sql, se)
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
	if got := tmpState(t, cases); !equalMaps(got, tmp) {
		t.Errorf("/tmp/hostile* changed: %v, was %v", got, tmp)
	}
}
