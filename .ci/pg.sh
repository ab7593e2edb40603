# shellcheck shell=bash
# PostgreSQL 15 cluster for tests, owned by the caller and thrown away after.
#
#   source .ci/pg.sh && pg_start    # prints and exports NL2SQL_TEST_PG_DSN
#   go test ./...
#   pg_stop                          # stops the server and removes its directory
#
# The cluster listens on 127.0.0.1 only (first free port from $PG_PORT, default
# 55432), trusts every loopback connection, uses locale C and UTF8, and holds
# one database, nl2sql_test, owned by the superuser "postgres". Durability is
# off (fsync, full_page_writes): it is for tests only.
#
# As root, initdb and pg_ctl run as the "postgres" system user (initdb refuses
# root); as any other user they run as that user.
#
# Settings: PG_BIN (default /usr/lib/postgresql/15/bin), PG_PORT (55432),
# PG_DB (nl2sql_test). State while running: NL2SQL_PG_DIR, NL2SQL_PG_PORT.

_pg_log() { printf 'pg: %s\n' "$*" >&2; }

# _pg_as runs a command as the cluster's owner, inside the cluster's directory.
_pg_as() {
	if [ "$(id -u)" = 0 ]; then
		(cd "$NL2SQL_PG_DIR" && runuser -u postgres -- "$@")
	else
		(cd "$NL2SQL_PG_DIR" && "$@")
	fi
}

# _pg_port_busy succeeds when something accepts TCP connections on 127.0.0.1:$1.
_pg_port_busy() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

pg_start() {
	local bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
	local db=${PG_DB:-nl2sql_test}
	local port=${PG_PORT:-55432}
	local last=$((port + 100))

	if [ -n "${NL2SQL_PG_DIR:-}" ] && [ -d "${NL2SQL_PG_DIR:-}" ]; then
		_pg_log "already started in $NL2SQL_PG_DIR (run pg_stop first)"
		return 1
	fi
	if [ ! -x "$bin/initdb" ] || [ ! -x "$bin/pg_ctl" ] || [ ! -x "$bin/postgres" ]; then
		_pg_log "PostgreSQL 15 binaries not found in $bin (install postgresql-15 or set PG_BIN)"
		return 1
	fi
	if [ "$(id -u)" = 0 ] && ! id -u postgres >/dev/null 2>&1; then
		_pg_log "running as root but there is no 'postgres' user to own the cluster"
		return 1
	fi

	NL2SQL_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/nl2sql-pg.XXXXXX") || return 1
	export NL2SQL_PG_DIR
	chmod 0755 "$NL2SQL_PG_DIR"
	mkdir -p "$NL2SQL_PG_DIR/sock"
	if [ "$(id -u)" = 0 ]; then
		chown -R postgres: "$NL2SQL_PG_DIR" || return 1
	fi

	if ! _pg_as "$bin/initdb" -D "$NL2SQL_PG_DIR/data" -U postgres --auth=trust \
		--locale=C --encoding=UTF8 --no-instructions >"$NL2SQL_PG_DIR/initdb.log" 2>&1; then
		_pg_log "initdb failed:"
		cat "$NL2SQL_PG_DIR/initdb.log" >&2
		return 1
	fi

	while :; do
		if [ "$port" -gt "$last" ]; then
			_pg_log "no free port in ${PG_PORT:-55432}..$last"
			return 1
		fi
		if _pg_port_busy "$port"; then
			port=$((port + 1))
			continue
		fi
		if _pg_as "$bin/pg_ctl" -D "$NL2SQL_PG_DIR/data" -l "$NL2SQL_PG_DIR/server.log" -w -t 60 \
			-o "-c listen_addresses=127.0.0.1 -p $port -k $NL2SQL_PG_DIR/sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
			start >/dev/null; then
			break
		fi
		if _pg_port_busy "$port"; then # lost a race for the port: try the next one
			port=$((port + 1))
			continue
		fi
		_pg_log "pg_ctl start failed; server log:"
		cat "$NL2SQL_PG_DIR/server.log" >&2
		return 1
	done
	export NL2SQL_PG_PORT=$port

	if ! _pg_as "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres "$db"; then
		_pg_log "createdb $db failed"
		return 1
	fi
	export NL2SQL_TEST_PG_DSN="postgres://postgres@127.0.0.1:$port/$db?sslmode=disable"
	_pg_log "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') ready in $NL2SQL_PG_DIR"
	echo "NL2SQL_TEST_PG_DSN=$NL2SQL_TEST_PG_DSN"
}

pg_stop() {
	local bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
	local dir=${NL2SQL_PG_DIR:-}
	if [ -z "$dir" ]; then
		return 0
	fi
	if [ -f "$dir/data/postmaster.pid" ]; then
		_pg_as "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1 ||
			_pg_as "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1 ||
			_pg_log "could not stop the server in $dir"
	fi
	case "$dir" in
	"${TMPDIR:-/tmp}"/nl2sql-pg.*) rm -rf -- "$dir" ;;
	*) _pg_log "not removing unexpected directory $dir" ;;
	esac
	unset NL2SQL_PG_DIR NL2SQL_PG_PORT NL2SQL_TEST_PG_DSN
}
