package yb

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/logsleuth/logsleuth/parse"
)

// System is the YugabyteDB parser.
var System = parse.System{
	Name: "yb",
	NewDecoder: func(source string, opts parse.Options) parse.Decoder {
		return newDecoder(source, opts)
	},
	Skip:     skip,
	Knows:    knows,
	Strings:  wantsText,
	Classify: classify,
}

// classify is skip and wantsText in one reading of the line, whose
// common envelope and keyword test it notes for the decoder (note). A
// line it skips gets its string and note too, for a caller whose own
// test keeps the line after all (parse's alarm phrases).
func classify(text []byte) parse.Verdict {
	f, ok := quickFields(text)
	if !ok {
		skip, foreign := skipOtherForeign(text)
		return parse.Verdict{Skip: skip, Foreign: foreign}
	}
	name, msg, sev := text[f.name:f.colon], text[f.msg:], text[0]
	v := parse.Verdict{Str: true}
	switch {
	case !knownFile(name):
		v.Skip = sev == 'I' || !isAlarm(sev, name, msg)
		v.Note = noteOf(f, noInterest)
	case bytes.Equal(name, []byte("mvcc.cc")) && itemNumber(msg) > 0:
		v.Note = noteOf(f, noInterest)
	case interesting(msg):
		if noReader(msg) {
			// No reader takes it: the decoder keeps no text of it.
			v.Str = false
			v.Note = noteOf(f, isInterestingNoReader)
		} else {
			v.Note = noteOf(f, isInteresting)
		}
	default:
		v.Skip = sev == 'I' || !isAlarm(sev, name, msg)
		v.Note = noteOf(f, notInteresting)
	}
	return v
}

// A note (parse.Line.Note) holds where quickFields found a line's parts,
// so the decoder reads its envelope without a second pass, and what
// interesting said of its message when that was asked: the offsets of the
// file's base name, its ':' and the field's ']' in 20 bits each, a bit
// for the space after the ']', two for interesting, and a top bit that
// makes every note non-zero. A line whose field ends past 1 MiB gets no
// note.
const (
	noteBits      = 20
	noteSpace     = 1 << 60
	noteInterest  = 1 << 61 // interesting was asked
	noteMatched   = 1 << 62 // and said yes
	noteSet       = 1 << 63
	noteOffsetMax = 1<<noteBits - 1
)

// What a note says of interesting.
const (
	noInterest = iota
	notInteresting
	isInteresting
	isInterestingNoReader
)

func noteOf(f quickOffsets, interest int) uint64 {
	if f.end > noteOffsetMax {
		return 0
	}
	n := uint64(noteSet) | uint64(f.name) | uint64(f.colon)<<noteBits | uint64(f.end)<<(2*noteBits)
	if f.msg > f.end+1 {
		n |= noteSpace
	}
	switch interest {
	case notInteresting:
		n |= noteInterest
	case isInteresting:
		n |= noteInterest | noteMatched
	case isInterestingNoReader:
		n |= noteMatched
	}
	return n
}

// noted returns the quickFields offsets a note holds; ok is false for
// no note.
func noted(note uint64) (f quickOffsets, ok bool) {
	if note&noteSet == 0 {
		return f, false
	}
	f.name = int(note & noteOffsetMax)
	f.colon = int(note >> noteBits & noteOffsetMax)
	f.end = int(note >> (2 * noteBits) & noteOffsetMax)
	f.msg = f.end + 1
	if note&noteSpace != 0 {
		f.msg++
	}
	return f, true
}

// interestingIn is interesting(msg), taken from l's note when the worker
// asked it.
func interestingIn(l parse.Line, msg []byte) bool {
	if l.Note&(noteInterest|noteMatched) != 0 {
		return l.Note&noteMatched != 0
	}
	return interesting(msg)
}

// wantsText is the Strings test: a glog line no Skip test took is one
// the decoder most likely makes an event of, whose text it keeps, unless
// it holds a reader's keyword and noReader finds it is no reader's
// message (classify's reading).
func wantsText(text []byte) bool {
	name, msg, ok := quickEnvelope(text)
	if !ok {
		return false
	}
	if !knownFile(name) || bytes.Equal(name, []byte("mvcc.cc")) && itemNumber(msg) > 0 {
		return true
	}
	return !interesting(msg) || !noReader(msg)
}

