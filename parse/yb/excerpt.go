package yb

import "bytes"

// What a ticket adds in front of a pasted log line and the envelope
// reader steps over: a Markdown fence glued to the line (```W0410 ...),
// a quote marker (`> `), and an opening quote mark.

// quoteMarks returns how many bytes of s are such marks, with the spaces
// after them.
func quoteMarks(s []byte) int {
	i := 0
	for i < len(s) {
		switch {
		case bytes.HasPrefix(s[i:], []byte("```")):
			i += 3
		case s[i] == '>' && i+1 < len(s) && s[i+1] == ' ', s[i] == '"', s[i] == '`':
			i++
		default:
			return i
		}
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	return i
}

// partialEnvelope reads a line splitEnvelope found no glog envelope at
// the start of: one numbered by the tool it was copied from (`cat -n`, an
// editor's line numbers, a log viewer's `21240 | ` column) in front of a
// glog line, a stack frame or an MVCC dump entry; or an excerpt pasted
// from the file field on (`mvcc.cc:395] msg`), whose clock and level are
// lost but whose file is kept for the alarm's Where.
func partialEnvelope(e *envelope) {
	if n := lineNumber(e.msg); n > 0 {
		rest := e.msg[n:]
		if c := rest[0]; c == 'I' || c == 'W' || c == 'E' || c == 'F' || c == 'D' || c == '@' || itemNumber(rest) > 0 {
			// rest starts with a letter, `@` or `N. `: lineNumber
			// finds none in it, so this goes one level deep only.
			inner := splitEnvelope(rest)
			if inner.hasClock || c == '@' || itemNumber(rest) > 0 {
				inner.indent += e.indent + n
				*e = inner
				return
			}
		}
	}
	if file, msg, ok := fileField(e.msg); ok && bytes.IndexByte(base(file), '.') > 0 {
		e.file, e.msg = base(file), msg
	}
}

// lineNumber returns the length of a line number at the start of s and
// the separator after it (spaces, or ` | `), or 0 for none: at most nine
// digits, then a space or a `|`, then more text.
func lineNumber(s []byte) int {
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != ' ' && s[i] != '|' {
		return 0
	}
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i < len(s) && s[i] == '|' {
		i++
		for i < len(s) && s[i] == ' ' {
			i++
		}
	}
	if i >= len(s) {
		return 0
	}
	return i
}
