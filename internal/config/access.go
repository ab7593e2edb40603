package config

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/scope"
)

// Role, RowFilter and User are package scope's policy types; the config
// decodes the file into them and checks their shape (patterns, names,
// digests). Matching and row-filter parsing are scope's alone.
type (
	Role      = scope.Role
	RowFilter = scope.RowFilter
	User      = scope.User
)

// Access is the part of the config that package scope compiles into a
// policy: roles, users, local_user and each datasource's engine.
func (c *Config) Access() scope.Access {
	a := scope.Access{Roles: c.Roles, Users: c.Users, LocalUser: c.LocalUser, Engines: map[string]string{}}
	for _, d := range c.Datasources {
		a.Engines[d.ID] = d.Engine
	}
	return a
}

// Access-related file shapes.
type fileRole struct {
	Allow      []string        `koanf:"allow"`
	Deny       []string        `koanf:"deny"`
	RowFilters []fileRowFilter `koanf:"row_filters"`
}

type fileRowFilter struct {
	Table string `koanf:"table"`
	Where string `koanf:"where"`
}

type fileUser struct {
	Name         string         `koanf:"name"`
	Roles        []string       `koanf:"roles"`
	Attributes   map[string]any `koanf:"attributes"`
	TokensSHA256 []string       `koanf:"tokens_sha256"`
}

var (
	// attrName is what a user attribute (and a :name in a row filter) may be called.
	attrName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	hexToken = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)
)

// buildAccess validates and copies roles, users, local_user and curated
// into c. Problems are reported through bad, each naming its key.
func buildAccess(fc *fileConfig, c *Config, dir string, bad func(key, format string, args ...any)) {
	dsIDs := map[string]bool{}
	for _, d := range c.Datasources {
		dsIDs[d.ID] = true
	}
	if fc.Roles != nil {
		c.Roles = map[string]Role{}
	}
	for _, name := range slices.Sorted(maps.Keys(fc.Roles)) {
		r := fc.Roles[name]
		key := "roles." + name
		if strings.TrimSpace(name) == "" || strings.ContainsAny(name, ". \t") {
			bad(key, "a role name must be non-empty, without dots or blanks")
		}
		for i, p := range r.Allow {
			checkPattern(bad, fmt.Sprintf("%s.allow[%d]", key, i), p, dsIDs)
		}
		for i, p := range r.Deny {
			checkPattern(bad, fmt.Sprintf("%s.deny[%d]", key, i), p, dsIDs)
		}
		role := Role{Allow: slices.Clone(r.Allow), Deny: slices.Clone(r.Deny)}
		for i, f := range r.RowFilters {
			fk := fmt.Sprintf("%s.row_filters[%d]", key, i)
			parts := strings.Split(f.Table, ".")
			switch {
			case f.Table == "":
				bad(fk+".table", "missing (ds.schema.table)")
			case len(parts) != 3 || slices.Contains(parts, ""):
				bad(fk+".table", "%q must be datasource.schema.table", f.Table)
			case strings.ContainsAny(f.Table, "*?"):
				bad(fk+".table", "%q may not use wildcards", f.Table)
			case len(dsIDs) > 0 && !dsIDs[parts[0]]:
				bad(fk+".table", "%q names no configured datasource", f.Table)
			}
			if strings.TrimSpace(f.Where) == "" {
				bad(fk+".where", "missing (a boolean expression over the table's columns)")
			}
			role.RowFilters = append(role.RowFilters, RowFilter{Table: f.Table, Where: f.Where})
		}
		c.Roles[name] = role
	}

	names := map[string]int{}
	tokens := map[string]string{}
	for i, u := range fc.Users {
		key := fmt.Sprintf("users[%d]", i)
		switch {
		case strings.TrimSpace(u.Name) == "":
			bad(key+".name", "missing")
		default:
			if j, dup := names[u.Name]; dup {
				bad(key+".name", "%q is already the name of users[%d]", u.Name, j)
			}
			names[u.Name] = i
		}
		user := User{Name: u.Name, Roles: slices.Clone(u.Roles)}
		for j, r := range u.Roles {
			rk := fmt.Sprintf("%s.roles[%d]", key, j)
			switch _, defined := fc.Roles[r]; {
			case strings.TrimSpace(r) == "":
				bad(rk, "empty role name")
			case fc.Roles != nil && !defined:
				// A role that does not exist allows nothing, but it is
				// almost always a typo for one meant to grant or hide data:
				// refuse the file rather than serve a policy nobody wrote.
				bad(rk, "user %q names role %q, which is not defined under roles (defined: %s)",
					u.Name, r, definedRoles(fc.Roles))
			}
		}
		if len(u.Roles) > 0 && fc.Roles == nil {
			bad(key+".roles", "there is no roles section; without one every user reads everything")
		}
		for j, t := range u.TokensSHA256 {
			tk := fmt.Sprintf("%s.tokens_sha256[%d]", key, j)
			if !hexToken.MatchString(t) {
				bad(tk, "must be 64 hexadecimal characters: the SHA-256 of the token, never the token itself")
				continue
			}
			t = strings.ToLower(t)
			if other, dup := tokens[t]; dup {
				bad(tk, "the same token digest is configured for %s", other)
			}
			tokens[t] = key
			user.TokensSHA256 = append(user.TokensSHA256, t)
		}
		if len(u.Attributes) > 0 {
			user.Attributes = map[string]any{}
		}
		for _, a := range slices.Sorted(maps.Keys(u.Attributes)) {
			ak := key + ".attributes." + a
			if !attrName.MatchString(a) {
				bad(ak, "an attribute name must match %s", attrName)
			}
			switch v := u.Attributes[a].(type) {
			case string, bool, int, int64, float64:
				user.Attributes[a] = v
			default:
				bad(ak, "must be a string, a number or a boolean")
			}
		}
		c.Users = append(c.Users, user)
	}
	if fc.LocalUser != "" {
		if _, ok := names[fc.LocalUser]; !ok {
			bad("local_user", "%q is not the name of an entry in users", fc.LocalUser)
		}
		c.LocalUser = fc.LocalUser
	}
	if fc.Curated != "" {
		c.Curated, c.CuratedAsWritten = resolve(dir, fc.Curated), fc.Curated
	}
}

