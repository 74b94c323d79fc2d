package parse

import (
	"bytes"
	"errors"
	"io"
)

// NumberedLine is a line that says where it stands in its source.
type NumberedLine struct {
	// Line is the line's number in its source. 0, or a number not above
	// the line before's, is the line after the one before.
	Line int
	// Text is the line without its end. A text holding line ends is that
	// many lines, numbered on from Line.
	Text []byte
}

// numberedBatch bounds the lines and bytes ScanNumbered prepares at once.
const (
	numberedBatchLines = 1024
	numberedBatchBytes = 256 << 10
)

// ScanNumbered is ScanFunc for a source given as some of its lines, each
// with its number: a log store returns only the rows asked for, each with
// the line number it had in the file it was loaded from, and the lines
// left out cost nothing. Positions, events and diagnostics cite the
// numbers given; Stats count the lines given. The caller vouches that no
// decoder would claim a line left out: the lines left out before a line
// end any block open, as lines a Skip test took do.
//
// next returns the lines in order, then io.EOF; a line's Text need only
// stay valid until the next call. Another error ends the source, and
// ScanNumbered returns it with what it read, as ScanFunc returns a read
// error.
func ScanNumbered(next func() (NumberedLine, error), source string, systems []System, opts Options, emit func(Event)) (Stats, []Diagnostic, error) {
	systems = keepPhrases(systems, opts.AlarmPhrases)
	return scan(func(fn func(*chunk)) (int64, error) { return numberedLines(next, systems, fn) }, source, systems, opts, emit)
}

// numberedLines reads next in batches, prepares each batch's lines as a
// chunk of a file's are prepared, gives each its number and calls fn with
// them; it returns the bytes of text read and the error that ended next.
func numberedLines(next func() (NumberedLine, error), systems []System, fn func(*chunk)) (int64, error) {
	var (
		c     chunk
		buf   []byte
		nos   []int
		last  int
		total int64
	)
	flush := func() {
		if len(nos) == 0 {
			return
		}
		c.data, c.over, c.lines, c.done, c.at = buf, false, c.lines[:0], make(chan struct{}), -1
		prepare(&c, systems)
		if len(c.lines) != len(nos) {
			panic("parse: a numbered batch prepared into a different count of lines")
		}
		for i := range c.lines {
			c.lines[i].no = nos[i]
			// Runs assume consecutive numbers; every line is offered
			// on its own.
			c.lines[i].run = 0
		}
		fn(&c)
		clear(c.lines)
		buf, nos = buf[:0], nos[:0]
	}
	for {
		l, err := next()
		if err != nil {
			flush()
			if errors.Is(err, io.EOF) {
				return total, nil
			}
			return total, err
		}
		n := l.Line
		if n <= last {
			n = last + 1
		}
		text := l.Text
		for {
			line, rest, more := bytes.Cut(text, []byte("\n"))
			buf = append(buf, line...)
			buf = append(buf, '\n')
			nos = append(nos, n)
			total += int64(len(line)) + 1
			last = n
			if !more {
				break
			}
			text, n = rest, n+1
		}
		if len(nos) >= numberedBatchLines || len(buf) >= numberedBatchBytes {
			flush()
		}
	}
}