// lineText is l's text as a string: the one Scan made ahead
// (parse.Line.Str) or a copy.
func lineText(l parse.Line) string {
	if len(l.Str) == len(l.Text) && l.Str != "" {
		return l.Str
	}
	return string(l.Text)
}

// skip is the cheap byte test, run ahead of the decoder on worker
// goroutines. It takes the glog lines the decoder declines whatever its
// state, which are what Line reads as the end of an open block: a line
// from a source file none of this package's messages come from, and a
// line from a known file that holds none of the phrases the readers look
// for and is not an entry of a dump logged line by line. No other
// system's log looks like glog.
//
// No alarm is ever taken (alarm.go): an F line from any file, and the
// lines of other levels that isAlarm reads as one.
func skip(text []byte) bool {
	name, msg, ok := quickEnvelope(text)
	if !ok {
		return skipOther(text)
	}
	return skipRead(name, msg, text[0])
}

// skipOther is skip for a line quickEnvelope does not read. A line that
// opens with '[' (log4j's `[2023-...][INFO]`, a bracketed prefix) has no
// indentation, runner prefix, quote mark, level or line number before
// it, so splitEnvelopeAll finds no clock in it: it is not read here,
// which spares every line of an Elasticsearch log that reading.
func skipOther(text []byte) bool {
	skip, _ := skipOtherForeign(text)
	return skip
}

// skipOtherForeign is skipOther, and whether the line has no glog clock
// in any envelope splitEnvelopeAll reads and is not one of the lines a
// block of the decoder is made of (Verdict.Foreign): an indented line (a
// dump's bounds, a stack frame) or a numbered dump entry is most often
// claimed, and is not called foreign.
func skipOtherForeign(text []byte) (skip, foreign bool) {
	if len(text) > 0 && text[0] == '[' {
		return false, true
	}
	env := splitEnvelopeAll(text)
	if !env.hasClock {
		return false, len(text) > 0 && text[0] != ' ' && text[0] != '\t' && itemNumber(text) == 0
	}
	if len(env.file) == 0 {
		return false, false
	}
	return skipRead(env.fileName(), env.msg, env.sev), false
}

// skipRead is skip for a line of a glog envelope: its file name, message
// and severity.
func skipRead(name, msg []byte, sev byte) bool {
	if !knownFile(name) {
		return sev == 'I' || !isAlarm(sev, name, msg)
	}
	if bytes.Equal(name, []byte("mvcc.cc")) && itemNumber(msg) > 0 {
		return false
	}
	return !interesting(msg) && (sev == 'I' || !isAlarm(sev, name, msg))
}

// Break implements parse.Breaker: a skipped line ends an open block, as
// Line would have.
func (d *decoder) Break(out *parse.Sink) {
	if d.block != nil {
		if d.holding() {
			d.closeBlock(&d.held)
		} else {
			n := len(out.Events)
			d.closeBlock(out)
			d.handOn(out, n)
		}
	}
	d.owned = true
}

type decoder struct {
	source     string
	years      yearKeeper
	yearWarned bool
	// While the year is not known, events wait in held (year.go):
	// holdFrom is the line the wait began at, yearPos the first line
	// whose time needed the year, gaveUp is set once the wait ended
	// without one.
	held     parse.Sink
	heldSeen int // held events settle looked at for a hybrid time
	holdFrom int
	yearPos  parse.Pos
	gaveUp   bool
	block    *block
	// released is how many years release moved the held events by: an
	// event begun while they waited and handed on after (a block's, see
	// handOn) still carries the provisional year, and moves as much.
	released int
	// owned is set when the last line declined had a glog envelope: no
	// other system's log looks like that (parse.Owner).
	owned bool
	// fatals remembers the FATAL messages read in one form (glog line or
	// FATAL-details line) so the other form of the same message is not
	// read as a second break.
	fatals map[string]bool
	// added matches the alarm phrases of a user's catalogue, or is nil.
	added *matcher
	// ids keeps one string per tablet, peer, role and file:line field
	// read, for the events of this source.
	ids interner
}

func newDecoder(source string, opts parse.Options) *decoder {
	d := &decoder{source: source, fatals: map[string]bool{}, added: addedPhrases(opts.AlarmPhrases)}
	if opts.Year > 0 {
		d.years = yearKeeper{year: opts.Year, fixed: true, known: true, from: parse.YearFromFlag}
	}
	return d
}

