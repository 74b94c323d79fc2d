package parse

import (
	"fmt"
	"io"
	"time"
)

// Line is one line of input offered to a decoder. Text has no line ending
// and is only valid during the call.
type Line struct {
	Pos  Pos
	Text []byte
	// Collected is the time the collector that wrapped the line
	// (kubectl --timestamps, CRI, docker json-file, journald, Loki, a CI
	// step log) stamped on it, or zero when the line came unwrapped. It
	// is when the line was collected, not when the database logged it:
	// decoders order by their own timestamps and use it only for what
	// the database did not print (the year of a glog line).
	Collected time.Time
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

// Owner is implemented by decoders that can tell a line is in their own
// system's format even when they decline it (a glog line from a file they
// do not read): Scan then asks no other system about it, which keeps the
// cost of a large log's ordinary lines to one decoder's byte test.
type Owner interface {
	// Owned reports whether the line most recently declined was in this
	// decoder's format.
	Owned() bool
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
	// Skip, when set, is a pure test (safe from several goroutines) that
	// takes a line no decoder of any system would claim and that is in this
	// system's own format, so it ends any block this system's decoder has
	// open. Scan runs it on worker goroutines, ahead of the decoders, so the
	// bulk of a large log never reaches them.
	Skip func(text []byte) bool
	// Knows, when set, is a pure test (safe from several goroutines) of
	// whether a line is in this system's own log format (a glog line or
	// file header, a log4j or JSON layout line of the database), whether
	// or not any reader wants it. Scan counts such lines as known, so a
	// report can say how much of an input was recognised, and an input of
	// which nothing was is never a silent pass.
	Knows func(text []byte) bool
}

// YearTeller is implemented by decoders of logs whose timestamps print no
// year (glog): Scan asks it at the end of the source which year it used
// and where that came from, for the source's stats.
type YearTeller interface {
	// Year returns the year and its provenance: YearFromHeader,
	// YearFromFlag, YearFromCollector, YearFromHybridTime or
	// YearAssumed; 0 and "" when the source printed no yearless time.
	Year() (year int, from string)
}

// Where a year came from, for Stats.YearFrom.
const (
	YearFromHeader     = "header"        // the glog `Log file created at:` line
	YearFromFlag       = "flag"          // --year
	YearFromDetails    = "fatal-details" // a FATAL-details line's full date
	YearFromCollector  = "collector"     // the wrapper's timestamps
	YearFromHybridTime = "hybrid-time"   // hybrid times printed in the same source
	YearAssumed        = "assumed"       // nothing said; a diagnostic tells
)

// Breaker is implemented by decoders with a Skip test: Break is called for
// a line Skip took, where Line would have ended an open block. A run of
// such lines may get one call: a second Break in a row must change
// nothing.
type Breaker interface {
	Break(out *Sink)
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
	// Known counts the lines in a known system's format (claimed or
	// not); Lines - Known were not recognised as any system's log.
	Known int `json:"known,omitempty"`
	// Year and YearFrom say which year yearless timestamps were given and
	// why (see YearTeller); empty when the source printed none.
	Year     int    `json:"year,omitempty"`
	YearFrom string `json:"year_from,omitempty"`
	// SpeaksFor lists the subjects the source's events named (YugabyteDB
	// peers, Elasticsearch nodes), so a report can say which file is which
	// node. Scan leaves it empty; the caller fills it.
	SpeaksFor []string `json:"speaks_for,omitempty"`
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
	res := &Result{}
	var err error
	res.Stats, res.Diags, err = ScanFunc(src, source, systems, opts, func(e Event) {
		res.Events = append(res.Events, e)
	})
	return res, err
}

// knows reports whether a line no decoder claimed is in a system's own
// format (System.Knows). The system that knew the last such line is asked
// first (*last, -1 for none): a log is mostly one system's, so most lines
// cost one test.
func knows(systems []System, text []byte, last *int) bool {
	if k := *last; k >= 0 && systems[k].Knows(text) {
		return true
	}
	for i, s := range systems {
		if i != *last && s.Knows != nil && s.Knows(text) {
			*last = i
			return true
		}
	}
	return false
}

func owns(d Decoder) bool {
	o, ok := d.(Owner)
	return ok && o.Owned()
}

// MaxDiags bounds the diagnostics kept per source; the count of the rest
// is reported in one more.
const MaxDiags = 1000

// ScanFunc is Scan for inputs too large to hold their events: each event
// goes to emit as soon as it is complete (a multi-line event when its last
// line has been read), in line order, with its time filled in.
func ScanFunc(src io.Reader, source string, systems []System, opts Options, emit func(Event)) (Stats, []Diagnostic, error) {
	st := Stats{Source: source}
	decs := make([]Decoder, len(systems))
	for i, s := range systems {
		decs[i] = s.NewDecoder(source, opts)
	}
	var (
		sink      Sink
		diags     []Diagnostic
		dropped   int
		active    = -1
		lastTime  time.Time
		hasTime   bool
		binary    int
		binFirst  int
		invalid   int
		invFirst  int
		lineNo    int
		readError error
		lastKnows = -1
	)
	// flush hands the events decoded so far to emit, giving each without a
	// time the time of the last timed line before it.
	flush := func() {
		for _, e := range sink.Events {
			m := e.Info()
			if m.Timed {
				lastTime, hasTime = m.Time, true
			} else if hasTime {
				m.Time = lastTime
			}
			st.Events++
			emit(e)
		}
		clear(sink.Events)
		sink.Events = sink.Events[:0]
		for _, d := range sink.Diags {
			if len(diags) < MaxDiags {
				diags = append(diags, d)
			} else {
				dropped++
			}
		}
		sink.Diags = sink.Diags[:0]
	}
	offer := func(p preparedLine) {
		lineNo++
		st.Lines++
		if p.flags&flagOverlong != 0 {
			sink.Diag(Pos{source, lineNo}, "line longer than %d MiB; only its first %d MiB were read", MaxLine>>20, MaxLine>>20)
		}
		if p.flags&flagBinary != 0 {
			if binary == 0 {
				binFirst = lineNo
			}
			binary++
			st.Unclaimed++
			flush()
			return
		}
		if p.flags&flagInvalid != 0 {
			if invalid == 0 {
				invFirst = lineNo
			}
			invalid++
		}
		// A line a system's Skip test took is unclaimed, unless another
		// system's decoder is inside a block and must see it.
		if k := int(p.skip); k >= 0 && (active < 0 || active == k) {
			if b, ok := decs[k].(Breaker); ok {
				b.Break(&sink)
			}
			st.Unclaimed++
			st.Known++
			if len(sink.Events) > 0 || len(sink.Diags) > 0 {
				flush()
			}
			return
		}
		line := Line{Pos: Pos{Source: source, Line: lineNo}, Text: p.text}
		blank := p.flags&flagBlank != 0
		claimed, owned := false, false
		if active >= 0 {
			claimed = decs[active].Line(line, &sink)
			owned = !claimed && owns(decs[active])
		}
		if !claimed && !blank && !owned {
			for i, d := range decs {
				if i == active {
					continue
				}
				if d.Line(line, &sink) {
					claimed, active = true, i
					break
				}
				if owns(d) {
					break
				}
			}
		}
		if claimed {
			st.Claimed++
			st.Known++
		} else if !blank {
			st.Unclaimed++
			if knows(systems, p.text, &lastKnows) {
				st.Known++
			}
		}
		if len(sink.Events) > 0 || len(sink.Diags) > 0 {
			flush()
		}
	}
	n, err := lines(src, systems, func(ls []preparedLine) {
		for i := 0; i < len(ls); {
			p := &ls[i]
			// A run of lines one system's Skip test took passes at once
			// when no other system's decoder must see them.
			if k := int(p.skip); p.run > 1 && (active < 0 || active == k) {
				lineNo += int(p.run)
				st.Lines += int(p.run)
				st.Unclaimed += int(p.run)
				st.Known += int(p.run)
				if b, ok := decs[k].(Breaker); ok {
					b.Break(&sink)
				}
				if len(sink.Events) > 0 || len(sink.Diags) > 0 {
					flush()
				}
				i += int(p.run)
				continue
			}
			offer(*p)
			i++
		}
	})
	st.Bytes = n
	if err != nil {
		readError = fmt.Errorf("%s: read after line %d: %w", source, lineNo, err)
	}
	for _, d := range decs {
		d.End(&sink)
	}
	if binary > 0 {
		sink.Diag(Pos{source, binFirst}, "%d line(s) hold binary data (NUL bytes), first at line %d; skipped", binary, binFirst)
	}
	if invalid > 0 {
		sink.Diag(Pos{source, invFirst}, "%d line(s) are not valid UTF-8, first at line %d; bad bytes read as U+FFFD", invalid, invFirst)
	}
	flush()
	if dropped > 0 {
		diags = append(diags, Diagnostic{Pos: Pos{Source: source}, Message: fmt.Sprintf("%d more diagnostics not kept", dropped)})
	}
	st.Diags = len(diags)
	return st, diags, readError
}
