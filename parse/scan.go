package parse

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/logsleuth/logsleuth/unwrap"
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
	// Str is Text as a string, made ahead on a worker goroutine for a
	// line a system's Strings test took or its Classify test asked for
	// (Verdict.Str, Verdict.Pack), or "" when none was made. A decoder
	// may keep it (it does not change with the buffer Text is in); when
	// it is "" and Text is not, the decoder copies Text.
	Str string
	// Note is what the decoder's own system's Classify test read of the
	// line on a worker goroutine (Verdict.Note), so the decoder need not
	// read it again; 0 when there is none. Decoders of other systems are
	// given 0.
	Note uint64
	// Made is what that test made of the line beside its note
	// (Verdict.Made), or "": a text, unlike Text, that the decoder may
	// keep.
	Made string
	// Off is where Text starts in the input plus one, when Text is the
	// input's own bytes there (a line as read, not taken out of an
	// envelope, numbered by the caller or repaired), else 0: the line
	// can then be read again from the input by offset and length.
	Off int64
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
	// AlarmPhrases are words of alarms a user's catalogue adds: a line
	// holding one is offered to the decoders (never skipped), and a
	// decoder that reads alarms takes it as one whatever file printed it.
	AlarmPhrases []string
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
	// Strings, when set, is a pure test (safe from several goroutines)
	// of whether a line no Skip test took is one this system's decoder
	// will likely keep the text of: Scan then makes the text a string
	// (Line.Str) on a worker goroutine, so the copy is not made on the
	// decoders' one.
	Strings func(text []byte) bool
	// Classify, when set, is Skip and Strings in one pure test (safe
	// from several goroutines), which Scan's workers run in their place:
	// a system's two tests often begin with the same reading of a line,
	// and what that reading found can go on to the decoder (Verdict.Note,
	// Line.Note) rather than be read again there. Skip and Strings must
	// still be set, and agree with it: Scan calls them where it has no
	// worker's verdict (an envelope's joined or reordered lines).
	Classify func(text []byte) Verdict
}

