package app

import (
	"context"
	"database/sql"
	"errors"
	"github.com/nl2sql/nl2sql/internal/config"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/pgtest"
)

// makeDB creates a real database file of driver ("sqlite" or "duckdb")
// with one table.
func makeDB(t *testing.T, driver, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open(driver, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{"CREATE TABLE sales (id INTEGER PRIMARY KEY, region TEXT, amount DOUBLE)", "INSERT INTO sales VALUES (1, 'north', 10.5), (2, 'south', 3)"} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// The threat: a user points --db at a file and gets the wrong engine (a
// DuckDB file named .db opened as SQLite), a panic, or a message that does
// not say what is wrong. Detection reads the file's header, not its name.
func TestDatabaseDetection(t *testing.T) {
	dir := t.TempDir()
	sqlitePath := makeDB(t, "sqlite", filepath.Join(dir, "shop.duckdb")) // a misleading extension
	duckPath := makeDB(t, "duckdb", filepath.Join(dir, "Warehouse 2024.db"))
	text := filepath.Join(dir, "notes.sqlite")
	os.WriteFile(text, []byte("this is not a database, just some text long enough\n"), 0o644)
	empty := filepath.Join(dir, "empty.sqlite")
	os.WriteFile(empty, nil, 0o644)
	unreadable := filepath.Join(dir, "locked.sqlite")
	os.WriteFile(unreadable, []byte("SQLite format 3\x00"), 0o000)
	cases := []struct {
		name, arg        string
		engine, id, path string
		err              string
	}{
		{"sqlite by header", sqlitePath, "sqlite", "shop", sqlitePath, ""},
		{"duckdb by header", duckPath, "duckdb", "warehouse_2024", duckPath, ""},
		{"explicit id", "sales=" + sqlitePath, "sqlite", "sales", sqlitePath, ""},
		{"text file", text, "", "", "", "is neither a SQLite nor a DuckDB database"},
		{"empty file", empty, "", "", "", "is empty"},
		{"missing file", filepath.Join(dir, "nope.sqlite"), "", "", "", "there is no file"},
		{"directory", dir, "", "", "", "is a directory"},
		{"id without a database", "sales=", "", "", "", "the database is missing"},
		{"bad id", "Sales!=" + sqlitePath, "", "", "", "must match"},
		{"malformed dsn", "postgres://u:hunter2@host:notaport/db", "", "", "", "DSN is malformed"},
		// pgx reads these as the hosts "@@" and "h@x", which would be
		// served and fail only at connect, naming a host no one wrote
		{"dsn of punctuation", "postgres://::::@@@/", "", "", "", `the host "@@" is no host name`},
		{"dsn with an unencoded @ in the password", "postgres://u:hunter2@h@x/db", "", "", "", `the host "h@x"`},
		{"dsn with a blank user", "postgres://%20@db.example/db", "", "", "", "the user"},
		{"dsn of an IPv6 address", "postgres://reader@[::1]:5433/warehouse", "postgres", "warehouse", "", ""},
		{"dsn of a socket directory", "postgres://reader@/warehouse?host=/var/run/postgresql", "postgres", "warehouse", "", ""},
		{"dsn of several hosts", "postgres://reader@db_1,db-2.example:5433/warehouse", "postgres", "warehouse", "", ""},
		{"dsn", "postgres://reader@db.example:5432/warehouse?sslmode=disable", "postgres", "warehouse", "", ""},
		// PostgreSQL (as libpq and psql) connects to the database named
		// after the user when the DSN names none: the id names that
		// database, not the host, so an error about it names what was tried
		{"dsn without database", "postgresql://reader@db.example", "postgres", "reader", "", ""},
		// libpq's keyword/value form, which pgx reads: not id=PATH
		{"keyword/value dsn", "host=db.example port=5432 dbname=warehouse user=reader", "postgres", "warehouse", "", ""},
		{"keyword/value dsn with an id", "wh=host=db.example dbname=warehouse", "postgres", "wh", "", ""},
		{"keyword/value dsn without database", "host=db.example user=reader sslmode=disable", "postgres", "reader", "", ""},
		{"id named like a keyword, of a file", "host=" + sqlitePath, "sqlite", "host", sqlitePath, ""},
		{"malformed keyword/value dsn", "host=db.example port=abc password=hunter2 dbname=x", "", "", "", "DSN is malformed: invalid port"},
		{"keyword/value dsn with an unterminated quote", "host=db.example password='x hunter2", "", "", "", "unterminated quoted string"},
		{"another database's url", "mysql://u@h/db", "", "", "", "mysql:// URLs are not supported"},
		{"sqlite url", "sqlite:///" + sqlitePath, "", "", "", "sqlite:// URLs are not supported"},
	}
	if os.Geteuid() != 0 { // root reads every file
		cases = append(cases, struct {
			name, arg        string
			engine, id, path string
			err              string
		}{"unreadable file", unreadable, "", "", "", "cannot be read"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := ConfigFromDatabases([]string{c.arg}, DatabaseOptions{Storage: filepath.Join(dir, "state")})
			if c.err != "" {
				var ee *engine.Error
				if !errors.As(err, &ee) || ee.Code != engine.CodeInvalidDatabase || !strings.Contains(ee.Msg, c.err) || ee.Hint == "" {
					t.Fatalf("want INVALID_DATABASE %q with a hint, got %v", c.err, err)
				}
				if strings.Contains(err.Error(), "hunter2") {
					t.Errorf("the error shows the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			d := cfg.Datasources[0]
			if d.Engine != c.engine || d.ID != c.id || d.Path != c.path || len(cfg.LLM) != 0 || !HostPlanning(cfg) {
				t.Errorf("got %+v (llm %v)", d, cfg.LLM)
			}
		})
	}
}

// Ids are derived from file names, sanitised, unique and deterministic;
// explicit ids win and derived ones step around them.
func TestDatabaseIDs(t *testing.T) {
	dir := t.TempDir()
	a := makeDB(t, "sqlite", filepath.Join(dir, "a", "Sales-Data.v2.sqlite"))
	b := makeDB(t, "sqlite", filepath.Join(dir, "b", "sales_data.sqlite"))
	c := makeDB(t, "sqlite", filepath.Join(dir, "2024.sqlite"))
	d := makeDB(t, "sqlite", filepath.Join(dir, "d.sqlite"))
	args := []string{a, b, c, "sales_data_2=" + d}
	// a renamed database is said on stderr: a user who names the other
	// one by its file's name would query the wrong copy
	var logged strings.Builder
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
	defer slog.SetDefault(prev)
	var first []string
	for range 2 {
		cfg, err := ConfigFromDatabases(args, DatabaseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, ds := range cfg.Datasources {
			ids = append(ids, ds.ID)
		}
		got := strings.Join(ids, ",") + " " + cfg.Storage.Path
		if first != nil && got != first[0] {
			t.Errorf("not deterministic: %s then %s", first[0], got)
		}
		first = []string{got}
		if want := "sales_data,sales_data_3,db_2024,sales_data_2"; strings.Join(ids, ",") != want {
			t.Errorf("ids %v, want %s", ids, want)
		}
	}
	if !strings.Contains(logged.String(), "id is sales_data_3") || !strings.Contains(logged.String(), "sales_data.sqlite") {
		t.Errorf("log %q: want the renamed database named with its new id", logged.String())
	}
	for _, bad := range [][]string{{"x=" + a, "x=" + b}, {a, a}} {
		if _, err := ConfigFromDatabases(bad, DatabaseOptions{Storage: t.TempDir()}); engine.AsError(err).Code != engine.CodeInvalidDatabase {
			t.Errorf("%v: want INVALID_DATABASE, got %v", bad, err)
		}
	}
}

// State goes to the user's cache directory, one directory per set of
// datasources, unless --storage says otherwise.
func TestDatabaseStorage(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // os.UserCacheDir on Linux
	t.Setenv("HOME", cache)           // and on macOS
	base, err := os.UserCacheDir()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	one := makeDB(t, "sqlite", filepath.Join(dir, "one.sqlite"))
	two := makeDB(t, "sqlite", filepath.Join(dir, "two.sqlite"))
	c1, _ := ConfigFromDatabases([]string{one}, DatabaseOptions{})
	c2, _ := ConfigFromDatabases([]string{one, two}, DatabaseOptions{})
	if !strings.HasPrefix(c1.Storage.Path, filepath.Join(base, "nl2sql")+string(filepath.Separator)) || c1.Storage.Path == c2.Storage.Path {
		t.Errorf("storage %s and %s (cache %s)", c1.Storage.Path, c2.Storage.Path, base)
	}
	own := filepath.Join(dir, "mine")
	c3, _ := ConfigFromDatabases([]string{one}, DatabaseOptions{Storage: own})
	if c3.Storage.Path != own {
		t.Errorf("--storage: %s", c3.Storage.Path)
	}
	a, err := OpenConfig(c1, slog.New(slog.NewTextHandler(io.Discard, nil)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: "What is the total amount per region?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	a.Engine.FlushTraces()
	if _, err := os.Stat(filepath.Join(c1.Storage.Path, "traces")); err != nil {
		t.Errorf("no state under %s: %v", c1.Storage.Path, err)
	}
}

// A PostgreSQL DSN given with --db opens through the real server, as a
// role that may only read, and ask without a model hands over its schema.
func TestDatabasePostgresDSN(t *testing.T) {
	r := pgtest.NewReader(t, "hostdb")
	pgtest.Exec(t, r.Super, `CREATE TABLE shipments (id BIGINT PRIMARY KEY, destination TEXT NOT NULL, shipped DATE)`,
		`GRANT SELECT ON shipments TO `+r.Role)
	u := r.URL
	cfg, err := ConfigFromDatabases([]string{"ship=" + u.String()}, DatabaseOptions{Storage: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if d := cfg.Datasources[0]; d.Engine != "postgres" || d.ID != "ship" || d.DSN != u.String() {
		t.Fatalf("datasource %+v", d)
	}
	a, err := OpenConfig(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: "How many shipments went to each destination?"})
	if err != nil {
		t.Fatal(err)
	}
	hp := res.HostPlan
	if hp == nil || hp.Dialect != "postgres" || hp.Datasource != "ship" || !strings.Contains(hp.SchemaContext, "shipments") {
		t.Errorf("host plan %+v", hp)
	}
}

// One database under several passwords (one mistyped, one changed) kept
// its state in as many cache directories, each indexed anew; another
// user or database is another state.
func TestDatabaseStorageIgnoresThePassword(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := func(dsn string) string {
		d, err := defaultStorage([]config.FlagDatasource{{ID: "shop", Engine: "postgres", DSN: dsn}})
		if err != nil {
			t.Skip(err)
		}
		return d
	}
	base := dir("postgres://reader:pw1@127.0.0.1:5432/shop?sslmode=disable")
	for _, same := range []string{"postgres://reader:other@127.0.0.1:5432/shop?sslmode=disable", "postgres://reader@127.0.0.1:5432/shop?sslmode=disable&password=x"} {
		if d := dir(same); d != base {
			t.Errorf("%s: storage %s, want %s", same, d, base)
		}
	}
	for _, other := range []string{"postgres://writer:pw1@127.0.0.1:5432/shop?sslmode=disable", "postgres://reader:pw1@127.0.0.1:5432/crm?sslmode=disable"} {
		if d := dir(other); d == base {
			t.Errorf("%s shares the state of another database or user", other)
		}
	}
	if a, b := dir("host=h user=u password=one dbname=d"), dir("host=h user=u password='two words' dbname=d"); a != b {
		t.Errorf("key=value DSNs differing in password: %s and %s", a, b)
	}
}

// A DSN that names no database connects, as libpq and psql do, to the
// database named after its user: when that one does not exist, a user
// told only "the database does not exist" could not tell which one, nor
// that the DSN lacks a /dbname. The id and the error name it; a database
// the DSN names and the server lacks is named too.
func TestDatabaseMissingFromTheDSNIsNamed(t *testing.T) {
	r := pgtest.NewReader(t, "nodb")
	u := *r.URL
	u.Path = ""
	missing := *r.URL
	missing.Path = "/no_such_db_" + r.Role
	for _, c := range []struct{ dsn, id, want string }{
		{u.String(), r.Role, `the database "` + r.Role + `" does not exist: the DSN names no database, so PostgreSQL connects to the one named after the user (hint: name the database in the DSN`},
		{missing.String(), "no_such_db_" + r.Role, `the database "no_such_db_` + r.Role + `" does not exist (hint: check the database name`},
	} {
		cfg, err := ConfigFromDatabases([]string{c.dsn}, DatabaseOptions{Storage: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if id := cfg.Datasources[0].ID; id != c.id {
			t.Errorf("%s: id %q, want %q (the database it connects to)", c.dsn, id, c.id)
		}
		var out strings.Builder
		_ = DoctorConfig(context.Background(), cfg, "--db", &out)
		if !strings.Contains(out.String(), c.want) || strings.Contains(out.String(), ":pw@") {
			t.Errorf("doctor says\n%s\nwant %q", out.String(), c.want)
		}
	}
}
