package es

import (
	"strings"
	"unsafe"

	"github.com/logsleuth/logsleuth/parse"
)

// fastJSON reads l when it is a one-line ESJsonLayout (7.x) or ECS (8.x)
// record whose message is one of fastLine's hot shapes, or one that
// holds none of the phrases fastDecline looks for, and does what the
// general path does with it (read, then jsonRecord). A record's quote
// (jsonQuote) is the pattern layout's line for the same event, so the
// quote is what fastShape and declineShape read; the time is the
// record's own, with its offset, as jsonRecord gives it. done reports
// that it took the line, claimed that an event came of it.
//
// done is false, and the decoder's state is as it was, for any other
// line: a record flatJSON leaves to encoding/json (an exception's, an
// escape it does not take), one with no message, no time or one it
// cannot read, a message of several lines, a quote fastShape reads
// with another node than the record's node field (a name holding a
// bracket), or one to decline that is a WARN or worse (whose copy
// becomes the context of what follows). A declined record holding a
// user's alarm phrase is left open to the other systems, as ownLine
// says.
func (d *decoder) fastJSON(l parse.Line, out *parse.Sink) (claimed, done bool) {
	b := l.Text
	if len(b) < 2 || b[0] != '{' || b[1] != '"' {
		return false, false
	}
	// The record is read in place, as a string over the line's bytes:
	// its fields are only compared and copied into the quote, which is
	// all that is kept.
	s := unsafe.String(unsafe.SliceData(b), len(b))
	f, ok := flatJSON(s)
	if !ok || !f.has[jMessage] {
		return false, false
	}
	env, bad := jsonEnvelope(&f, &d.times)
	if bad != "" || !env.timed || strings.IndexByte(env.msg, '\n') >= 0 {
		return false, false
	}
	quote := jsonQuote(env)
	q := unsafe.Slice(unsafe.StringData(quote), len(quote))
	var m fastMsg
	qenv, hot := fastShape(q, &m)
	if hot && quote[qenv.node0:qenv.node1] != env.where.Node {
		return false, false
	}
	if !hot {
		switch env.level {
		case "TRACE", "DEBUG", "INFO":
		default:
			return false, false
		}
		if _, _, _, ok := declineShape(q); !ok {
			return false, false
		}
	}
	// Committed: from here on this is the general path's reading of the
	// record: read's for a line opening with `{"`, then jsonRecord's;
	// context keeps no copy of a TRACE, DEBUG or INFO record, the only
	// levels fastShape takes; envelope and message read a hot shape's
	// message as fastShape does and decline one without the phrases.
	d.block, d.threadNode = noBlock, ""
	d.lastTime, d.hasTime = env.time, true
	d.ctx = Where{Shard: -1}
	if !hot {
		return false, true
	}
	out.Emit(m.event(d, quote, l.Pos, env.time, &qenv))
	return true, true
}