// Verdict is what a Classify test says of a line.
type Verdict struct {
	// Skip and Str are what the Skip and Strings tests would say.
	Skip, Str bool
	// Note, when not 0, is handed to the system's decoders with the line
	// (Line.Note) if Skip is false.
	Note uint64
	// Made, when not "", is a text the system's Classify test made of
	// the line for its decoders, handed to them with its Note
	// (Line.Made). It is dropped when a Strings test wants the line as
	// a string (Str).
	Made string
	// Pack, when Str is false, asks for the line as a string too, made on
	// the worker, as Str does, but in a text block it shares with other
	// lines of its chunk that asked for it, so a line costs a copy, not an
	// allocation. Str's string holds the line alone: it is for a text a
	// decoder may keep for long on its own; a packed one keeps its block
	// alive while any of its lines is kept.
	Pack bool
	// Foreign says the line is not in the system's own line layout (no
	// glog envelope, no log4j record): its decoder can still claim it
	// inside a block or as a bare excerpt, but a line every system calls
	// foreign is most often no one's, and the worker then asks the Knows
	// tests of it, off the goroutine that feeds the decoders.
	Foreign bool
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

// noted is line as the decoder of system i is given it: with the note of
// p's Classify test for the decoder of the system that made it.
func noted(line Line, p *preparedLine, i int) Line {
	if p.note != 0 && i == int(p.noteBy) {
		line.Note = p.note
		if p.made {
			line.Made = p.str
		}
	}
	return line
}

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
	// Envelope names the collector envelopes the lines were taken out
	// of, outermost first (unwrap.Envelope.String); empty for plain
	// lines.
	Envelope string `json:"envelope,omitempty"`
	// Listed says some lines came from a listing that names each line's
	// file and number (grep -rn, rg --heading): those lines are cited
	// where the listing says, so an event may cite a line past Lines.
	Listed bool `json:"-"`
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
// line has been read), in line order, with its time filled in. A listing
// of several files' or streams' lines (grep -rn, a Loki query over several
// pods; unwrap.Envelope.Splits) is the exception: each file or stream is
// read as a source of its own, and their events are held to the end to be
// merged by time, as if the files had been given apart. A container's
// two output streams (CRI, docker json-file) are read by decoders of
// their own too, so that one stream's lines do not break a block open in
// the other's; both keep the input's name and line numbers (one process
// wrote them), and their events come in line order as they complete.
func ScanFunc(src io.Reader, source string, systems []System, opts Options, emit func(Event)) (Stats, []Diagnostic, error) {
	systems = keepPhrases(systems, opts.AlarmPhrases)
	return scan(func(fn func(*chunk)) (int64, error) { return chunkLines(src, systems, true, fn) }, source, systems, opts, emit)
}

// scan is ScanFunc over prepared chunks: feed calls fn with them, in
// order, and returns the bytes read and the read error. The systems' Skip
// tests, which feed runs, must already keep opts.AlarmPhrases
// (keepPhrases).
func scan(feed func(fn func(*chunk)) (int64, error), source string, systems []System, opts Options, emit func(Event)) (Stats, []Diagnostic, error) {
	st := Stats{Source: source}
	newTarget := func(name string) *target {
		t := &target{name: name, decs: make([]Decoder, len(systems)), active: -1}
		for i, s := range systems {
			t.decs[i] = s.NewDecoder(name, opts)
		}
		return t
	}
	// cur is the source whose decoders read the line at hand: the input,
	// or in a listing of several files' lines, the file the line is from.
	main := newTarget(source)
	cur := main
	var (
		sink      Sink
		diags     []Diagnostic
		dropped   int
		binary    int
		binFirst  int
		invalid   int
		invFirst  int
		lineNo    int
		readError error
		// plainAt is where the chunk being offered starts in the input
		// when its lines are the input's own bytes, else -1.
		plainAt   int64 = -1
		lastKnows       = -1
		split     bool
		targets   = []*target{main}
		byName    = map[string]*target{}
	)
	// flush hands the events decoded so far to emit, giving each without a
	// time the time of the last timed line before it.
	flush := func() {
		for _, e := range sink.Events {
			m := e.Info()
			if m.Timed {
				cur.lastTime, cur.hasTime = m.Time, true
			} else if cur.hasTime {
				m.Time = cur.lastTime
			}
			st.Events++
			if split {
				cur.events = append(cur.events, e)
			} else {
				emit(e)
			}
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
	// home is the output stream whose lines the input's decoders read:
	// the first a line names. A container's other stream (stdout beside
	// glog's stderr) interleaves with it line by line, so its lines go
	// to decoders of their own, under the same source name (one process
	// wrote both, at the input's own line numbers): a block open in one
	// stream is not broken by the other's lines.
	home := unwrap.NoStream
	var byStream [3]*target
	// pick returns the target that reads a line of stream s that ref
	// says is from the input (ref.src nil) or a listed file or stream.
	pick := func(ref subRef, s unwrap.Stream) *target {
		if home == unwrap.NoStream {
			home = s
		}
		if ref.src == nil {
			if s == home || s == unwrap.NoStream {
				return main
			}
			if byStream[s] == nil {
				byStream[s] = newTarget(source)
				targets = append(targets, byStream[s])
			}
			return byStream[s]
		}
		key := string(ref.src)
		if s != home && s != unwrap.NoStream {
			key += "\x00" + s.String()
		}
		t := byName[key]
		if t == nil {
			// A file a listing names is the source; a stream of a
			// listing is the listing's, its labels said.
			name := string(ref.src)
			if ref.num == 0 {
				name = source + name
			}
			t = newTarget(name)
			byName[key] = t
			targets = append(targets, t)
		}
		return t
	}
	// offerAt offers the line numbered n, or in a listing of several
	// files, the line ref says.
	offerAt := func(n int, p *preparedLine, ref subRef) {
		// The input's own line, for what is said of the input as a whole.
		outer := n
		if cur = main; ref.src != nil || p.stream != home {
			cur = pick(ref, p.stream)
		}
		if ref.num > 0 {
			n = ref.num
			st.Listed = true
		}
		t := cur
		source, active, decs := t.name, t.active, t.decs
		if p.flags&flagOverlong != 0 {
			sink.Diag(Pos{source, n}, "line longer than %d MiB; only its first %d MiB were read", MaxLine>>20, MaxLine>>20)
		}
		if p.flags&flagBinary != 0 {
			if binary == 0 {
				binFirst = outer
			}
			binary++
			st.Unclaimed++
			flush()
			return
		}
		if p.flags&flagInvalid != 0 {
			if invalid == 0 {
				invFirst = outer
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
		line := Line{Pos: Pos{Source: source, Line: n}, Text: p.text}
		if plainAt >= 0 && p.flags&flagInvalid == 0 {
			line.Off = plainAt + int64(p.off) + 1
		}
		if !p.made {
			line.Str = p.str
		}
		if p.nanos != 0 {
			line.Collected = time.Unix(0, p.nanos).UTC()
		}
		blank := p.flags&flagBlank != 0
		claimed, owned := false, false
		if active >= 0 {
			claimed = decs[active].Line(noted(line, p, active), &sink)
			owned = !claimed && owns(decs[active])
		}
		if !claimed && !blank && !owned {
			for i, d := range decs {
				if i == active {
					continue
				}
				if d.Line(noted(line, p, i), &sink) {
					claimed, active = true, i
					break
				}
				if owns(d) {
					break
				}
			}
		}
		t.active = active
		if claimed {
			st.Claimed++
			st.Known++
		} else if !blank {
			st.Unclaimed++
			if p.knowsAsked {
				if p.known {
					st.Known++
				}
			} else if knows(systems, p.text, &lastKnows) {
				st.Known++
			}
		}
		if len(sink.Events) > 0 || len(sink.Diags) > 0 {
			flush()
		}
	}
	offer := func(p *preparedLine) {
		if p.no > 0 {
			// A line that says its number (ScanNumbered): the lines
			// left out before it end an open block, as lines a Skip
			// test took do.
			if p.no > lineNo+1 && main.active >= 0 {
				cur = main
				if b, ok := main.decs[main.active].(Breaker); ok {
					b.Break(&sink)
				}
			}
			lineNo = p.no
		} else {
			lineNo++
		}
		st.Lines++
		offerAt(lineNo, p, subRef{})
	}
	w := wrapped{systems: systems, join: unwrap.Joiner{Max: MaxLine}, offer: offerAt}
	n, err := feed(func(c *chunk) {
		ls := c.lines
		plainAt = -1
		if c.env == nil {
			plainAt = c.at
		}
		if c.env != nil && w.env == nil {
			w.start(c.env)
			st.Envelope = c.env.String()
			split = c.env.Splits()
		}
		for i := 0; i < len(ls); {
			p := &ls[i]
			// A run of lines one system's Skip test took passes at once
			// when no other system's decoder must see them (nor an
			// envelope's joined or reordered line wait for them).
			if k := int(p.skip); p.run > 1 && !w.holding() && !split {
				t := main
				if p.stream != home {
					t = pick(subRef{}, p.stream)
				}
				if t.active < 0 || t.active == k {
					lineNo += int(p.run)
					st.Lines += int(p.run)
					st.Unclaimed += int(p.run)
					st.Known += int(p.run)
					cur = t
					if b, ok := t.decs[k].(Breaker); ok {
						b.Break(&sink)
					}
					if len(sink.Events) > 0 || len(sink.Diags) > 0 {
						flush()
					}
					i += int(p.run)
					continue
				}
			}
			if w.env == nil {
				offer(p)
			} else {
				if p.flags&flagSameLine == 0 {
					lineNo++
					st.Lines++
				}
				if p.flags&flagBad != 0 {
					st.Unclaimed++
					sink.Diag(Pos{source, lineNo}, "%v; skipped", c.bad[i])
					flush()
				} else {
					var ref subRef
					if i < len(c.subs) {
						ref = c.subs[i]
					}
					w.line(lineNo, p, ref)
				}
			}
			i++
		}
	})
	plainAt = -1
	if w.env != nil {
		w.end()
		if note := w.order.Note(); note != "" {
			sink.Diag(Pos{Source: source}, "%s", note)
		}
	}
	st.Bytes = n
	if err != nil {
		readError = fmt.Errorf("%s: read after line %d: %w", source, lineNo, err)
	}
	for _, t := range targets {
		cur = t
		for _, d := range t.decs {
			d.End(&sink)
			if y, ok := d.(YearTeller); ok && st.Year == 0 {
				st.Year, st.YearFrom = y.Year()
			}
		}
		flush()
	}
	cur = main
	if binary > 0 {
		sink.Diag(Pos{source, binFirst}, "%d line(s) hold binary data (NUL bytes), first at line %d; skipped", binary, binFirst)
	}
	if invalid > 0 {
		sink.Diag(Pos{source, invFirst}, "%d line(s) are not valid UTF-8, first at line %d; bad bytes read as U+FFFD", invalid, invFirst)
	}
	flush()
	if split {
		mergeTargets(targets, emit)
	}
	if dropped > 0 {
		diags = append(diags, Diagnostic{Pos: Pos{Source: source}, Message: fmt.Sprintf("%d more diagnostics not kept", dropped)})
	}
	st.Diags = len(diags)
	return st, diags, readError
}

// wrapped takes an envelope's lines on from the workers: it joins partial
// lines, restores the order of a newest-first listing, and offers what
// results at the envelope line's own number.
type wrapped struct {
	env     *unwrap.Envelope
	systems []System
	join    unwrap.Joiner
	// order is set for an envelope that may list newest first.
	order *unwrap.Reorder
	offer func(n int, p *preparedLine, ref subRef)
	// built is the line offerLine or deliver makes and offers.
	built preparedLine
}

// maxReorder bounds the text held to put a newest-first listing back in
// order.
const maxReorder = 256 << 20

func (w *wrapped) start(env *unwrap.Envelope) {
	w.env = env
	if env.MayDescend() {
		w.order = &unwrap.Reorder{Max: maxReorder}
	}
}

// holding says lines are held, so every line must pass through w.
func (w *wrapped) holding() bool { return w.join.Pending() || w.order != nil }

func (w *wrapped) line(n int, p *preparedLine, ref subRef) {
	if p.flags&flagNoLine != 0 {
		return
	}
	if p.flags&flagPartial != 0 || w.join.Waiting(p.stream) {
		l, ok := w.join.Add(n, unwrap.Inner{Text: p.text, Nanos: p.nanos, Stream: p.stream, Partial: p.flags&flagPartial != 0, Source: ref.src, Num: ref.num})
		if !ok {
			return
		}
		w.deliver(l, p.flags&(flagInvalid|flagOverlong))
		return
	}
	if w.order != nil {
		w.deliver(unwrap.Line{Num: n, Text: p.text, Nanos: p.nanos, Source: ref.src, Listed: ref.num, Stream: p.stream}, p.flags)
		return
	}
	w.offer(n, p, ref)
}

// deliver offers a line made by joining or held for reordering: its
// flags and Skip verdict are taken again from its text.
func (w *wrapped) deliver(l unwrap.Line, flags uint8) {
	if w.order != nil {
		if flags&flagBinary != 0 {
			w.built = preparedLine{text: l.Text, flags: flagBinary, skip: -1, stream: l.Stream}
			w.offer(l.Num, &w.built, subRef{l.Source, l.Listed})
			return
		}
		l.Cut = l.Cut || flags&flagOverlong != 0
		w.order.Add(l, w.offerLine)
		return
	}
	w.offerLine(l)
}

func (w *wrapped) offerLine(l unwrap.Line) {
	w.built = preparedLine{text: l.Text, nanos: l.Nanos, skip: -1, stream: l.Stream}
	p := &w.built
	if l.Cut {
		p.flags |= flagOverlong
	}
	if blank(p.text) {
		p.flags |= flagBlank
	} else {
		p.skip = skipOf(w.systems, p.text)
	}
	w.offer(l.Num, p, subRef{l.Source, l.Listed})
}

func (w *wrapped) end() {
	for _, l := range w.join.End() {
		w.deliver(l, 0)
	}
	if w.order != nil {
		w.order.End(w.offerLine)
	}
}

// target is one source's decoders: the input's, or in a listing of
// several files' lines (grep -rn), one file's.
type target struct {
	name   string
	decs   []Decoder
	active int
	// lastTime is the time of the last timed event, for the untimed
	// events after it.
	lastTime time.Time
	hasTime  bool
	// events are held, in a listing of several files, until all are
	// read and can be merged by time.
	events []Event
}

// mergeTargets emits the events of several files read out of one listing
// by wall time across the files, in line order within one (a clock that
// steps back in a file does not reorder it), ties in the order the files
// first appeared: as if the files had been given apart.
func mergeTargets(targets []*target, emit func(Event)) {
	next := make([]int, len(targets))
	high := make([]time.Time, len(targets))
	key := func(i int) time.Time {
		t := targets[i].events[next[i]].Info().Time
		if t.Before(high[i]) {
			return high[i]
		}
		return t
	}
	for {
		best := -1
		var bestKey time.Time
		for i, t := range targets {
			if next[i] >= len(t.events) {
				continue
			}
			if k := key(i); best < 0 || k.Before(bestKey) {
				best, bestKey = i, k
			}
		}
		if best < 0 {
			return
		}
		high[best] = bestKey
		e := targets[best].events[next[best]]
		targets[best].events[next[best]] = nil
		next[best]++
		emit(e)
	}
}

// keepPhrases returns systems whose Skip tests pass over no line holding
// one of phrases, so that the decoders see the alarms a user's catalogue
// adds.
func keepPhrases(systems []System, phrases []string) []System {
	if len(phrases) == 0 {
		return systems
	}
	words := make([][]byte, len(phrases))
	for i, p := range phrases {
		words[i] = []byte(p)
	}
	out := append([]System(nil), systems...)
	for i := range out {
		skip := out[i].Skip
		if skip == nil {
			continue
		}
		holds := func(text []byte) bool {
			for _, w := range words {
				if bytes.Contains(text, w) {
					return true
				}
			}
			return false
		}
		out[i].Skip = func(text []byte) bool {
			return skip(text) && !holds(text)
		}
		if classify := out[i].Classify; classify != nil {
			out[i].Classify = func(text []byte) Verdict {
				v := classify(text)
				if v.Skip && holds(text) {
					v.Skip = false
				}
				return v
			}
		}
	}
	return out
}
