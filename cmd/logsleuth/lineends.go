package main

import (
	"bytes"
	"io"
)

// A log saved with classic Mac line ends (a carriage return alone, as
// some Windows tools and pasted excerpts leave them) would reach the
// parsers as one line: its header recognised, everything after it
// unread, and "0 findings". So an input whose first bytes hold a
// carriage return and no line feed has each carriage return read as a
// line end. Any other input, CRLF included (the parsers take the CR off),
// passes unchanged.

// lineEndsHead is how much of an input decides its line ends.
const lineEndsHead = 64 << 10

// withLineEnds returns r, reading lone carriage returns as line feeds
// when the first lineEndsHead bytes hold a carriage return but no line
// feed.
func withLineEnds(r io.Reader) io.Reader {
	// The head is read into a buffer of its own (a bufio.Reader of r's
	// size would be r itself, and Peek would not move r past the head):
	// it is read from there, then r directly, so the common case costs no
	// further copy.
	head := make([]byte, lineEndsHead)
	n, err := io.ReadFull(r, head)
	head = head[:n]
	rest := r
	switch err {
	case nil:
	case io.EOF, io.ErrUnexpectedEOF:
		rest = eofReader{}
	default:
		rest = errReader{err}
	}
	in := io.MultiReader(bytes.NewReader(head), rest)
	if bytes.IndexByte(head, '\n') >= 0 || bytes.IndexByte(head, '\r') < 0 {
		return in
	}
	return &crReader{r: in}
}

// errReader returns err: a read error met while deciding the line ends is
// still the reader's error, after the bytes read before it.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// crReader reads each carriage return as a line feed.
type crReader struct{ r io.Reader }

func (c *crReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i := range p[:n] {
		if p[i] == '\r' {
			p[i] = '\n'
		}
	}
	return n, err
}
