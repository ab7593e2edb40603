package app

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/source"
)

// Zero-config start: `nl2sql serve --db FILE_OR_DSN` (repeatable) instead
// of a config file.
//
//   - A file is told apart by its first bytes, not its name: "SQLite
//     format 3\0" is SQLite, "DUCK" at offset 8 is DuckDB; anything else
//     (a text file, an empty file) is refused.
//   - postgres:// and postgresql:// are PostgreSQL DSNs, and so is libpq's
//     keyword/value form ("host=db port=5432 dbname=shop user=me"), told
//     by its first keyword being one of libpq's: both are parsed with
//     pgx's own parser (the one that will connect).
//   - The id is the file's name without its extension (the DSN's database
//     name; a DSN that names none connects, as libpq and psql do, to the
//     database named after its user, whose name it then takes),
//     lower-cased, every run of other characters
//     turned into "_", "db_" in front when it does not start with a
//     letter; a repeat gets _2, _3 in argument order. `--db id=PATH`
//     names it instead.
//   - State (snapshots, plan cache, traces) goes to
//     os.UserCacheDir()/nl2sql/<ids>-<hash of the datasources>, or
//     --storage DIR.
//
// Each problem is an engine.Error with code INVALID_DATABASE and a hint.

// DatabaseHint is the hint of every --db error.
const DatabaseHint = "--db takes a SQLite or DuckDB database file or a postgres://user@host/db DSN, optionally as id=FILE_OR_DSN"

var (
	flagID   = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	notIDRun = regexp.MustCompile(`[^a-z0-9]+`)
)

// DatabaseOptions are the flags that go with --db.
type DatabaseOptions struct {
	// Storage is the state directory (--storage); "" is the user's cache
	// directory.
	Storage string
	// AllowWritableRole (--allow-writable-role) sets allow_writable_role on
	// every postgres datasource: a role that can write (a superuser on a
	// development database) opens with a warning instead of being refused;
	// queries still run READ ONLY. Files are unaffected.
	AllowWritableRole bool
}

// ConfigFromDatabases builds the configuration of `--db` arguments (see
// above) with the options of o.
func ConfigFromDatabases(args []string, o DatabaseOptions) (*config.Config, error) {
	storage := o.Storage
	if len(args) == 0 {
		return nil, dbError("", "no database given", "")
	}
	dss := make([]config.FlagDatasource, 0, len(args))
	explicit := map[string]bool{}
	seenTarget := map[string]string{}
	for _, a := range args {
		d, err := parseDatabase(a)
		if err != nil {
			return nil, err
		}
		target := d.Path + d.DSN
		if prev, dup := seenTarget[target]; dup {
			return nil, dbError(a, fmt.Sprintf("the same database is given twice (also as %q)", prev), "")
		}
		seenTarget[target] = a
		if d.ID != "" {
			if explicit[d.ID] {
				return nil, dbError(a, fmt.Sprintf("the id %q is given twice", d.ID), "give each database its own id=")
			}
			explicit[d.ID] = true
		}
		d.AllowWritableRole = o.AllowWritableRole && d.Engine == "postgres"
		dss = append(dss, d)
	}
	used := map[string]bool{}
	for id := range explicit {
		used[id] = true
	}
	for i := range dss {
		if dss[i].ID != "" {
			continue
		}
		base := derivedID(dss[i])
		id := base
		for n := 2; used[id]; n++ {
			id = fmt.Sprintf("%s_%d", base, n)
		}
		if id != base {
			// a user who then names the datasource by its file's name
			// reaches the other one: said where the user looks first
			where := dss[i].Path
			if where == "" {
				where = withoutPassword(dss[i].DSN)
			}
			slog.Warn("--db: another database already has this name, so this one's id is "+id+" (write --db NAME=PATH to choose it)", "id", id, "database", where)
		}
		used[id] = true
		dss[i].ID = id
	}
	if storage == "" {
		dir, err := defaultStorage(dss)
		if err != nil {
			return nil, err
		}
		storage = dir
	} else if abs, err := filepath.Abs(storage); err == nil {
		storage = abs
	}
	return config.FromFlags(dss, storage)
}

