package parse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"
	"unicode/utf8"
)

// Line is one line of input offered to a decoder. Text has no line ending
// and is only valid during the call.
type Line struct {
	Pos  Pos
	Text []byte
}

// Sink collects what decoders produce.
type Sink struct {
	Events []Event
	Diags  []Diagnostic
}

// Emit appends an event.
func (s *Sink) Emit(e Event) { s.Events = append(s.Events, e) }

// Diag appends a diagnostic at pos.
func (s *Sink) Diag(pos Pos, format string, args ...any) {
	s.Diags = append(s.Diags, Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// Decoder reads one source's lines for one database system. Decoders are
// stateful (multi-line blocks, the year of a glog file) and used by one
// goroutine.
type Decoder interface {
	// Line offers a line; it returns true when the decoder claims it. A
	// decoder inside a multi-line block is offered the next line first.
	Line(l Line, out *Sink) bool
	// End closes whatever block is still open at the end of the source.
	End(out *Sink)
}

// Options are the user's settings that decoders need.
type Options struct {
	// Year is the year for timestamps that print none (glog), or 0 to take
	// it from the log.
	Year int
}

// System is one database system's parser.
type System struct {
	Name       string
	NewDecoder func(source string, opts Options) Decoder
}

// MaxLine is the longest line kept whole. Longer lines are cut there (with a
// diagnostic) so one runaway line cannot take the memory of the run.
const MaxLine = 1 << 20

// Stats counts what one source held.
type Stats struct {
	Source    string `json:"source"`
	Bytes     int64  `json:"bytes"`
	Lines     int    `json:"lines"`
	Claimed   int    `json:"claimed"`
	Unclaimed int    `json:"unclaimed"`
	Events    int    `json:"events"`
	Diags     int    `json:"diagnostics"`
}

// Result is what Scan read from one source.
type Result struct {
	Stats  Stats
	Events []Event
	Diags  []Diagnostic
}

// Scan reads src line by line and offers every line to the decoders of
// systems, in order; the first to claim it wins, except that the decoder
// which claimed the previous line is asked first (it may be inside a block).
// Blank lines are offered only to that decoder.
//
// Scan returns what it read even when reading fails part way; the error
// then says where.
func Scan(src io.Reader, source string, systems []System, opts Options) (*Result, error) {
	res := &Result{Stats: Stats{Source: source}}
	decs := make([]Decoder, len(systems))
	for i, s := range systems {
		decs[i] = s.NewDecoder(source, opts)
	}
	var (
		sink      Sink
		active    = -1
		lastTime  time.Time
		hasTime   bool
		emitted   int
		binary    int
		binFirst  int
		invalid   int
		invFirst  int
		lineNo    int
		rd        = bufio.NewReaderSize(src, 64<<10)
		long      []byte
		overlong  bool
		readError error
	)
	// stamp gives the events decoded so far their order and, where they
	// have none, the time of the last timed line.
	stamp := func() {
		for _, e := range sink.Events[emitted:] {
			m := e.Info()
			if m.Timed {
				lastTime, hasTime = m.Time, true
			} else if hasTime {
				m.Time = lastTime
			}
		}
		emitted = len(sink.Events)
	}
	offer := func(text []byte) {
		lineNo++
		res.Stats.Lines++
		if bytes.IndexByte(text, 0) >= 0 {
			if binary == 0 {
				binFirst = lineNo
			}
			binary++
			res.Stats.Unclaimed++
			return
		}
		if !utf8.Valid(text) {
			if invalid == 0 {
				invFirst = lineNo
			}
			invalid++
			text = bytes.ToValidUTF8(text, []byte("\uFFFD"))
		}
		line := Line{Pos: Pos{Source: source, Line: lineNo}, Text: text}
		blank := len(bytes.TrimSpace(text)) == 0
		claimed := false
		if active >= 0 {
			claimed = decs[active].Line(line, &sink)
		}
		if !claimed && !blank {
			for i, d := range decs {
				if i == active {
					continue
				}
				if d.Line(line, &sink) {
					claimed, active = true, i
					break
				}
			}
		}
		if claimed {
			res.Stats.Claimed++
		} else if !blank {
			res.Stats.Unclaimed++
		}
		stamp()
	}
	for {
		chunk, err := rd.ReadSlice('\n')
		res.Stats.Bytes += int64(len(chunk))
		if errors.Is(err, bufio.ErrBufferFull) {
			if !overlong {
				if len(long)+len(chunk) > MaxLine {
					long = append(long, chunk[:MaxLine-len(long)]...)
					overlong = true
				} else {
					long = append(long, chunk...)
				}
			}
			continue
		}
		if len(chunk) > 0 || long != nil {
			text := chunk
			if long != nil {
				if !overlong {
					if len(long)+len(chunk) > MaxLine {
						long = append(long, chunk[:MaxLine-len(long)]...)
						overlong = true
					} else {
						long = append(long, chunk...)
					}
				}
				text = long
			}
			text = bytes.TrimSuffix(text, []byte("\n"))
			text = bytes.TrimSuffix(text, []byte("\r"))
			if overlong {
				sink.Diag(Pos{source, lineNo + 1}, "line longer than %d MiB; only its first %d MiB were read", MaxLine>>20, MaxLine>>20)
			}
			offer(text)
			long, overlong = long[:0], false
			if len(long) == 0 {
				long = nil
			}
		}
		if err != nil {
			if err != io.EOF {
				readError = fmt.Errorf("%s: read after line %d: %w", source, lineNo, err)
			}
			break
		}
	}
	for _, d := range decs {
		d.End(&sink)
	}
	stamp()
	if binary > 0 {
		sink.Diag(Pos{source, binFirst}, "%d line(s) hold binary data (NUL bytes), first at line %d; skipped", binary, binFirst)
	}
	if invalid > 0 {
		sink.Diag(Pos{source, invFirst}, "%d line(s) are not valid UTF-8, first at line %d; bad bytes read as U+FFFD", invalid, invFirst)
	}
	res.Events = sink.Events
	res.Diags = sink.Diags
	res.Stats.Events = len(sink.Events)
	res.Stats.Diags = len(sink.Diags)
	return res, readError
}
