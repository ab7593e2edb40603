package render

// GrantName writes a name (a role, a schema, a relation) as PostgreSQL's
// GRANT takes it, for a GRANT line an administrator copies: as it is when
// PostgreSQL reads it back unchanged, else quoted (QuoteIdent). Unquoted,
// ReportReader would be folded to another role's name and etl-bot would
// not parse.
func GrantName(name string) string {
	for i, r := range name {
		if !(r == '_' || 'a' <= r && r <= 'z' || i > 0 && (r == '$' || '0' <= r && r <= '9')) {
			return QuoteIdent(name)
		}
	}
	return name
}
