package config

import (
	"fmt"
	"os"
	"strings"
)

// yamlHint adds to a YAML syntax error what the parser does not say:
// a line indented with a tab (YAML indents with spaces only, and the
// parser's "found character that cannot start any token" names no tab),
// and a { or [ opened on a line and not closed there (the parser reports
// the line before it for an unclosed flow mapping on the second line).
// The hint names the line; err is returned as it came when the file shows
// neither.
func yamlHint(abs string, err error) error {
	b, rerr := os.ReadFile(abs)
	if rerr != nil {
		return err
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if strings.Contains(indent, "\t") {
			return fmt.Errorf("%w (line %d is indented with a tab: YAML indents with spaces only; replace the tab with spaces)", err, i+1)
		}
	}
	msg := err.Error()
	if !strings.Contains(msg, "did not find expected ',' or '}'") && !strings.Contains(msg, "did not find expected ',' or ']'") {
		return err
	}
	for i, l := range lines {
		if open, pair := unclosed(l); open != 0 {
			return fmt.Errorf("%w (line %d opens %c without closing it with %c on the same line)", err, i+1, open, pair)
		}
	}
	return err
}

// unclosed is the first { or [ of line l that the line leaves open
// (outside quotes and comments), with its closing character.
func unclosed(l string) (rune, rune) {
	var stack []rune
	var quote rune
	for _, r := range l {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#':
			return first(stack)
		case r == '{' || r == '[':
			stack = append(stack, r)
		case (r == '}' || r == ']') && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	return first(stack)
}

func first(stack []rune) (rune, rune) {
	if len(stack) == 0 {
		return 0, 0
	}
	if stack[0] == '{' {
		return '{', '}'
	}
	return '[', ']'
}