// parseDatabase reads one --db argument.
func parseDatabase(arg string) (config.FlagDatasource, error) {
	var d config.FlagDatasource
	s := strings.TrimSpace(arg)
	if s == "" {
		return d, dbError(arg, "the argument is empty", "")
	}
	// id=PATH, unless the whole is a DSN: a keyword/value DSN also starts
	// with "word=", and is one unless what follows is a file
	// ("host=h.sqlite" names the file h.sqlite "host")
	if id, rest, ok := strings.Cut(s, "="); ok && !exists(s) && (!isDSN(s) || !isURL(s) && isFile(strings.TrimSpace(rest))) {
		if !flagID.MatchString(id) {
			return d, dbError(arg, fmt.Sprintf("the id %q must match %s (lower-case letters, digits, _)", id, flagID), "")
		}
		d.ID, s = id, strings.TrimSpace(rest)
		if s == "" {
			return d, dbError(arg, fmt.Sprintf("nothing follows %q: the database is missing", id+"="), "")
		}
	}
	if isDSN(s) {
		if _, why, hint := ParseDSN(s); why != "" {
			return d, dbError(arg, "the PostgreSQL DSN is malformed: "+why, hint)
		}
		d.Engine, d.DSN = "postgres", s
		return d, nil
	}
	if scheme, _, ok := strings.Cut(s, "://"); ok && urlScheme.MatchString(scheme) && !exists(s) {
		// mysql://, sqlite:///x, duckdb://…: a URL nl2sql does not read,
		// not a file name with a colon in it
		return d, dbError(arg, fmt.Sprintf("%s:// URLs are not supported", strings.ToLower(scheme)),
			"give a SQLite or DuckDB file by its path (no sqlite:// prefix), or a PostgreSQL server as postgres://user@host:5432/dbname")
	}
	abs, err := filepath.Abs(s)
	if err != nil {
		return d, dbError(arg, "the path is not usable: "+err.Error(), "")
	}
	eng, err := sniff(abs)
	if err != nil {
		return d, dbError(arg, err.Error(), "")
	}
	d.Engine, d.Path = eng, abs
	return d, nil
}

// ParseDSN parses a PostgreSQL DSN (URL or keyword/value) with pgx's
// parser, as the connection will, and refuses what dsnNonsense finds. why
// is "" when it is usable, else the reason, without the DSN (pgx's text
// quotes it, and masks a password only where it can tell one) and with
// any password masked, and hint how to write one.
func ParseDSN(dsn string) (c *pgconn.Config, why, hint string) {
	c, err := pgconn.ParseConfig(dsn)
	if err != nil {
		why = err.Error()
		if pe := (*pgconn.ParseConfigError)(nil); errors.As(err, &pe) {
			if _, reason, ok := strings.Cut(why, "`: "); ok {
				why = reason
			}
			if ue := (*url.Error)(nil); errors.As(err, &ue) {
				// url's text quotes the URL too
				why = strings.Replace(why, ue.Error(), ue.Err.Error(), 1)
			}
		}
		return nil, redactDSN(why, dsn), "write it as postgres://user@host:5432/dbname?sslmode=disable, or as host=HOST port=5432 dbname=DB user=USER"
	}
	if why := dsnNonsense(c); why != "" {
		return nil, redactDSN(why, dsn), dsnHint
	}
	return c, "", ""
}

// dsnHint says how to write a DSN, and the usual cause of one that reads
// as nonsense: a password holding @, : or / unencoded moves the split
// between user, password and host.
const dsnHint = "write it as postgres://user:password@host:5432/dbname?sslmode=disable; percent-encode @, : and / in the user or password (%40, %3A, %2F)"

// hostName is a host name as DNS and /etc/hosts spell one (underscores,
// as container names have, and non-ASCII letters allowed).
var hostName = regexp.MustCompile(`^[\p{L}\p{N}_-]+(\.[\p{L}\p{N}_-]+)*\.?$`)

// dsnNonsense says what a DSN pgx parsed names that no server can be, ""
// when nothing: pgx reads what it is given leniently (postgres://::::@@@/
// is the host "@@" and the login's own user), so such a DSN would be
// served and fail only at connect, with an error about a host no one
// wrote. A host must be a name, an IP address or a socket directory; a
// user name must not be blank or hold control characters.
func dsnNonsense(c *pgconn.Config) string {
	hosts := []string{c.Host}
	for _, f := range c.Fallbacks {
		hosts = append(hosts, f.Host)
	}
	for _, h := range hosts {
		if strings.HasPrefix(h, "/") || hostName.MatchString(h) {
			continue
		}
		if _, err := netip.ParseAddr(h); err == nil {
			continue
		}
		return fmt.Sprintf("the host %q is no host name, IP address or socket directory", h)
	}
	if strings.TrimSpace(c.User) == "" || strings.ContainsFunc(c.User, unicode.IsControl) {
		return fmt.Sprintf("the user %q is blank or holds control characters", c.User)
	}
	return ""
}