// definedRoles lists the role names of the file, for a hint.
func definedRoles(roles map[string]fileRole) string {
	if len(roles) == 0 {
		return "none"
	}
	return strings.Join(slices.Sorted(maps.Keys(roles)), ", ")
}

// checkPattern checks the shape of one allow or deny pattern.
func checkPattern(bad func(key, format string, args ...any), key, p string, dsIDs map[string]bool) {
	if p == "*" {
		return
	}
	parts := strings.Split(p, ".")
	switch {
	case strings.TrimSpace(p) == "":
		bad(key, "empty pattern")
	case len(parts) == 2:
		bad(key, "%q has two parts: write datasource, datasource.schema.table or datasource.schema.table.column", p)
	case len(parts) > 4:
		bad(key, "%q has %d parts: at most datasource.schema.table.column", p, len(parts))
	case slices.Contains(parts, ""):
		bad(key, "%q has an empty part", p)
	case len(dsIDs) > 0 && !strings.ContainsAny(parts[0], "*?") && !dsIDs[parts[0]]:
		bad(key, "%q names no configured datasource", p)
	}
}

// Secured reports whether a roles section is configured: callers then read
// only what their roles allow. Without one the server is single-user.
func (c *Config) Secured() bool { return c.Roles != nil }

// User returns the user called name.
func (c *Config) User(name string) (User, bool) {
	for _, u := range c.Users {
		if u.Name == name {
			return u, true
		}
	}
	return User{}, false
}
