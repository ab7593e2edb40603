package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
)

// pgMaxMessageBytes caps one protocol message from the server, so one row
// (SELECT repeat('x', 1e9)) cannot take a gigabyte of the process.
const pgMaxMessageBytes = 4 * source.MaxValueBytes

// pgTimeoutGrace is how much longer than Options.Timeout the client waits
// before it gives up on the server: the server's statement_timeout ends a
// slow statement first and the connection stays usable.
const pgTimeoutGrace = 2 * time.Second

// connectTimeout bounds a connection's dial and start-up when the DSN sets
// no connect_timeout (a variable so that tests wait less).
var connectTimeout = 10 * time.Second

// pgDefaultSearchPath is the search_path of every session unless the DSN
// names one.
const pgDefaultSearchPath = "public"

// Postgres is the adapter for one PostgreSQL database, reached through a
// pgx connection pool. It is safe for concurrent use.
//
// Read-only holds at several levels:
//
//   - OpenPostgres refuses a role that can write (see checkRole) unless
//     Options.AllowWritableRole;
//   - every statement runs in its own BEGIN READ ONLY transaction, which
//     is always rolled back (so even set_config(…, false) does not outlive
//     the query), with SET LOCAL statement_timeout from Options.Timeout;
//   - the query goes over the extended protocol only (pgx's default exec
//     mode: Parse/Bind/Execute), where PostgreSQL refuses a text of more
//     than one statement;
//   - sessions start with standard_conforming_strings=on, a fixed
//     search_path, default_transaction_read_only=on, TimeZone=UTC,
//     IntervalStyle=iso_8601 and application_name=nl2sql;
//   - Query applies the lexical single-statement gate first.
//
// A SELECT runs under an outer LIMIT maxRows+1 (see pgCapped), so the
// server plans for and produces no more rows than Query reads; any other
// text is read row by row, and once maxRows+1 rows have arrived the
// connection is closed rather than drained, so the server stops sending.
//
// Profiles are cached while the cluster's transaction snapshot
// (pg_current_snapshot) stays the same: any committed write changes it, so
// profiling an unchanged database again costs one query.
type Postgres struct {
	id       string
	opts     source.Options
	pool     *pgxpool.Pool
	profiles source.ProfileCache
	fold     string // see FoldCollation
}

