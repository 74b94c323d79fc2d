package parse

import (
	"fmt"
	"time"
)

// Pos is where a line came from: the source as the user named it ("-" for
// standard input) and a 1-based line number.
type Pos struct {
	Source string `json:"source"`
	Line   int    `json:"line"`
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d", p.Source, p.Line) }

// Meta is what every event carries, whatever its system.
type Meta struct {
	Pos Pos
	// Last is the last line of a multi-line event (equal to Pos.Line for a
	// one-line event).
	Last int
	// Time is the wall time the log printed for the event's first line.
	// Timed is false where the log had none (a pasted dump entry, a message
	// quoted without its envelope); Scan then gives the event the time of
	// the last timed line before it in the same source, so merging keeps it
	// in place.
	Time  time.Time
	Timed bool
	// Text is the event's first line as read, for quoting as evidence.
	Text string
	// Off is where Text starts in the input plus one when Text is the
	// input's own bytes there (Line.Off), else 0: a state may then keep
	// the line's place instead of its text, and read it again for a
	// finding that cites it.
	Off int64
}

// Info returns m, so a struct embedding Meta (at any depth) implements
// Event's method. (A method named Meta would be shadowed by the embedded
// field of the same name one level up.)
func (m *Meta) Info() *Meta { return m }

// Event is one typed fact read from a log. Each system defines its own event
// structs; every one embeds Meta.
type Event interface {
	Info() *Meta
	// Kind names the event type in lower-kebab form for JSON Lines output
	// and test dumps ("yb.mvcc-dump").
	Kind() string
}

// Diagnostic is a line a parser claimed but could not read in full, or a
// problem with a whole input. It never stops a run.
type Diagnostic struct {
	Pos     Pos    `json:"pos"`
	Message string `json:"message"`
}

func (d Diagnostic) String() string {
	if d.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", d.Pos.Source, d.Message)
	}
	return fmt.Sprintf("%s: %s", d.Pos, d.Message)
}
