package unwrap

import (
	"bytes"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// The JSON envelopes (docker json-file, Loki jsonl, journald json) are one
// object a line. eachField walks the object's top-level members without
// building anything, so only the fields an envelope wants are decoded.

var (
	errNotObject  = errors.New("not a JSON object")
	errTruncated  = errors.New("the record ends inside a value")
	errSyntax     = errors.New("malformed JSON")
	errTrailing   = errors.New("text after the record's closing brace")
	errBadEscape  = errors.New("a bad escape in a string")
	errNotString  = errors.New("a field is not a string")
	errNoMessage  = errors.New("no message field")
	errBadTime    = errors.New("a timestamp that is not RFC 3339")
	errBadMessage = errors.New("a message array that is not bytes")
)

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// eachField calls fn with the raw key (without quotes, still escaped) and
// the raw value of every member of the object b holds.
func eachField(b []byte, fn func(key, val []byte) error) error {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return errNotObject
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return trailing(b, i+1)
	}
	for {
		if i >= len(b) {
			return errTruncated
		}
		if b[i] != '"' {
			return errSyntax
		}
		end, err := skipString(b, i)
		if err != nil {
			return err
		}
		key := b[i+1 : end-1]
		i = skipWS(b, end)
		if i >= len(b) {
			return errTruncated
		}
		if b[i] != ':' {
			return errSyntax
		}
		i = skipWS(b, i+1)
		vend, err := skipValue(b, i, 0)
		if err != nil {
			return err
		}
		if err := fn(key, b[i:vend]); err != nil {
			return err
		}
		i = skipWS(b, vend)
		if i >= len(b) {
			return errTruncated
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return trailing(b, i+1)
		default:
			return errSyntax
		}
	}
}

func trailing(b []byte, i int) error {
	if skipWS(b, i) != len(b) {
		return errTrailing
	}
	return nil
}

// skipString returns the index after the string that starts at b[i]. It
// jumps from quote to quote: a quote ends the string unless an odd number
// of backslashes stands before it.
func skipString(b []byte, i int) (int, error) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, errTruncated
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, nil
		}
		j = q + 1
	}
}

// maxDepth bounds the nesting skipValue follows.
const maxDepth = 64

// skipValue returns the index after the value that starts at b[i].
func skipValue(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return 0, errTruncated
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return 0, errSyntax
		}
		close := byte('}')
		if c == '[' {
			close = ']'
		}
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == close {
			return i + 1, nil
		}
		for {
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return 0, errSyntax
				}
				end, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = skipWS(b, end)
				if i >= len(b) || b[i] != ':' {
					return 0, errSyntax
				}
				i = skipWS(b, i+1)
			}
			end, err := skipValue(b, i, depth+1)
			if err != nil {
				return 0, err
			}
			i = skipWS(b, end)
			if i >= len(b) {
				return 0, errTruncated
			}
			if b[i] == close {
				return i + 1, nil
			}
			if b[i] != ',' {
				return 0, errSyntax
			}
			i = skipWS(b, i+1)
		}
	case c == '-' || c >= '0' && c <= '9':
		j := i + 1
		for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' || b[j] == '-') {
			j++
		}
		return j, nil
	case c == 't' || c == 'f' || c == 'n':
		for _, w := range []string{"true", "false", "null"} {
			if len(b)-i >= len(w) && string(b[i:i+len(w)]) == w {
				return i + len(w), nil
			}
		}
	}
	return 0, errSyntax
}

// isString reports whether a raw value is a JSON string.
func isString(val []byte) bool { return len(val) >= 2 && val[0] == '"' }

// plainString returns a raw string value's contents when they hold no
// escape, so they can be used in place.
func plainString(val []byte) ([]byte, bool) {
	body := val[1 : len(val)-1]
	for _, c := range body {
		if c == '\\' {
			return nil, false
		}
	}
	return body, true
}

// appendString decodes a raw JSON string value onto dst: the escapes of
// RFC 8259, with \u surrogate pairs joined and a lone surrogate read as
// U+FFFD, as encoding/json does.
func appendString(dst, val []byte) ([]byte, error) {
	body := val[1 : len(val)-1]
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			j := i + 1
			for j < len(body) && body[j] != '\\' {
				j++
			}
			dst = append(dst, body[i:j]...)
			i = j
			continue
		}
		if i+1 >= len(body) {
			return dst, errBadEscape
		}
		switch e := body[i+1]; e {
		case '"', '\\', '/':
			dst = append(dst, e)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(body, i+2)
			if !ok {
				return dst, errBadEscape
			}
			i += 6
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if i+1 < len(body) && body[i] == '\\' && body[i+1] == 'u' {
					if lo, ok := hex4(body, i+2); ok {
						if d := utf16.DecodeRune(r, lo); d != utf8.RuneError {
							r2 = d
							i += 6
						}
					}
				}
				r = r2
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default:
			return dst, errBadEscape
		}
		i += 2
	}
	return dst, nil
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// appendByteArray decodes journald's form of a binary field, an array of
// byte values, onto dst.
func appendByteArray(dst, val []byte) ([]byte, error) {
	i := skipWS(val, 1)
	if i < len(val) && val[i] == ']' {
		return dst, nil
	}
	for i < len(val) {
		n, j := 0, i
		for j < len(val) && val[j] >= '0' && val[j] <= '9' && n < 256 {
			n = n*10 + int(val[j]-'0')
			j++
		}
		if j == i || n > 255 {
			return dst, errBadMessage
		}
		dst = append(dst, byte(n))
		i = skipWS(val, j)
		if i >= len(val) {
			break
		}
		if val[i] == ']' {
			return dst, nil
		}
		if val[i] != ',' {
			return dst, errBadMessage
		}
		i = skipWS(val, i+1)
	}
	return dst, errBadMessage
}