// OpenPostgres connects to the PostgreSQL database of dsn (a URL or
// key=value connection string) as datasource id. It fails with
// CodeUnavailable when the DSN does not parse, the server cannot be
// reached, the role cannot log in, the database does not exist, or the role
// can write (superuser; INSERT, UPDATE, DELETE or TRUNCATE on, or ownership
// of, a relation of a visible schema; CREATE on such a schema or on the
// database; membership of pg_write_server_files or
// pg_execute_server_program) and Options.AllowWritableRole is false; with
// it true a writable role is logged as a warning. Messages never hold the
// DSN. ctx bounds the connection and the role check (as does the larger of
// Options.Timeout and 10s).
func OpenPostgres(ctx context.Context, id, dsn string, opts source.Options) (*Postgres, error) {
	opts = opts.WithDefaults()
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		msg := "the connection string does not parse"
		if scheme, _, ok := strings.Cut(dsn, "://"); ok && scheme != "postgres" && scheme != "postgresql" {
			// the DSN is never shown (it may hold a password); its
			// scheme is no secret and is what a typo most often breaks
			msg += fmt.Sprintf(": its scheme is %q, where PostgreSQL's is \"postgres\" (or \"postgresql\")", scheme)
		}
		return nil, source.Errorf(source.CodeUnavailable, err, dsnHint, "%s", msg)
	}
	cfg.MaxConns = source.QueryConns
	cfg.ConnConfig.MaxProtocolMessageBodyLen = pgMaxMessageBytes
	if cfg.ConnConfig.ConnectTimeout == 0 {
		// a DSN without connect_timeout waits for ever on a server that
		// accepts the connection and never answers, and the open then
		// failed at the query's limit, blaming busy connections
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	rp := cfg.ConnConfig.RuntimeParams
	if rp["search_path"] == "" {
		rp["search_path"] = pgDefaultSearchPath
	}
	rp["application_name"] = "nl2sql"
	rp["standard_conforming_strings"] = "on"
	rp["default_transaction_read_only"] = "on"
	rp["TimeZone"] = "UTC"
	rp["DateStyle"] = "ISO, YMD"
	rp["IntervalStyle"] = "iso_8601"
	rp["idle_in_transaction_session_timeout"] = strconv.FormatInt((opts.Timeout + pgTimeoutGrace).Milliseconds(), 10)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, source.Errorf(source.CodeUnavailable, err, dsnHint, "the connection pool could not be set up")
	}
	p := &Postgres{id: id, opts: opts, pool: pool}
	if err := p.checkRole(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	if err := p.findFold(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return p, nil
}

// ID returns the datasource id.
func (p *Postgres) ID() string { return p.id }

// Dialect returns "postgres".
func (p *Postgres) Dialect() string { return schema.DialectPostgres }

// Close closes the pool.
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

// Query runs one read-only statement with args bound to its $N parameters
// and returns at most maxRows rows (Options.RowLimit when maxRows ≤ 0 or
// larger), setting Truncated when another row exists. It stops at
// Options.Timeout (the server's statement_timeout) or when ctx ends
// (TIMEOUT, CANCELLED), and refuses with CodeReadOnly any text that is not
// one SELECT, WITH or VALUES statement and anything the read-only
// transaction or the role's privileges refuse.
func (p *Postgres) Query(ctx context.Context, sqlText string, args []any, maxRows int) (*source.Result, error) {
	if err := source.CheckStatement(schema.DialectPostgres, sqlText); err != nil {
		return nil, err
	}
	if maxRows <= 0 || maxRows > p.opts.RowLimit {
		maxRows = p.opts.RowLimit
	}
	raw, err := p.fetch(ctx, sqlText, args, maxRows)
	if err != nil {
		p.nameTheGrant(ctx, err, sqlText)
		return nil, err
	}
	return raw.EncodeWith(pgColumn, pgValue), nil
}

// nameTheGrant writes into a refused read's hint the GRANT that restores
// it, naming the role the server connects as and the relation or schema
// as the catalog has them: PostgreSQL's message names the relation
// without its schema ("permission denied for table Invoice") and never
// the role, and the administrator reading the hint needs both. Without an
// answer from the catalog the hint stays the general one.
func (p *Postgres) nameTheGrant(ctx context.Context, err error, sqlText string) {
	var se *source.Error
	var pe *pgconn.PgError
	if !errors.As(err, &se) || !errors.As(err, &pe) || pe.Code != "42501" || !readPrivilege(pe.Message) {
		return
	}
	kind, name, ok := strings.Cut(strings.TrimPrefix(pe.Message, "permission denied for "), " ")
	if !ok || kind == "column" {
		return
	}
	if kind == "materialized" {
		name = strings.TrimPrefix(name, "view ")
	}
	raw, qerr := p.fetch(ctx, `SELECT current_user::text, n.nspname::text, c.relname::text
		FROM (SELECT 1) one LEFT JOIN (pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace)
			ON c.relname = $1 AND has_schema_privilege(n.oid, 'USAGE') AND NOT has_table_privilege(c.oid, 'SELECT')`,
		[]any{name}, 8)
	if qerr != nil || len(raw.Rows) == 0 {
		return
	}
	rows := raw.Rows
	role := render.GrantName(source.AsString(rows[0][0]))
	grant := "GRANT USAGE ON SCHEMA " + render.GrantName(name)
	if kind != "schema" {
		// the one the statement names when several schemas hold a
		// relation of that name the role may not read
		var found []string
		for _, r := range rows {
			sch, rel := source.AsString(r[1]), source.AsString(r[2])
			if rel == "" {
				continue
			}
			found = append(found, render.GrantName(sch)+"."+render.GrantName(rel))
			if strings.Contains(sqlText, render.QuoteIdent(sch)+"."+render.QuoteIdent(rel)) {
				found = found[len(found)-1:]
				break
			}
		}
		if len(found) != 1 {
			return
		}
		grant = "GRANT SELECT ON " + found[0]
	}
	se.Msg = strings.Replace(se.Msg, "the database role ", "the database role "+role+" ", 1)
	se.Hint = "an administrator can restore it with " + grant + " TO " + role + "; until then, leave the table out of the question (a table whose privilege was revoked leaves the schema nl2sql reads within seconds)"
}

// fetch runs sqlText in a read-only transaction on one pooled connection
// and reads at most maxRows rows, and one more to learn whether rows were
// left. Values are pgx's, except JSON, which is its text.
func (p *Postgres) fetch(ctx context.Context, sqlText string, args []any, maxRows int) (*source.RawResult, error) {
	ctx, cancel := context.WithTimeout(ctx, p.opts.Timeout+pgTimeoutGrace)
	defer cancel()
	fail := func(err error) error {
		if e := source.CtxError(ctx, p.opts.Timeout); e != nil {
			return e
		}
		return pgError(err, p.opts.Timeout)
	}
	raw, lost, err := p.fetchOn(ctx, sqlText, args, maxRows, fail)
	if lost && ctx.Err() == nil {
		// a pooled connection the server had closed (a restart, a
		// failover, an idle connection killed): nothing ran on it, so the
		// statement goes again on a new one rather than failing a question
		raw, _, err = p.fetchOn(ctx, sqlText, args, maxRows, fail)
	}
	return raw, err
}

// fetchOn is fetch on one pooled connection; lost reports that the
// connection was found closed by the server before the statement ran.
func (p *Postgres) fetchOn(ctx context.Context, sqlText string, args []any, maxRows int, fail func(error) error) (raw *source.RawResult, lost bool, err error) {
	pc, err := p.pool.Acquire(ctx)
	if err != nil {
		err = fail(err)
		var se *source.Error
		if errors.As(err, &se) && se.Code == source.CodeTimeout { // every connection was busy
			se.Waited, se.Hint = true, "every connection to the database was busy; the same request may succeed shortly"
		}
		return nil, false, err
	}
	defer pc.Release() // destroys the connection when it is closed, busy or in a transaction
	conn := pc.Conn()
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, connLost(err), fail(err)
	}
	abandon := func() { conn.PgConn().Conn().Close() } // Release then destroys it
	ms := strconv.FormatInt(p.opts.Timeout.Milliseconds(), 10)
	// synchronize_seqscans off: a sequential scan starts at the table's
	// first page, not where a concurrent one is, so a query whose LIMIT
	// cuts an unordered scan keeps the same rows on every run (see
	// render's "Row order and the row cap").
	if _, err := tx.Exec(ctx, "SELECT set_config('statement_timeout', $1, true), set_config('synchronize_seqscans', 'off', true)", ms); err != nil {
		abandon()
		return nil, connLost(err), fail(err)
	}
	text, capped := pgCapped(sqlText, maxRows)
	rows, err := tx.Query(ctx, text, args...)
	if err != nil {
		abandon()
		return nil, false, fail(err)
	}
	raw, err = readPgRows(conn, rows, maxRows)
	if err != nil || (raw.Truncated && !capped) {
		// Closing the connection, not draining the rest of a large result.
		abandon()
		rows.Close()
		if err != nil {
			return nil, false, fail(err)
		}
		return raw, false, nil
	}
	// a capped statement has no row left past the one that set truncated
	rows.Close()
	rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), pgTimeoutGrace)
	defer rcancel()
	if err := tx.Rollback(rctx); err != nil {
		abandon()
	}
	return raw, false, nil
}