// Line implements parse.Decoder.
func (d *decoder) Line(l parse.Line, out *parse.Sink) bool {
	if d.waitOver(l.Pos.Line) {
		d.giveUp(out)
	}
	if !d.holding() {
		n := len(out.Events)
		claimed := d.line(l, out)
		d.handOn(out, n)
		return claimed
	}
	claimed := d.line(l, &d.held)
	d.settle(&l, out)
	return claimed
}

func (d *decoder) line(l parse.Line, out *parse.Sink) bool {
	env := lineEnvelope(l)
	d.collected(l, &env)
	if d.block != nil {
		if d.continueBlock(l, &env, out) {
			return true
		}
		d.closeBlock(out)
	}
	claimed := d.fresh(l, &env, out)
	d.owned = !claimed && env.hasClock && len(env.file) > 0
	if claimed && env.badStamp {
		out.Diag(l.Pos, "glog timestamp %q is not a time (%s); the line is read untimed", env.stamp, env.badWhy)
	}
	return claimed
}

// Owned implements parse.Owner.
func (d *decoder) Owned() bool { return d.owned }

// End implements parse.Decoder.
func (d *decoder) End(out *parse.Sink) {
	if !d.holding() {
		if d.block != nil {
			n := len(out.Events)
			d.closeBlock(out)
			d.handOn(out, n)
		}
		return
	}
	if d.block != nil {
		d.closeBlock(&d.held)
	}
	d.settle(nil, out)
}

// keywords select the MVCC messages worth a closer look. They run on every
// line, so the test only compares bytes.
var keywords = [][]byte{
	[]byte("MVCC operations"),
	[]byte("hybrid time too low"),
	[]byte("artificially incremented"),
	[]byte("Check failed: "),
	[]byte("Op sequence failure"),
	[]byte("Received propagated safe time"),
	[]byte("Previously saw propagated_safe_time_"),
	[]byte("Bad ht lease"),
}

// phrases matches every reader's keywords; it is built in init, after
// the package-level keyword lists of all files are set.
var phrases *matcher

func init() { phrases = newMatcher(keywordLists()...) }

// keywordLists are every reader's keyword list: what the byte test looks
// for, and what a log store is asked for (StorePhrases).
func keywordLists() [][][]byte {
	return [][][]byte{keywords, raftKeywords, configKeywords, masterKeywords}
}

// interesting is the cheap byte test: does msg hold a phrase any reader
// of this package wants? The replica prefix (ids, a term, a role: often
// half the message) holds none and is not read.
func interesting(msg []byte) bool { return phrases.match(afterPrefix(msg)) }

// afterPrefix returns msg from the space before its body when msg opens
// with a replica prefix, `T <tablet> P <peer>[ [...]]...: ` or
// `T <tablet> : `, and all of msg otherwise. Unlike prefix it reads
// nothing out: it runs on every line from a known file.
func afterPrefix(msg []byte) []byte {
	if len(msg) < 6 || msg[0] != 'T' || msg[1] != ' ' {
		return msg
	}
	// word is the end of the word at i.
	word := func(i int) int { return i + firstSpace(msg[i:]) }
	i := word(2)
	if i == 2 || i+2 >= len(msg) {
		// Past the word, too short for " : " or " P " (msg[i] is ' ').
		return msg
	}
	if msg[i+1] == ':' && msg[i+2] == ' ' {
		return msg[i+2:]
	}
	if msg[i+1] != 'P' || msg[i+2] != ' ' {
		return msg
	}
	j := word(i + 3)
	if j == i+3 || j >= len(msg) {
		return msg
	}
	if msg[j-1] == ':' {
		return msg[j:] // `P <peer>: `
	}
	for j+1 < len(msg) {
		// msg[j] is the byte after a word or a bracket.
		switch {
		case msg[j] == ':' && msg[j+1] == ' ':
			return msg[j+1:]
		case msg[j] == ' ' && msg[j+1] == '[':
			end := bytes.IndexByte(msg[j:], ']')
			if end < 0 {
				return msg
			}
			j += end + 1
		default:
			return msg
		}
	}
	return msg
}

// idLen is the length of a tablet or peer id as YugabyteDB prints it
// (a UUID's 32 hex digits).
const idLen = 32

// firstSpace is the index of s's first space, or len(s). The words of a
// replica prefix are most often ids: a space after 32 bytes that hold
// none ends the word without a search; any other is found by a vector
// search rather than byte by byte.
func firstSpace(s []byte) int {
	if idLen < len(s) && s[idLen] == ' ' && !hasSpace32(s[:idLen]) {
		return idLen
	}
	if i := bytes.IndexByte(s, ' '); i >= 0 {
		return i
	}
	return len(s)
}

