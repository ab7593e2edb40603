package tools

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"github.com/nl2sql/nl2sql/engine"
)

// Catalog surfaces (describe_schema, list_datasources, search_schema, the
// schema resource's pages) page with cursors. A cursor is opaque to the
// client and deterministic: base64url of
//
//	"v1" NUL surface NUL binding NUL key, then 8 bytes of SHA-256 over that
//
// where surface names the tool, binding is a digest of the request's other
// arguments (datasource, filter, text), and key is where the next page
// starts (the last shown table's schema NUL name, a datasource id, a rank).
// The same request and position always give the same cursor, so pages are
// byte-identical across calls and restarts. The checksum is not a secret:
// it tells a changed or cut cursor from one this server issued; a forged
// one could at most start a page elsewhere in what the caller may see
// anyway, since every page is drawn from the caller's visible snapshot.

// CodeInvalidCursor refuses a cursor this server did not issue for the
// request it comes with.
const CodeInvalidCursor engine.Code = "INVALID_CURSOR"

const cursorVersion = "v1"

func cursorSum(payload []byte) []byte {
	h := sha256.Sum256(append([]byte("nl2sql cursor\x00"), payload...))
	return h[:8]
}

// cursorBinding digests a request's arguments other than the cursor.
func cursorBinding(args ...string) string {
	h := sha256.Sum256([]byte(strings.Join(args, "\x00")))
	return base64.RawURLEncoding.EncodeToString(h[:9])
}

// EncodeCursor is the cursor of surface for the request bound by args,
// resuming after key.
func EncodeCursor(surface, key string, args ...string) string {
	p := []byte(cursorVersion + "\x00" + surface + "\x00" + cursorBinding(args...) + "\x00" + key)
	return base64.RawURLEncoding.EncodeToString(append(p, cursorSum(p)...))
}

// DecodeCursor returns the key of a cursor EncodeCursor made for surface
// and args; "" with a nil error for no cursor. Any other cursor is an
// INVALID_CURSOR error with a hint.
func DecodeCursor(c, surface string, args ...string) (string, error) {
	if c == "" {
		return "", nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) < 9 || !bytes.Equal(cursorSum(b[:len(b)-8]), b[len(b)-8:]) {
		return "", &engine.Error{Code: CodeInvalidCursor, Msg: "the cursor is not one this server issued: it was changed, cut or made up",
			Hint: "pass next_cursor from the previous page unchanged, or leave cursor out to start from the first page"}
	}
	parts := strings.SplitN(string(b[:len(b)-8]), "\x00", 4)
	if len(parts) != 4 || parts[0] != cursorVersion || parts[1] != surface || parts[2] != cursorBinding(args...) {
		return "", &engine.Error{Code: CodeInvalidCursor, Msg: "the cursor belongs to another request (another tool, datasource, filter or text)",
			Hint: "repeat the request with the same arguments as the page that gave the cursor, or leave cursor out to start from the first page"}
	}
	return parts[3], nil
}
