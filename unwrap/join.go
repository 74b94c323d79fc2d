package unwrap

// Line is an inner line with the position of the envelope line it came
// from (the first, for a line joined from parts).
type Line struct {
	// Num is the envelope line's 1-based number in its source.
	Num   int
	Text  []byte
	Nanos int64
	// Cut says the joined line was longer than the Joiner keeps.
	Cut bool
	// Source and Listed are the Inner's Source and Num: the file (or
	// stream) and line a listing says the line is from.
	Source []byte
	Listed int
	// Stream is the stream the envelope line was written to.
	Stream Stream
}

// Joiner joins partial lines (CRI `P`, docker json-file records split at
// 16 KiB) with the lines after them in the same stream, up to the line
// that ends it. Streams join apart: a stderr line between two parts of a
// stdout line is a line of its own.
type Joiner struct {
	// Max bounds a joined line; the rest of it is dropped and the line
	// marked Cut.
	Max     int
	pending [3]pend
	open    int
}

type pend struct {
	active bool
	line   Line
}

// Pending says whether some stream's line is waiting for its end.
func (j *Joiner) Pending() bool { return j.open > 0 }

// Waiting says whether a line of stream s would continue a pending one.
func (j *Joiner) Waiting(s Stream) bool { return j.pending[s].active }

// Add takes the inner line of envelope line num. It returns the line to
// read now, if any: a whole line, or the end of a joined one (whose text
// the Joiner owns until the next call).
func (j *Joiner) Add(num int, in Inner) (Line, bool) {
	p := &j.pending[in.Stream]
	if !p.active {
		if !in.Partial {
			return Line{Num: num, Text: in.Text, Nanos: in.Nanos, Source: in.Source, Listed: in.Num, Stream: in.Stream}, true
		}
		p.active = true
		j.open++
		p.line = Line{Num: num, Text: append(p.line.Text[:0], in.Text...), Nanos: in.Nanos, Listed: in.Num, Stream: in.Stream}
		if in.Source != nil {
			p.line.Source = append([]byte(nil), in.Source...)
		}
		j.bound(p)
		return Line{}, false
	}
	if !p.line.Cut {
		p.line.Text = append(p.line.Text, in.Text...)
		j.bound(p)
	}
	if in.Partial {
		return Line{}, false
	}
	p.active = false
	j.open--
	return p.line, true
}

func (j *Joiner) bound(p *pend) {
	if j.Max > 0 && len(p.line.Text) > j.Max {
		p.line.Text, p.line.Cut = p.line.Text[:j.Max], true
	}
}

// End returns the lines still waiting at the end of the source (the last
// part of each was never written), in the order they began.
func (j *Joiner) End() []Line {
	var out []Line
	for i := range j.pending {
		if p := &j.pending[i]; p.active {
			p.active = false
			out = append(out, p.line)
		}
	}
	j.open = 0
	for a := 0; a < len(out); a++ {
		for b := a + 1; b < len(out); b++ {
			if out[b].Num < out[a].Num {
				out[a], out[b] = out[b], out[a]
			}
		}
	}
	return out
}
