package planast

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// JSONTextError says why text is not one valid JSON value, with the
// position of the fault as line, column and byte offset ("invalid
// character '}' looking for beginning of object key string at line 1,
// column 14 (byte 13)"), or "" when it is valid. The position is what lets
// the author of a long plan find the fault.
func JSONTextError(text string) string {
	var v any
	err := json.Unmarshal([]byte(text), &v)
	if err == nil {
		return ""
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err.Error()
	}
	if se.Offset >= int64(len(text)) && strings.HasPrefix(se.Error(), "unexpected end") {
		return fmt.Sprintf("%s: the text ends (after %d bytes) before its brackets and strings close", se.Error(), len(text))
	}
	// Offset counts the bytes read up to and including the offending one
	off := int(se.Offset) - 1
	if off < 0 {
		off = 0
	}
	if off > len(text) {
		off = len(text)
	}
	line := 1 + strings.Count(text[:off], "\n")
	col := 1 + utf8.RuneCountInString(text[strings.LastIndex(text[:off], "\n")+1:off])
	return fmt.Sprintf("%s at line %d, column %d (byte %d)", se.Error(), line, col, off)
}
