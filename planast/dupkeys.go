package planast

import (
	"bytes"
	"encoding/json"
)

// dupFrame is one open object or array while CheckDuplicateKeys walks a
// document: its path, and for an object the keys seen so far.
type dupFrame struct {
	path    string
	keys    map[string]bool // nil for an array
	key     string          // the object's current key
	wantKey bool            // the next string token is a key
	i       int             // the array's current index
}

func (f *dupFrame) child() string {
	if f.keys != nil {
		return JoinPath(f.path, f.key)
	}
	return IndexPath(f.path, f.i)
}

func (f *dupFrame) valueDone() {
	if f.keys != nil {
		f.wantKey = true
	} else {
		f.i++
	}
}

// CheckDuplicateKeys refuses an object that names a key twice, at any
// level. encoding/json keeps the last value silently, so a plan writing
// "from" twice would be checked against a table its author did not mean
// to keep, and the errors would name the wrong one. Tool calls check
// their arguments with it too. It walks data (which already parsed as
// JSON) with encoding/json's tokenizer.
func CheckDuplicateKeys(data []byte, what string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*dupFrame
	top := func() *dupFrame {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1]
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // the parse already reported a malformed document
		}
		f := top()
		if s, ok := tok.(string); ok && f != nil && f.keys != nil && f.wantKey {
			if f.keys[s] {
				e := NewError(CodeMalformed, JoinPath(f.path, s), "%s writes the key %q twice in one object", what, s)
				e.Issues[0].Hint = "write each key once: JSON would keep only the last value and silently drop the first"
				return e
			}
			f.keys[s], f.key, f.wantKey = true, s, false
			continue
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			path := ""
			if f != nil {
				path = f.child()
			}
			nf := &dupFrame{path: path}
			if tok == json.Delim('{') {
				nf.keys, nf.wantKey = map[string]bool{}, true
			}
			stack = append(stack, nf)
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if p := top(); p != nil {
			p.valueDone()
		} else {
			return nil // the first value is complete
		}
	}
}
