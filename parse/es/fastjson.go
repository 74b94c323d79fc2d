package es

import (
	"strings"
	"time"
	"unsafe"

	"github.com/logsleuth/logsleuth/parse"
)

// jsonHot is a one-line record the JSON fast path takes: its envelope,
// its quote, and the quote's reading by fastShape (hot) or declineShape.
type jsonHot struct {
	env   envelope
	quote string
	hot   bool
	qenv  fastEnvelope
	msg   fastMsg
	// at and l1 are declineShape's reading of a quote it takes.
	at, l1 int
	// ctx is the copy a declined WARN, ERROR or FATAL record names, the
	// context of what follows it, its strings the quote's; warn says
	// the record is one.
	ctx  Where
	warn bool
}

// readJSON reads b as the JSON fast path does; the quote of a WARN,
// ERROR or FATAL record to decline is read through the time cache times
// (nil: none). ok is false for a line the general path must read:
// one that is not a record flatJSON reads, a record with no message, no
// time or one it cannot read, a message of several lines, a quote
// fastShape reads with another node than the record's node field (a
// name holding a bracket), one to decline that declineShape does not
// take or of a level context does not expect, or a WARN, ERROR or FATAL
// record (whose copy becomes the context of what follows) whose copy
// the quote reads otherwise.
//
// With exact set, a record whose time its quote does not print exactly
// (quotesExactly) is refused as soon as its time is read.
func readJSON(b []byte, times *timeCache, exact bool, r *jsonHot) (ok bool) {
	if len(b) < 2 || b[0] != '{' || b[1] != '"' {
		return false
	}
	// The record is read in place, as a string over the line's bytes:
	// its fields are only compared and copied into the quote, which is
	// all that is kept.
	s := unsafe.String(unsafe.SliceData(b), len(b))
	f, ok := flatJSON(s)
	if !ok || !f.has[jMessage] {
		return false
	}
	var bad string
	r.env, bad = jsonEnvelope(&f)
	if bad != "" || !r.env.timed || strings.IndexByte(r.env.msg, '\n') >= 0 || exact && !quotesExactly(r.env.time) {
		return false
	}
	r.quote = jsonQuote(r.env)
	q := unsafe.Slice(unsafe.StringData(r.quote), len(r.quote))
	if r.qenv, r.hot = fastShape(q, &r.msg); r.hot {
		return r.quote[r.qenv.node0:r.qenv.node1] == r.env.where.Node
	}
	switch r.env.level {
	case "TRACE", "DEBUG", "INFO":
	case "WARN", "ERROR", "FATAL":
		r.warn = true
	default:
		return false
	}
	if r.at, r.l1, _, ok = declineShape(q); !ok || !r.warn {
		return ok
	}
	// The copy the record names becomes the context (context): the
	// record's node and marker as jsonRecord reads them, which must be
	// what the quote reads as, since the decoder reads it there.
	j := r.env
	j.marker(j.msg)
	qe, ok, bad := parsePattern(r.quote, times)
	if !ok || bad != "" || qe.where != j.where {
		return false
	}
	r.ctx = qe.where
	return true
}

// fastJSON reads l when it is a one-line ESJsonLayout (7.x) or ECS (8.x)
// record whose message is one of fastLine's hot shapes, or one that
// holds none of the phrases fastDecline looks for, and does what the
// general path does with it (read, then jsonRecord). A record's quote
// (jsonQuote) is the pattern layout's line for the same event, so the
// quote is what fastShape and declineShape read; the time is the
// record's own, with its offset, as jsonRecord gives it. done reports
// that it took the line, claimed that an event came of it; done is
// false, and the decoder's state is as it was, for a line readJSON
// leaves to the general path. A declined record holding a user's alarm
// phrase is left open to the other systems, as ownLine says.
func (d *decoder) fastJSON(l parse.Line, out *parse.Sink) (claimed, done bool) {
	var r jsonHot
	if !readJSON(l.Text, &d.times, false, &r) {
		return false, false
	}
	// Committed: from here on this is the general path's reading of the
	// record: read's for a line opening with `{"`, then jsonRecord's;
	// context keeps no copy of a TRACE, DEBUG or INFO record (the only
	// levels fastShape takes) and keeps a WARN, ERROR or FATAL one's,
	// which readJSON read; envelope and message read a hot shape's
	// message as fastShape does and decline one without the phrases.
	d.block, d.threadNode = noBlock, ""
	d.lastTime, d.hasTime = r.env.time, true
	d.ctx = Where{Shard: -1}
	if r.warn {
		d.ctx = r.ctx
	}
	if !r.hot {
		return false, true
	}
	out.Emit(r.msg.event(d, r.quote, l.Pos, r.env.time, &r.qenv))
	return true, true
}

