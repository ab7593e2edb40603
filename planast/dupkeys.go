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
// JSON) with encoding/json's tokenizer, after a byte scan that proves most
// documents free of repeated keys without it.
func CheckDuplicateKeys(data []byte, what string) error {
	if scanFirst && !mayRepeatKeys(data) {
		return nil
	}
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

// scanFirst is off only in a test that compares the scan with the
// tokenizer alone.
var scanFirst = true

// mayRepeatKeys scans the first JSON value of data (which parsed) for an
// object writing a key twice, comparing keys as written: false means none
// does. A key with an escape or a non-ASCII byte could equal another once
// decoded, so it answers true and the tokenizer decides, as it does for
// anything the scan cannot follow.
func mayRepeatKeys(data []byte) bool {
	type frame struct {
		object  bool
		first   int // the object's first key in keys
		wantKey bool
	}
	var stack []frame
	var keys [][]byte
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			j, plain := i+1, true
			for ; j < len(data) && data[j] != '"'; j++ {
				if data[j] == '\\' {
					plain = false
					j++
				} else if data[j] >= 0x80 {
					plain = false
				}
			}
			if j >= len(data) {
				return true
			}
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
				key := data[i+1 : j]
				if !plain {
					return true
				}
				for _, k := range keys[stack[n-1].first:] {
					if bytes.Equal(k, key) {
						return true
					}
				}
				keys = append(keys, key)
				stack[n-1].wantKey = false
			}
			i = j
		case ',':
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].wantKey = true
			}
		case '{', '[':
			stack = append(stack, frame{object: c == '{', first: len(keys), wantKey: c == '{'})
		case '}', ']':
			if len(stack) == 0 {
				return true
			}
			keys = keys[:stack[len(stack)-1].first]
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return false // the first value is complete
			}
		}
	}
	return false
}
