package config

import (
	"errors"
	"fmt"
	"os"
	"strings"

	goccy "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
)

// yamlHint adds to a YAML syntax error what the parser does not say:
// a line indented with a tab (YAML indents with spaces only, and the
// parser's "found character that cannot start any token" names no tab),
// and a { or [ opened on a line and not closed there (the parser reports
// the line before it for an unclosed flow mapping on the second line).
// A parser error ("did not find expected key", "… '-' indicator") names
// the line before the one where the map or list it was reading began (a
// counting slip of the parser, which reports that line from zero), not
// where it stopped; the hint adds the line and column where parsing
// stopped, as goccy/go-yaml's parser locates it, with that line's text.
// The hint names the line; err is returned as it came when the file shows
// none of these.
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
	if strings.Contains(msg, "did not find expected ',' or '}'") || strings.Contains(msg, "did not find expected ',' or ']'") {
		for i, l := range lines {
			if open, pair := unclosed(l); open != 0 {
				return fmt.Errorf("%w (line %d opens %c without closing it with %c on the same line)", err, i+1, open, pair)
			}
		}
	}
	if strings.Contains(msg, "did not find expected") {
		if line, col, ok := stopped(b); ok && line <= len(lines) {
			return fmt.Errorf("%w (parsing stopped at line %d, column %d: %q)", err, line, col, strings.TrimRight(lines[line-1], "\r"))
		}
	}
	return err
}

// stopped is where goccy/go-yaml's parser stops in a file it cannot parse.
func stopped(b []byte) (line, col int, ok bool) {
	_, err := parser.ParseBytes(b, 0)
	var se *goccy.SyntaxError
	if !errors.As(err, &se) || se.Token == nil || se.Token.Position == nil || se.Token.Position.Line < 1 {
		return 0, 0, false
	}
	return se.Token.Position.Line, se.Token.Position.Column, true
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