// hasSpace32 reports whether b, 32 bytes long, holds a space: four words
// tested with byteIs.
func hasSpace32(b []byte) bool {
	var m uint64
	for k := 0; k < idLen; k += 8 {
		m |= byteIs(binary.LittleEndian.Uint64(b[k:]), ' '*ones8)
	}
	return m != 0
}

// fresh reads a line outside any block.
func (d *decoder) fresh(l parse.Line, env *envelope, out *parse.Sink) bool {
	msg := env.msg
	if !env.hasClock {
		switch {
		case isHeader(msg):
			if y, ok := headerYear(msg); ok {
				d.years.header(y)
			}
			return true
		case isStackLine(msg) || bytes.HasPrefix(msg, []byte("Fatal failure details written to ")):
			return true
		case itemNumber(msg) > 0 && looksLikeItem(msg):
			// Entries pasted without their dump's header.
			d.block = &block{dump: &MvccDump{Base: d.base(l, env, Replica{Term: -1}), Declared: -1}}
			d.addItem(l, string(msg), out)
			return true
		}
	} else if !knownFile(env.fileName()) {
		// The cheap byte test: a glog line from a source file none of
		// this package's messages come from is not read further,
		// unless it is an alarm.
		if d.alarmAt(env) {
			return d.startAlarm(l, env, out)
		}
		return false
	} else if bytes.Equal(env.fileName(), []byte("mvcc.cc")) && itemNumber(msg) > 0 && looksLikeItem(msg) {
		// Old debug builds log each trace entry as its own line.
		d.block = &block{perLine: true, dump: &MvccDump{Base: d.base(l, env, Replica{Term: -1}), Declared: -1}}
		d.addItem(l, string(msg), out)
		return true
	}
	alarm := d.alarmAt(env)
	if !interestingIn(l, msg) {
		if alarm {
			return d.startAlarm(l, env, out)
		}
		return false
	}
	if l.Note&(noteInterest|noteMatched) == noteMatched && !alarm {
		// The workers found that no reader takes the line (noReader):
		// reading on would only reckon its time, as base does, and
		// note the year's wait.
		if env.hasClock && !env.badStamp {
			d.years.at(env)
		}
		d.noteYear(l, env, out)
		return false
	}
	rep, body := prefixIn(msg, &d.ids)
	base := d.base(l, env, rep)
	d.noteYear(l, env, out)
	// The message is a part of the line, whose text base holds already.
	text := within(base.Text, l.Text, body)

	// Every phrase the MVCC readers look for (a dump's header, the
	// too-low block, the assertions) holds one of keywords: one pass
	// over the message tells whether any of them can read it, where each
	// would search the whole of a Raft line.
	if mvccWords.match(body) && d.mvcc(l, env, rep, base, text, out) {
		return true
	}
	if alarm && (env.sev == 'F' || !env.hasClock || strings.Contains(text, "Check failed: ")) {
		// A FATAL is the database's own verdict: no Raft or config
		// reader reads one.
		return d.startAlarm(l, env, out)
	}
	if ev := d.raft(base, text); ev != nil {
		out.Emit(ev)
		return true
	}
	if ev := d.masterStepDown(base, text); ev != nil {
		out.Emit(ev)
		return true
	}
	if unclosed(text) {
		// A config line may go on over the next lines of an excerpt
		// that wrapped it: hold it until it closes (continueConfig).
		var probe parse.Sink
		if d.config(base, text, &probe) != nil {
			d.block = &block{cfg: &cfgWrap{base: base, text: text}}
			return true
		}
	}
	if ev := d.config(base, text, out); ev != nil {
		out.Emit(ev)
		return true
	}
	if alarm {
		return d.startAlarm(l, env, out)
	}
	return false
}

// mvccWords matches keywords, the MVCC readers' words.
var mvccWords = newMatcher(keywords)