// connLost reports whether err says the server had closed the connection
// (an administrator's or a shutdown's termination, 57P01-57P03, or the
// connection found closed): what a new connection answers.
func connLost(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "57P")
	}
	return pgconn.SafeToRetry(err) || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed)
}

// readPgRows reads at most maxRows rows, and one more to set truncated.
func readPgRows(conn *pgx.Conn, rows pgx.Rows, maxRows int) (*source.RawResult, error) {
	fds := rows.FieldDescriptions()
	raw := &source.RawResult{Names: make([]string, len(fds)), Decls: make([]string, len(fds)), Rows: [][]any{}}
	for i, fd := range fds {
		raw.Names[i] = fd.Name
		raw.Decls[i] = pgTypeName(conn.TypeMap(), fd.DataTypeOID, fd.TypeModifier)
	}
	for rows.Next() {
		if len(raw.Rows) == maxRows {
			raw.Truncated = true
			return raw, nil
		}
		vals, err := pgRowValues(conn.TypeMap(), fds, rows.RawValues())
		if err != nil {
			return nil, err
		}
		raw.Rows = append(raw.Rows, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return raw, nil
}

// pgJSONText is the text of a json or jsonb value as it came over the wire
// (pgx would decode it into Go maps, losing key order and number digits):
// json's text is the value in either format, binary jsonb is a version
// byte (1) and the text.
func pgJSONText(fd pgconn.FieldDescription, raw []byte) (string, bool) {
	if raw == nil {
		return "", false
	}
	switch {
	case fd.DataTypeOID == pgtype.JSONOID:
		return string(raw), true
	case fd.DataTypeOID == pgtype.JSONBOID && fd.Format == pgx.TextFormatCode:
		return string(raw), true
	case fd.DataTypeOID == pgtype.JSONBOID && len(raw) > 0 && raw[0] == 1:
		return string(raw[1:]), true
	}
	return "", false
}

// pgTypeName is the name of a result column's type: pgx's name for the
// OID ("int4", "timestamptz", "_text"), with numeric's precision and scale
// ("numeric(12,2)"); "" for a type pgx does not know (enums, domains of
// extensions), whose column takes its type from its values.
func pgTypeName(m *pgtype.Map, oid uint32, typmod int32) string {
	t, ok := m.TypeForOID(oid)
	if !ok {
		return ""
	}
	if oid == pgtype.NumericOID && typmod >= 4 {
		mod := typmod - 4
		return fmt.Sprintf("numeric(%d,%d)", mod>>16&0xffff, mod&0xffff)
	}
	return t.Name
}

// readPrivilege reports whether a permission error is about reading a
// relation, a column or a schema, not calling a function.
func readPrivilege(msg string) bool {
	for _, on := range []string{"for table ", "for view ", "for materialized view ", "for relation ", "for column ", "for schema "} {
		if strings.Contains(msg, on) {
			return true
		}
	}
	return false
}

// pgError maps an error of a PostgreSQL statement onto *Error. timeout is
// the limit reported with TIMEOUT.
func pgError(err error, timeout time.Duration) *source.Error {
	var se *source.Error
	if errors.As(err, &se) {
		return se
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch code := pe.Code; {
		case code == "25006": // read_only_sql_transaction
			return source.Errorf(source.CodeReadOnly, err, source.ReadOnlyHint, "the read-only transaction refused the statement: %s", pe.Message)
		case code == "42501" && strings.Contains(pe.Message, "for database "):
			// CONNECT revoked: no statement can run until it is granted
			// again, and "may not do this" with a hint about writes sent
			// the assistant rewriting a plain SELECT
			return source.Errorf(source.CodeUnavailable, err, "grant the role CONNECT on the database again (GRANT CONNECT ON DATABASE … TO the role)",
				"the database refused the role's connection: %s", pe.Message)
		case code == "42501" && !readPrivilege(pe.Message): // insufficient_privilege
			// a function or sequence the role may not call
			return source.Errorf(source.CodeReadOnly, err, source.ReadOnlyHint, "the database role may not do this: %s", pe.Message)
		case code == "42501":
			// what the role lacks is a read privilege on a table, column
			// or schema the snapshot holds: revoked since it was read
			// or never granted on a column: a retry would fail alike, so
			// the hint says what to change rather than to send it again
			return source.Errorf(source.CodeQueryFailed, err, "grant the role SELECT on it (GRANT SELECT ON … TO the role), or leave it out of the question (a table whose privilege was revoked leaves the schema nl2sql reads within seconds)",
				"the database role may not read this: %s", pe.Message)
		case code == "42P01", code == "42703": // undefined_table, undefined_column
			// validated SQL names only what the snapshot holds: the schema
			// changed under a running server
			return source.SchemaChanged(err, "the query failed: %s", pe.Message)
		case code == "55P03": // lock_not_available: a wait, not the query's work
			return &source.Error{Code: source.CodeTimeout, Msg: "the query waited too long for a lock: " + pe.Message, Waited: true, Err: err,
				Hint: "another transaction held a lock the query needed; the same request may succeed shortly"}
		case code == "57014": // query_canceled
			if strings.Contains(pe.Message, "statement timeout") {
				return source.Errorf(source.CodeTimeout, err, source.TimeoutHint,
					"the query ran past its time limit (%s)", timeout)
			}
			return source.Errorf(source.CodeCancelled, err, "", "the query was cancelled")
		case code == "42601" && strings.Contains(pe.Message, "multiple commands"):
			// The extended protocol refuses a text of several statements.
			return source.Errorf(source.CodeReadOnly, err, source.ReadOnlyHint, "the query text holds more than one statement: %s", pe.Message)
		case code == "21000": // cardinality_violation: a scalar subquery's rows
			if e := source.SeveralRows(pe.Message, err); e != nil {
				return e
			}
		case code == "22003": // numeric_value_out_of_range
			if e := source.DoubleOverflow(pe.Message, err); e != nil {
				return e
			}
			return source.Errorf(source.CodeOverflow, err, source.OverflowHint, "the query failed: %s", pe.Message)
		case code == "28P01", code == "28000":
			// the server's own reason (no such role, a wrong password): the
			// DSN is the operator's, and "refused" alone sent them guessing
			return source.Errorf(source.CodeUnavailable, err, dsnHint, "the database refused the login: %s", pe.Message)
		case code == "42704" && strings.HasPrefix(pe.Message, "unrecognized configuration parameter"):
			// a DSN key pgx does not know goes to the server as a setting:
			// a misspelt option ("sslmod") is refused at the login
			return source.Errorf(source.CodeUnavailable, err, dsnOptionHint(pe.Message),
				"the server refused a setting the DSN names: %s", pe.Message)
		case code == "3D000":
			return source.Errorf(source.CodeUnavailable, err, dsnHint, "the database does not exist")
		case strings.HasPrefix(code, "08"), strings.HasPrefix(code, "57P"), code == "53300":
			return source.Errorf(source.CodeUnavailable, err, "check that the database server is running and accepts connections", "the database server is unavailable: %s", pe.Message).Temporary()
		}
		return source.Errorf(source.CodeQueryFailed, err, "", "the query failed: %s", pe.Message)
	}
	var tooBig *pgproto3.ExceededMaxBodyLenErr
	var ce *pgconn.ConnectError
	connecting := errors.As(err, &ce)
	text := err.Error()
	// sslmode=prefer tries TLS, then plain: a service that is no
	// PostgreSQL refuses the first ("server refused TLS") and garbles the
	// second, and that refusal alone is a PostgreSQL server without TLS
	garbled := errors.As(err, &tooBig) || strings.Contains(text, "failed to receive message")
	tlsOnly := strings.Contains(text, "refused TLS") && !garbled
	if connecting && !strings.Contains(text, "timeout") && !strings.Contains(text, "connection refused") && !tlsOnly && !errors.As(err, new(net.Error)) {
		// the connection was made but what answered is no PostgreSQL
		// server (an HTTP service's "HTTP/1.1 403" read as a message
		// length said "a row is larger than 64 MiB"): a wrong port
		return source.Errorf(source.CodeUnavailable, err, "check the DSN's port: another service (HTTP, a proxy, another database) listens there; PostgreSQL's default port is 5432",
			"the server at the DSN's host and port did not answer as PostgreSQL")
	}
	if errors.As(err, &tooBig) {
		return source.Errorf(source.CodeQueryFailed, err, "select fewer or shorter values", "a row is larger than %d MiB", pgMaxMessageBytes>>20)
	}
	var ne net.Error
	if connecting || errors.As(err, &ne) || pgconn.SafeToRetry(err) {
		// the reason, never the address: callers of a shared server need not
		// learn where its databases live (the cause, kept in Err, is logged)
		detail := err.Error()
		switch {
		case strings.Contains(detail, "refused TLS"):
			return source.Errorf(source.CodeUnavailable, err, "the server does not offer TLS: use sslmode=prefer or sslmode=disable in the DSN, or enable ssl on the server",
				"the database server refused a TLS connection, which the DSN's sslmode requires")
		case strings.Contains(detail, "connection refused"):
			return source.Errorf(source.CodeUnavailable, err, "check the DSN's host and port, and that the server is running and listens there",
				"the database server cannot be reached: nothing accepts connections at the DSN's host and port").Temporary()
		case strings.Contains(detail, "dial unix"):
			// a DSN without a host means the local socket
			return source.Errorf(source.CodeUnavailable, err, "name the host in the DSN, e.g. postgres://user@localhost:5432/dbname, or start the server on this machine",
				"the database server cannot be reached: nothing listens on the local socket the DSN leads to (a DSN without a host means the local socket)").Temporary()
		case strings.Contains(detail, "no such host"):
			return source.Errorf(source.CodeUnavailable, err, "check the host name in the DSN", "the database server cannot be reached: its host name does not resolve").Temporary()
		case strings.Contains(detail, "timeout"), strings.Contains(detail, "deadline exceeded"):
			return source.Errorf(source.CodeUnavailable, err, "check the DSN's host and port, and that no firewall drops the connection",
				"the database server cannot be reached: the connection timed out").Temporary()
		}
		return source.Errorf(source.CodeUnavailable, err, "check that the database server is running and accepts connections", "the database server cannot be reached").Temporary()
	}
	return source.Errorf(source.CodeQueryFailed, err, "", "the query failed: %v", err)
}

// WritableRoleHint is the hint of the writable-role refusal; it names the
// config key and the --db flag that map to Options.AllowWritableRole.
const WritableRoleHint = "connect as a read-only role: one that owns nothing and has no CREATE, given only " +
	"GRANT CONNECT ON DATABASE <db> TO <role>; GRANT USAGE ON SCHEMA <schema> TO <role>; GRANT SELECT ON ALL TABLES IN SCHEMA <schema> TO <role>; " +
	"or, for a development database, accept this role with allow_writable_role: true on the datasource in nl2sql.yaml (with --db: --allow-writable-role); " +
	"queries still run in READ ONLY transactions"

const dsnHint = "check the datasource's dsn (its --db argument, or dsn: in nl2sql.yaml)"

// dsnOptions are the connection options a DSN commonly sets (libpq's
// names, which pgx reads); any other key is sent to the server as a
// setting.
var dsnOptions = []string{"host", "port", "dbname", "user", "password", "passfile", "sslmode", "sslrootcert", "sslcert", "sslkey",
	"sslpassword", "connect_timeout", "application_name", "search_path", "target_session_attrs", "options", "statement_timeout"}

// dsnOptionHint names the option nearest to the unknown setting of msg
// ("unrecognized configuration parameter \"sslmod\"").
func dsnOptionHint(msg string) string {
	name := msg
	if _, q, ok := strings.Cut(msg, `"`); ok {
		name, _, _ = strings.Cut(q, `"`)
	}
	if near := planast.Nearest(name, dsnOptions); near != "" {
		return fmt.Sprintf("%s in the DSN is no connection option: did you mean %s? Fix the datasource's dsn (its --db argument, or dsn: in nl2sql.yaml)", name, near)
	}
	return fmt.Sprintf("%s in the DSN is no connection option nor a server setting; %s", name, dsnHint)
}

// checkRole refuses a role that can write (see OpenPostgres), or logs it
// when Options.AllowWritableRole is set. It is also the first query, so a
// server that cannot be reached fails here.
func (p *Postgres) checkRole(ctx context.Context) error {
	limit := max(p.opts.Timeout, source.OpenCheckTimeout)
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	raw, err := p.fetch(ctx, pgRoleCheck, nil, 1)
	if err != nil {
		return err
	}
	r := raw.Rows[0]
	var reasons []string
	if super, _ := r[0].(bool); super {
		reasons = append(reasons, "it is a superuser")
	}
	if create, _ := r[1].(bool); create {
		reasons = append(reasons, "it may CREATE in the database")
	}
	if files, _ := r[2].(bool); files {
		reasons = append(reasons, "it may write server files or run programs")
	}
	if s, _ := r[3].(string); s != "" {
		reasons = append(reasons, "it may CREATE in schema "+s)
	}
	if s, _ := r[4].(string); s != "" {
		reasons = append(reasons, "it may change or owns "+s)
	}
	if len(reasons) == 0 {
		return nil
	}
	why := strings.Join(reasons, "; ")
	if p.opts.AllowWritableRole {
		slog.Warn("postgres: the datasource's role can write; relying on read-only transactions alone", "datasource", p.id, "why", why)
		return nil
	}
	return source.Errorf(source.CodeUnavailable, fmt.Errorf("writable role: %s", why),
		WritableRoleHint,
		"the database role can write (%s)", why)
}

// pgVisibleSchema is true for a schema the role can use, other than the
// system's.
const pgVisibleSchema = `n.nspname NOT IN ('pg_catalog', 'information_schema')
	AND n.nspname NOT LIKE 'pg\_toast%' AND n.nspname NOT LIKE 'pg\_temp\_%'
	AND has_schema_privilege(n.oid, 'USAGE')`

// pgRoleCheck answers, for the current role: superuser; CREATE on the
// database; member of the server file roles; the first schemas it may
// CREATE in; the first relations it may change or owns.
const pgRoleCheck = `SELECT
	(SELECT rolsuper FROM pg_roles WHERE rolname = current_user),
	has_database_privilege(current_database(), 'CREATE'),
	pg_has_role('pg_write_server_files', 'MEMBER') OR pg_has_role('pg_execute_server_program', 'MEMBER'),
	(SELECT string_agg(quote_ident(nspname), ', ') FROM (
		SELECT n.nspname FROM pg_namespace n
		WHERE ` + pgVisibleSchema + ` AND has_schema_privilege(n.oid, 'CREATE')
		ORDER BY 1 LIMIT 5) s),
	(SELECT string_agg(name, ', ') FROM (
		SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND ` + pgVisibleSchema + `
			AND (has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')
				OR has_any_column_privilege(c.oid, 'INSERT, UPDATE')
				OR pg_has_role(c.relowner, 'USAGE'))
		ORDER BY 1 LIMIT 5) r)`