// nJSON is the bit of a note System.Classify made of a JSON record's
// quote, handed over as the line's Made text: the note's offsets are the
// quote's, not the line's.
const nJSON = 63

// quotesExactly reports whether a quote prints t so that the pattern
// layout's reading of it is t: UTC, in whole milliseconds, of a
// four-digit year.
func quotesExactly(t time.Time) bool {
	return t.Location() == time.UTC && t.Nanosecond()%1e6 == 0 && t.Year() >= 0 && t.Year() <= 9999
}

// classifyJSON is readJSON on the reader's workers, for a record whose
// time its quote prints exactly, so that the decoder can read the time
// from the quote. The quote is the verdict's Made text and the note
// says where its fields are, as a pattern line's note says where the
// line's are.
func classifyJSON(b []byte) (parse.Verdict, bool) {
	var r jsonHot
	if !readJSON(b, nil, true, &r) {
		return parse.Verdict{}, false
	}
	var n uint64
	if r.hot {
		n = noteOf(unsafe.Slice(unsafe.StringData(r.quote), len(r.quote)), &r.qenv, &r.msg)
	} else {
		// A declined record's note says what ownLine says of it but
		// for the user's phrases, which the decoder knows.
		n = declineNote(r.at, r.l1, ownsLayout(b))
	}
	if n == 0 {
		return parse.Verdict{}, false
	}
	return parse.Verdict{Note: n | 1<<nJSON, Made: r.quote}, true
}

// madeJSON is fastJSON for a record System.Classify read (l.Made is its
// quote, l.Note its note): what is left is the quote's time, through the
// decoder's cache, and the event, or for a record declined, whether it
// holds a user's phrase (owned is then what ownLine says). done is
// false, and nothing changed, when the note does not fit the quote.
func (d *decoder) madeJSON(l parse.Line, out *parse.Sink) (claimed, owned, done bool) {
	q := unsafe.Slice(unsafe.StringData(l.Made), len(l.Made))
	n := l.Note &^ (1 << nJSON)
	var (
		env fastEnvelope
		f   fastMsg
	)
	switch k := fastKind(field(n, nKind, 3)); {
	case k == fastDecl:
		at, l1 := field(n, nAt, 8), 26+field(n, nLevel, 8)
		if at+l1 > len(q) {
			return false, false, false
		}
		t, ok := d.times.parse(q[at+1 : at+24])
		if !ok {
			return false, false, false
		}
		d.endLine()
		d.lastTime, d.hasTime = t, true
		if keepsContext(strings.TrimSpace(l.Made[at+26 : at+l1])) {
			// The context, read from the quote as classifyJSON
			// found it reads.
			env, _, _ := parsePattern(l.Made, &d.times)
			d.ctx = env.where
		}
		return false, n>>nOwned&1 != 0 && !d.holdsPhrase(l.Text), true
	case k == fastNone || k == fastNo || !fromNote(n, q, &env, &f):
		return false, false, false
	}
	t, ok := d.times.parse(q[env.p+1 : env.p+24])
	if !ok {
		return false, false, false
	}
	d.endLine()
	d.lastTime, d.hasTime = t, true
	out.Emit(f.event(d, l.Made, l.Pos, t, &env))
	return true, false, true
}
