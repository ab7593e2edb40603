package jsontext

// ObjectLen is the length of the JSON object s starts with, its braces
// balanced outside strings; 0 when s ends first. Warnings write plan JSON
// inline in their sentences; this finds where one ends.
func ObjectLen(s string) int {
	depth, inString, escaped := 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}
