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

// partialEnvelope reads an excerpt pasted from the file field on
// (`mvcc.cc:395] msg`, `../../src/yb/tablet/mvcc.cc:395] msg`): the
// clock and level are lost, the file is kept for the alarm's Where.
func partialEnvelope(e *envelope) {
	if file, msg, ok := fileField(e.msg); ok && bytes.IndexByte(file, '.') > 0 {
		e.file, e.msg = base(file), msg
	}
}