// sniff tells SQLite from DuckDB by the file's first bytes.
func sniff(path string) (string, error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("there is no file %s", path)
	case err != nil:
		return "", fmt.Errorf("%s cannot be read: %v", path, unwrapPath(err))
	case fi.IsDir():
		return "", fmt.Errorf("%s is a directory, not a database file", path)
	case fi.Size() == 0:
		return "", fmt.Errorf("%s is empty: neither a SQLite nor a DuckDB database", path)
	}
	engine, err := source.FileEngine(path)
	if err != nil {
		return "", fmt.Errorf("%s cannot be read: %v", path, unwrapPath(err))
	}
	if engine != "" {
		return engine, nil
	}
	return "", fmt.Errorf("%s is neither a SQLite nor a DuckDB database (its first bytes are not either's file header)", path)
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// urlScheme is a URL scheme as RFC 3986 spells it.
var urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*$`)

func isDSN(s string) bool {
	return isURL(s) || isKeywordValue(s)
}

func isURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// firstKeyword is the first "keyword =" of a keyword/value DSN.
var firstKeyword = regexp.MustCompile(`^\s*([A-Za-z_]+)\s*=`)

// libpqKeywords are libpq's connection keywords (which pgx reads too): a
// --db argument starting with one of them is a keyword/value DSN, not
// an id= naming a file.
var libpqKeywords = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true, "password": true, "passfile": true,
	"require_auth": true, "channel_binding": true, "connect_timeout": true, "client_encoding": true, "options": true,
	"application_name": true, "fallback_application_name": true, "keepalives": true, "keepalives_idle": true,
	"keepalives_interval": true, "keepalives_count": true, "tcp_user_timeout": true, "gssencmode": true,
	"sslmode": true, "sslnegotiation": true, "sslcompression": true, "sslcert": true, "sslkey": true, "sslpassword": true,
	"sslcertmode": true, "sslrootcert": true, "sslcrl": true, "sslcrldir": true, "sslsni": true, "requirepeer": true,
	"ssl_min_protocol_version": true, "ssl_max_protocol_version": true, "krbsrvname": true, "gsslib": true,
	"gssdelegation": true, "service": true, "target_session_attrs": true, "load_balance_hosts": true,
}

func isKeywordValue(s string) bool {
	m := firstKeyword.FindStringSubmatch(s)
	return m != nil && libpqKeywords[strings.ToLower(m[1])]
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// derivedID is a datasource's id from its file name or DSN.
func derivedID(d config.FlagDatasource) string {
	var name string
	if d.DSN != "" {
		if c, why, _ := ParseDSN(d.DSN); why == "" {
			// PostgreSQL's default database is the one named after the
			// user: the id names the database served, not a host
			name = c.Database
			if name == "" {
				name = c.User
			}
		}
		if name == "" {
			name = "postgres"
		}
	} else {
		name = filepath.Base(d.Path)
		if i := strings.IndexByte(name, '.'); i > 0 {
			name = name[:i]
		}
	}
	id := strings.Trim(notIDRun.ReplaceAllString(strings.ToLower(name), "_"), "_")
	if id == "" || id[0] < 'a' || id[0] > 'z' {
		id = "db_" + id
	}
	return strings.TrimSuffix(id, "_")
}

// defaultStorage is os.UserCacheDir()/nl2sql/<ids>-<hash>: the same
// databases always share their state, different ones never do.
func defaultStorage(dss []config.FlagDatasource) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", dbError("", "there is no user cache directory for the state ("+err.Error()+")", "pass --storage DIR")
	}
	h := sha256.New()
	var ids []string
	for _, d := range dss {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\n", d.ID, d.Engine, d.Path, withoutPassword(d.DSN))
		ids = append(ids, d.ID)
	}
	name := strings.Join(ids, "+")
	if len(name) > 40 {
		name = name[:40]
	}
	return filepath.Join(base, "nl2sql", name+"-"+hex.EncodeToString(h.Sum(nil))[:12]), nil
}

// withoutPassword is dsn with its password left out: a password changed
// (or mistyped once) names the same database, whose state it keeps.
func withoutPassword(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.Scheme != "" {
		if u.User != nil {
			u.User = url.User(u.User.Username())
		}
		q := u.Query()
		if q.Has("password") {
			q.Del("password")
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	return kvPassword.ReplaceAllString(dsn, "${1}")
}

// dsnPassword is the password of a URL-form DSN, even one that does not
// parse (a bad port).
var dsnPassword = regexp.MustCompile(`(://[^:/@\s]*:)[^@\s]*@`)

// redactDSN keeps a password out of an error message: the URL form's,
// and the DSN's own (pgx may quote it in its message).
func redactDSN(msg, dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && p != "" {
			msg = strings.ReplaceAll(msg, p, "xxxxx")
		}
	}
	msg = dsnPassword.ReplaceAllString(msg, "${1}xxxxx@")
	return kvPassword.ReplaceAllString(msg, "${1}xxxxx")
}

// kvPassword is the password of a keyword/value DSN ("host=h
// password=secret"), quoted or not; an unterminated quote (which does not
// parse) runs to the end, all of it masked.
var kvPassword = regexp.MustCompile(`(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*(?:'|$)|\S+)`)

// DSNLocation names where a PostgreSQL DSN leads, for messages:
// postgres://user@host:port/dbname, without password or parameters, for
// either form of DSN (URL or keyword/value); "postgres DSN" when it does
// not parse.
func DSNLocation(dsn string) string {
	c, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return "postgres DSN"
	}
	u := url.URL{Scheme: "postgres", Host: net.JoinHostPort(c.Host, strconv.Itoa(int(c.Port))), Path: "/" + c.Database}
	if c.User != "" {
		u.User = url.User(c.User)
	}
	return u.String()
}

func dbError(arg, msg, hint string) error {
	if hint == "" {
		hint = DatabaseHint
	}
	if arg != "" {
		// the reason too: it may quote the argument (a path that is a
		// mistyped DSN), password and all
		msg = fmt.Sprintf("--db %s: %s", redactDSN(arg, arg), redactDSN(msg, arg))
	}
	return &engine.Error{Code: engine.CodeInvalidDatabase, Msg: msg, Hint: hint}
}