// mvcc offers a line of fresh, whose message is text, to the MVCC
// readers: a dump's header, the too-low block and the assertions. It
// reports whether one took it.
func (d *decoder) mvcc(l parse.Line, env *envelope, rep Replica, base Base, text string, out *parse.Sink) bool {
	if i := strings.Index(text, " MVCC operations:"); i >= 0 {
		head := text[:i]
		j := strings.LastIndex(head, "Recent ")
		if j >= 0 {
			count := strings.TrimSpace(head[j+len("Recent "):])
			n, err := strconv.Atoi(count)
			if err != nil && count != "" && strings.Trim(count, "0123456789") == "" {
				// Digits that fit no int: the header is still a dump's.
				out.Diag(l.Pos, "MVCC dump header: the op count %s does not fit; read as unknown", clip(count))
				n, err = -1, nil
			}
			if err == nil {
				before := strings.TrimSpace(head[:j])
				b := &block{dump: &MvccDump{Base: base, Declared: n}}
				if r, ok := findReplica([]byte(before)); ok && b.dump.Tablet == "" {
					b.dump.Replica = r
				}
				if before != "" {
					if ev := d.assertion(base, before, out); ev != nil {
						if b.dump.Tablet == "" {
							b.dump.Replica = *ev.Rep()
						}
						b.after = append(b.after, ev)
					}
				}
				b.dupe = d.seenFatal(env, rep, text)
				d.block = b
				return true
			}
		}
	}
	if ev := d.tooLowStart(base, text, l, out); ev != nil {
		d.block = &block{tooLow: ev, dupe: d.seenFatal(env, rep, text)}
		return true
	}
	if ev := d.assertion(base, text, out); ev != nil {
		if !d.seenFatal(env, rep, text) {
			out.Emit(ev)
		}
		return true
	}
	return false
}

// base builds the common part of an event at l.
func (d *decoder) base(l parse.Line, env *envelope, rep Replica) Base {
	b := Base{
		Meta:    parse.Meta{Pos: l.Pos, Last: l.Pos.Line, Text: lineText(l), Off: l.Off},
		Replica: rep,
		Sev:     env.sev,
		Where:   d.ids.of(env.file),
	}
	if env.hasClock && !env.badStamp {
		b.Time = d.years.at(env)
		b.Timed = true
	}
	return b
}

// seenFatal records a FATAL message and reports whether its other form was
// already read. The two forms share the replica, the message and the
// second they were logged in (the details form prints no microseconds).
func (d *decoder) seenFatal(env *envelope, rep Replica, text string) bool {
	if env.sev != 'F' {
		return false
	}
	key := fatalKey(env, rep, text)
	if d.fatals[key] {
		return true
	}
	d.fatals[key] = true
	return false
}

// fatalKey is what the two forms of one FATAL share.
func fatalKey(env *envelope, rep Replica, text string) string {
	if len(text) > 240 {
		text = text[:240]
	}
	return fmt.Sprintf("%s\x00%s\x00%s\x00%02d%02d %02d:%02d:%02d\x00%s", env.file, rep.Tablet, rep.Peer,
		env.month, env.day, env.hour, env.min, env.sec, text)
}

// within returns part as a string: a substring of s when part is a
// subslice of line, else a copy. s must be line's text (string(line));
// where part lies is found from the capacities (a subslice of line
// keeps line's capacity from its start) and checked by a pointer test,
// not a comparison of the bytes.
func within(s string, line, part []byte) string {
	off := cap(line) - cap(part)
	if off < 0 || off+len(part) > len(line) || len(s) != len(line) {
		return string(part)
	}
	if len(part) == 0 {
		return ""
	}
	if &line[off] == &part[0] {
		return s[off : off+len(part)]
	}
	return string(part)
}

func isHeader(msg []byte) bool {
	for _, h := range [][]byte{
		[]byte("Log file created at: "), []byte("Running on machine: "),
		[]byte("Application fingerprint: "), []byte("Running duration (h:mm:ss): "),
		[]byte("Log line format: "), []byte("Current UTC time: "),
	} {
		if bytes.HasPrefix(msg, h) {
			return true
		}
	}
	return false
}

// headerYear reads `Log file created at: yyyy/mm/dd hh:mm:ss`.
func headerYear(msg []byte) (int, bool) {
	const p = "Log file created at: "
	if !bytes.HasPrefix(msg, []byte(p)) || len(msg) < len(p)+4 || !digits(msg[len(p):len(p)+4]) {
		return 0, false
	}
	return atoi(msg[len(p) : len(p)+4]), true
}

func isStackLine(msg []byte) bool {
	return bytes.HasPrefix(msg, []byte("@ ")) && bytes.Contains(msg, []byte("0x"))
}
