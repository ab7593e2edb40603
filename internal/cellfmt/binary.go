package cellfmt

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Binary is how a binary value appears in every human rendering (the
// tools' text table, the CLI's text table, the answer summary): its size
// and the first 8 hex digits of its SHA-256, e.g.
// "<binary 2,048 bytes sha256:1a2b3c4d>" — enough to tell values apart and
// to compare them with a file, in a few tokens. Base64 text would read as
// stored text (and an empty blob as an empty cell); the exact bytes stay
// in the structured result.
func Binary(b []byte) string {
	h := sha256.Sum256(b)
	return thousands.Sprintf("<binary %d bytes sha256:%s>", len(b), hex.EncodeToString(h[:4]))
}

var thousands = message.NewPrinter(language.English)

// blob renders a value of a blob column: the structured rows carry bytes
// as standard base64 (package internal/source's encoding), shown as their
// Binary placeholder; a value that is not base64 (already a placeholder)
// is shown as it is.
func blob(s string) string {
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return Binary(b)
	}
	return s
}

// Mistakable reports whether stored text s, shown bare in a table cell,
// could be read as something it is not: SQL NULL (the text "NULL", with
// or without surrounding spaces), a quoted cell (text that starts with a
// double quote), or other text than it is because its edges do not show
// (leading or trailing spaces: 'C004 ' reads as 'C004', and an = with
// what the reader saw matches nothing; the empty string reads as no
// value). A table shows such text quoted (Quote), so a quoted cell is
// always text, a bare NULL always SQL NULL, and a bare cell has no hidden
// spaces.
func Mistakable(s string) bool {
	return s == "" || strings.TrimSpace(s) != s || strings.TrimSpace(s) == "NULL" || strings.HasPrefix(s, `"`)
}
