package scope

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// Policy is the compiled access configuration: roles with their patterns
// and row filters, users with their roles, attributes and token digests.
// It is immutable and safe for concurrent use. A nil *Policy behaves as a
// configuration without roles or users.
type Policy struct {
	secured bool // a roles section exists
	roles   map[string]*role
	users   map[string]*User
	tokens  []tokenEntry
	local   string
	// schemas maps a datasource to its engine's default schema, for names
	// given without one.
	schemas  map[string]string
	warnings []string
	// views holds what each datasource's views read (SetViews).
	views views
}

type tokenEntry struct {
	digest [sha256.Size]byte
	user   string
}

// role is one compiled role.
type role struct {
	name        string
	allow, deny []pattern
	filters     []*rowFilter
}

// rowFilter is one parsed row_filters entry of a role.
type rowFilter struct {
	ds, schema, table string
	where             string
	expr              fnode
	index             int // in the role's row_filters, for messages
}

// New compiles cfg's roles, users and local user. It fails, naming the key
// (roles.<name>.row_filters[i].where), when a row filter does not parse;
// the config checked the shapes. Users naming a role that does not exist
// are accepted (that role allows nothing) and listed by Warnings; the
// config loader refuses such a file before it gets here.
func New(cfg Access) (*Policy, error) {
	p := &Policy{secured: cfg.Roles != nil, roles: map[string]*role{}, users: map[string]*User{},
		local: cfg.LocalUser, schemas: map[string]string{}}
	for id, engine := range cfg.Engines {
		p.schemas[id] = schema.DefaultSchema(engine)
	}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(cfg.Roles)) {
		rc := cfg.Roles[name]
		r := &role{name: name}
		for _, a := range rc.Allow {
			r.allow = append(r.allow, parsePattern(a))
		}
		for _, d := range rc.Deny {
			r.deny = append(r.deny, parsePattern(d))
		}
		for i, f := range rc.RowFilters {
			key := fmt.Sprintf("roles.%s.row_filters[%d]", name, i)
			parts := strings.Split(f.Table, ".")
			if len(parts) != 3 {
				errs = append(errs, fmt.Errorf("%s.table: %q must be datasource.schema.table", key, f.Table))
				continue
			}
			e, err := parseFilter(f.Where, parts[2])
			if err != nil {
				errs = append(errs, fmt.Errorf("%s.where: %w", key, err))
				continue
			}
			r.filters = append(r.filters, &rowFilter{ds: parts[0], schema: parts[1], table: parts[2], where: f.Where, expr: e, index: i})
		}
		p.roles[name] = r
	}
	for i := range cfg.Users {
		u := &cfg.Users[i]
		p.users[u.Name] = u
		for _, rn := range u.Roles {
			if _, ok := p.roles[rn]; !ok {
				p.warnings = append(p.warnings, fmt.Sprintf("users[%d] (%s): role %q is not configured and allows nothing", i, u.Name, rn))
			}
		}
		for _, t := range u.TokensSHA256 {
			var te tokenEntry
			if b, err := hex.DecodeString(t); err != nil || len(b) != sha256.Size {
				errs = append(errs, fmt.Errorf("users[%d].tokens_sha256: %q is not a SHA-256 digest", i, t))
				continue
			} else {
				copy(te.digest[:], b)
			}
			te.user = u.Name
			p.tokens = append(p.tokens, te)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return p, nil
}

// Secured reports whether roles are configured. Without roles the server is
// single-user: stdio, the CLI and every authenticated HTTP caller read
// everything.
func (p *Policy) Secured() bool { return p != nil && p.secured }

// Warnings lists configuration that is accepted but probably wrong (a user
// with a role that does not exist).
func (p *Policy) Warnings() []string {
	if p == nil {
		return nil
	}
	return slices.Clone(p.warnings)
}

// HasTokens reports whether any user has a token, i.e. whether HTTP
// callers can authenticate at all.
func (p *Policy) HasTokens() bool { return p != nil && len(p.tokens) > 0 }

// ForUser returns the scope of the configured user name; false when there
// is no such user. Without roles the user reads everything.
func (p *Policy) ForUser(name string) (*Scope, bool) {
	if p == nil {
		return nil, false
	}
	u, ok := p.users[name]
	if !ok {
		return nil, false
	}
	if !p.secured {
		return &Scope{p: p, user: u.Name, all: true, attrs: u.Attributes}, true
	}
	s := &Scope{p: p, user: u.Name, attrs: u.Attributes, roleNames: slices.Clone(u.Roles)}
	for _, rn := range u.Roles {
		if r, ok := p.roles[rn]; ok && !slices.Contains(s.roles, r) {
			s.roles = append(s.roles, r)
		}
	}
	return s, true
}

// ForToken returns the scope of a caller an identity provider
// authenticated: the user name, the roles and the attributes come from the
// token's claims through the oauth section's mapping (package oauth), never
// from tool arguments. Roles that are not configured allow nothing. Without
// a roles section the caller reads everything, as a static user would.
func (p *Policy) ForToken(user string, roles []string, attrs map[string]any) *Scope {
	if !p.Secured() {
		return &Scope{p: p, user: user, all: true, attrs: attrs}
	}
	s := &Scope{p: p, user: user, attrs: attrs, roleNames: slices.Clone(roles)}
	for _, rn := range roles {
		if r, ok := p.roles[rn]; ok && !slices.Contains(s.roles, r) {
			s.roles = append(s.roles, r)
		}
	}
	return s
}

// Local returns the scope stdio and the CLI act as: everything without
// roles; with roles, local_user's scope, or a scope that reads nothing when
// local_user is not set.
func (p *Policy) Local() *Scope {
	if !p.Secured() {
		s := SingleUser()
		if p != nil && p.local != "" {
			s.user = p.local
		}
		s.p = p
		return s
	}
	if s, ok := p.ForUser(p.local); ok {
		return s
	}
	return &Scope{p: p, user: ""}
}

// Authenticate finds the user whose tokens_sha256 holds SHA-256(token) and
// returns their scope. Every configured digest is compared, each in
// constant time, so the time taken does not depend on which (if any)
// matched. An empty token never authenticates.
func (p *Policy) Authenticate(token string) (*Scope, bool) {
	if p == nil || token == "" {
		return nil, false
	}
	sum := sha256.Sum256([]byte(token))
	found := ""
	for _, te := range p.tokens {
		if subtle.ConstantTimeCompare(sum[:], te.digest[:]) == 1 {
			found = te.user
		}
	}
	if found == "" {
		return nil, false
	}
	return p.ForUser(found)
}

// TokenDigest returns the tokens_sha256 form of a token: the lower-case hex
// of its SHA-256.
func TokenDigest(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ErrNoAuthentication is returned by CheckHTTP when an HTTP server would
// serve callers it cannot authenticate.
var ErrNoAuthentication = errors.New("HTTP needs users with tokens_sha256 to authenticate callers; " +
	"to serve a loopback address without authentication, say so explicitly")

// CheckHTTP decides whether an HTTP server may start. With users holding
// tokens it may (callers then authenticate with a bearer token, see
// Authenticate). Without any it may only when unauthenticatedLoopback was
// explicitly requested and the listen address is a loopback one; its
// callers then act as Local(). Otherwise it returns ErrNoAuthentication.
func (p *Policy) CheckHTTP(loopback, unauthenticatedLoopback bool) error {
	if p.HasTokens() || (unauthenticatedLoopback && loopback) {
		return nil
	}
	return ErrNoAuthentication
}

// ReadableBySomeRole reports whether any configured role (held by a user or
// not) may read the table; without roles, true. Verified queries must read
// only such tables.
func (p *Policy) ReadableBySomeRole(ds, schema, table string) bool {
	if !p.Secured() {
		return true
	}
	schema = p.schemaOf(ds, schema)
	for _, r := range p.roles {
		if r.table(ds, schema, table) {
			return true
		}
	}
	return false
}

func (p *Policy) schemaOf(ds, schema string) string {
	if schema != "" || p == nil {
		return schema
	}
	return p.schemas[ds]
}

// table: the role allows the table and does not deny it (deny beats
// allow within a role). A column pattern in allow makes the table
// readable with only those columns.
func (r *role) table(ds, schema, table string) bool {
	for _, d := range r.deny {
		if d.table(ds, schema, table) {
			return false
		}
	}
	for _, a := range r.allow {
		if a.table(ds, schema, table) || a.tableOf(ds, schema, table) {
			return true
		}
	}
	return false
}

// column: the role reads the table and the column is allowed (by a table
// or column pattern) and not denied.
func (r *role) column(ds, schema, table, column string) bool {
	if !r.table(ds, schema, table) {
		return false
	}
	for _, d := range r.deny {
		if d.column() && d.col(ds, schema, table, column) {
			return false
		}
	}
	for _, a := range r.allow {
		if a.col(ds, schema, table, column) {
			return true
		}
	}
	return false
}

// reaches: some allow names the datasource and no deny covers all of it.
func (r *role) reaches(ds string) bool {
	for _, d := range r.deny {
		if d.wholeDatasource(ds) {
			return false
		}
	}
	for _, a := range r.allow {
		if a.coversDatasource(ds) {
			return true
		}
	}
	return false
}

// filtersFor returns the role's filters on the table.
func (r *role) filtersFor(ds, schema, table string) []*rowFilter {
	var out []*rowFilter
	for _, f := range r.filters {
		if f.ds == ds && strings.EqualFold(f.schema, schema) && strings.EqualFold(f.table, table) {
			out = append(out, f)
		}
	}
	return out
}

// HTTPAuth adapts a Policy to mcp.Authenticator (Authenticate(token)
// (identity any, ok bool)): the identity is the caller's *Scope.
type HTTPAuth struct{ Policy *Policy }

// Authenticate implements mcp.Authenticator.
func (a HTTPAuth) Authenticate(token string) (any, bool) {
	s, ok := a.Policy.Authenticate(token)
	if !ok {
		return nil, false
	}
	return s, true
}
