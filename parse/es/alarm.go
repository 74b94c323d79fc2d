package es

import (
	"strings"

	"github.com/logsleuth/logsleuth/grammar/esval"
	"github.com/logsleuth/logsleuth/parse"
)

// An exception, as ES logs it, is one block: the thrown's line
// (`java.lang.AssertionError: msg`, or the 1.x/2.x ElasticsearchException
// form `[idx][[idx][0]] EngineException[msg]; nested: ...`), its frames,
// `Caused by:` lines with their frames, and, for a test assertion,
// hamcrest's `Expected:`/`but:` lines. Two log messages raise an alarm of
// their own and carry the exception on the lines under them:
// Engine.failEngine's WARN `failed engine [reason]` and
// ElasticsearchUncaughtExceptionHandler's ERROR `fatal error in thread
// [name], exiting`. The block is read whole, then: every part of it that a
// dedicated reader knows (the outermost exception, each cause, each
// `; nested:` part) becomes that reader's event; when none does, the block
// is one Exception event carrying the alarm's text. One thrown, one
// finding: a wrapper around a known assertion does not report it twice.

// Raised values for the two alarms ES logs as messages.
const (
	RaisedFailedEngine = "failed engine"
	RaisedFatalError   = "fatal error in thread"
)

// thrown is one exception of a block: the outermost, a cause, or a
// `; nested:` part.
type thrown struct {
	class, msg string
	// line and text are where it was printed (for a cause's own event).
	line int
	text string
}

func (t thrown) String() string {
	if t.msg == "" {
		return t.class
	}
	return t.class + ": " + t.msg
}

// pendingException is the block being read.
type pendingException struct {
	meta  parse.Meta
	where Where
	// stream is the runner stream (`1>`/`2>`) the block is printed on.
	stream byte
	// raised and head are set when a log message is the alarm
	// (RaisedFailedEngine, RaisedFatalError); the exception under it is
	// then its first cause.
	raised, head string
	// logger names the code when no frame does.
	logger string
	chain  []thrown
	frames []string
	top    string
	// extra holds a message's continuation lines (hamcrest's
	// Expected/but) printed before any exception: those under an
	// exception continue its message. expected and got are the two sides.
	extra         []string
	expected, got string
	lines         int
	// sealed is set once the frames under the outermost exception are
	// over (a cause or a suppressed exception began).
	sealed bool
	// suppressed is set after a `Suppressed:` line, until a cause as
	// little indented as the exception; indent is the exception's.
	suppressed bool
	indent     int
	// msgOpen is set from an exception's line to its first frame: an
	// indented line there continues its message (Java prints a
	// message's lines as they are); msgLines counts them.
	msgOpen  bool
	msgLines int
	// inline is set while the block is a log message's own text
	// (`failure [EngineException[..]]`): the exception printed under
	// the message, if any, replaces it.
	inline bool
}

// parts returns t and the `; nested:` parts its message holds, outermost
// first.
func (t thrown) parts() []thrown {
	nested, at := detailed(t.msg)
	if len(nested) == 0 {
		return []thrown{t}
	}
	for i := range nested {
		nested[i].line, nested[i].text = t.line, t.text
	}
	if at == 0 && t.class == "" {
		return nested
	}
	return append([]thrown{t}, nested...)
}

// all is every exception of the block, outermost first.
func (x *pendingException) all() []thrown {
	var out []thrown
	for _, t := range x.chain {
		out = append(out, t.parts()...)
	}
	return out
}

// flush emits the block being read.
func (d *decoder) flush(out *parse.Sink) {
	x := d.exc
	if x == nil {
		return
	}
	d.exc = nil
	read := false
	all := x.all()
	for i, t := range all {
		if i+1 < len(all) && sameText(t.msg, all[i+1].String()) {
			// A wrapper made of its cause (`new ExecutionException(e)`)
			// prints the cause's toString as its message: one thrown,
			// read once, as the cause.
			continue
		}
		m := x.meta
		if t.line != m.Pos.Line && t.line > 0 {
			m.Pos.Line, m.Text = t.line, t.text
		}
		ev, err := thrownMessage(m, x.where, t.msg, Thrown{Class: t.class})
		if err != "" {
			out.Diag(m.Pos, "%s", string(err))
			continue
		}
		if ev == nil {
			continue
		}
		if mm, ok := ev.(*SeqNoStatsMismatch); ok {
			d.mismatchSides(mm, x, out)
		}
		out.Emit(ev)
		read = true
	}
	if !read {
		out.Emit(x.alarm(all))
	}
}

// sameText compares two messages as printed, whatever the white space:
// a wrapper's message line is trimmed, its cause's `Class: ` is not.
func sameText(a, b string) bool {
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}

// addLine continues the message of the exception being read with one of
// its lines (hamcrest's Expected/but), or the block's when none began.
func (x *pendingException) addLine(t string) {
	if n := len(x.chain); n > 0 {
		if m := &x.chain[n-1].msg; *m == "" {
			*m = t
		} else {
			*m += "\n" + t
		}
		return
	}
	x.extra = append(x.extra, t)
}

// joinWrapped continues the last exception's message with a line cut
// from it by a terminal wrap: no separator, as the cut was mid-line.
func (x *pendingException) joinWrapped(s string) {
	n := len(x.chain)
	x.chain[n-1].msg += s
}

// mismatchSides reads hamcrest's two SeqNoStats into the mismatch.
func (d *decoder) mismatchSides(mm *SeqNoStatsMismatch, x *pendingException, out *parse.Sink) {
	for _, side := range []struct {
		text string
		dst  **esval.SeqNoStats
	}{{x.expected, &mm.Expected}, {x.got, &mm.Got}} {
		if side.text == "" {
			continue
		}
		p, ok := payload(side.text, "SeqNoStats{")
		if !ok {
			continue
		}
		s, err := esval.ParseSeqNoStats(p)
		if err != nil {
			out.Diag(x.meta.Pos, "seq_no_stats mismatch: %v", err)
			continue
		}
		*side.dst = &s
	}
}

// alarm builds the Exception event of a block no dedicated reader read;
// all is x.all().
func (x *pendingException) alarm(all []thrown) *Exception {
	e := &Exception{Meta: x.meta, Where: x.where}
	a := &e.AlarmText
	ts := all
	if x.raised != "" {
		a.Raised, a.Message = x.raised, x.head
	} else if len(all) > 0 {
		a.Raised, a.Message = all[0].class, all[0].msg
		all = all[1:]
	}
	if len(x.extra) > 0 {
		lines := x.extra
		if a.Message != "" {
			lines = append([]string{a.Message}, lines...)
		}
		a.Message = strings.Join(lines, "\n")
	}
	for _, t := range all {
		a.Causes = append(a.Causes, t.String())
	}
	a.Where = x.top
	if a.Where == "" {
		a.Where = x.logger
	}
	a.Frames = x.frames
	if !e.Where.HasShard() {
		// The subject a message names: `[idx][0] failed to recover`.
		for _, m := range append([]string{x.head}, messages(ts)...) {
			w := e.Where
			shardPrefix(&w, m)
			if w.HasShard() {
				e.Where = w
				break
			}
		}
	}
	e.Class, e.Message = a.Raised, a.Message
	return e
}

func messages(ts []thrown) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.msg
	}
	return out
}

// Alarm returns the alarm's text: what ES raised, where, and why.
func (e *Exception) Alarm() *parse.AlarmText { return &e.AlarmText }

// startException begins a block at an exception line.
func (d *decoder) startException(meta parse.Meta, w Where, stream byte, t thrown) {
	d.exc = &pendingException{meta: meta, where: w, stream: stream, chain: []thrown{t}, lines: 1, indent: d.indent, msgOpen: true}
}

// startRaised begins a block at a log message that is itself an alarm.
func (d *decoder) startRaised(meta parse.Meta, w Where, stream byte, raised, head, logger string) {
	d.exc = &pendingException{meta: meta, where: w, stream: stream, raised: raised, head: head, logger: logger, lines: 1, indent: d.indent}
}

// raisedBy reports whether a log message is one of the alarms ES logs as
// a message, and how it was raised: failed engine, fatal error in thread,
// or, for the other messages ES logs when it gives up on a shard copy, a
// recovery or a resource (loggedAlarms), the level it logged them at.
func raisedBy(msg, level string) string {
	switch {
	case strings.HasPrefix(msg, "failed engine ["):
		return RaisedFailedEngine
	case strings.HasPrefix(msg, "fatal error in thread ["):
		return RaisedFatalError
	}
	for _, a := range loggedAlarms {
		if a.anywhere && strings.Contains(msg, a.text) || strings.HasPrefix(msg, a.text) {
			if level == "" {
				return "WARN"
			}
			return level
		}
	}
	return ""
}

// loggedAlarms are the messages with which ES reports, in a log line and
// not an exception, that it failed a shard copy or a recovery, or that
// the node is short of a resource: the exception printed under one, if
// any, is its cause. Each is the message's start as the source writes it,
// after the shard a component logger puts first; anywhere marks the one
// 5.x prints after a shard id of its own (`[[idx][0]] marking ...`).
var loggedAlarms = []struct {
	text     string
	anywhere bool
}{
	{"marking and sending shard failed due to [", true},                             // IndicesClusterStateService
	{"primary-replica resync to replica on node [", true},                           // TransportResyncReplicationAction
	{"unexpected error during recovery [", false},                                   // PeerRecoveryTargetService
	{"timed out waiting for relocation hand-off to complete", false},                // IndexShard
	{"check index [failure]", false},                                                // IndexShard
	{"Corrupted file detected ", false},                                             // RecoverySourceHandler
	{"Remote file corruption ", false},                                              // RecoverySourceHandler
	{"deleted previously created, but not yet committed, next generation [", false}, // Translog
	{"flood stage disk watermark [", false},                                         // DiskThresholdMonitor
	{"high disk watermark [", false},                                                // DiskThresholdMonitor
	{"max file descriptors [", false},                                               // BootstrapChecks
	{"max virtual memory areas vm.max_map_count [", false},                          // BootstrapChecks
}

// exceptionLine reads a line that starts an exception, after whatever a
// runner or the JVM put before it (`Caused by: `, `Throwable #1: `,
// `Exception in thread "main" `): `pkg.Class: msg`, or the 1.x/2.x
// ElasticsearchException form `[idx][[idx][0]] Name[msg]; nested: ...`.
func exceptionLine(s string) (thrown, bool) {
	rest := esToStringPrefix(strings.TrimPrefix(s, "Caused by: "))
	if parts, at := detailed(rest); len(parts) > 0 && at == 0 {
		// The message keeps the nested parts: parts() splits them again.
		return thrown{msg: rest}, true
	}
	if c, m, ok := findThrowable(s); ok {
		return thrown{class: c, msg: m}, true
	}
	return thrown{}, false
}

// esToStringPrefix drops the `[index][[index][n]] ` that 2.x's
// ElasticsearchException.toString puts before the class.
func esToStringPrefix(s string) string {
	idx, r, ok := bracket(s)
	if !ok || idx == "" || strings.ContainsAny(idx, " []") {
		return s
	}
	sh, r2, ok := bracket(r)
	if !ok || !strings.HasPrefix(sh, "[") {
		if ok && isDigits(sh) {
			return strings.TrimPrefix(r2, " ")
		}
		return s
	}
	return strings.TrimPrefix(r2, " ")
}

// esToStringShard reads the shard of that prefix.
func esToStringShard(s string) (Where, bool) {
	w := Where{Shard: -1}
	_, r, ok := bracket(s)
	if !ok {
		return w, false
	}
	sh, _, ok := bracket(r)
	if !ok {
		return w, false
	}
	e := envelope{where: w}
	e.marker(sh + " ")
	return e.where, e.where.HasShard()
}

// detailed reads the exceptions ExceptionsHelper.detailedMessage (and 1.x
// ElasticsearchException.getDetailedMessage) print inside a message:
// `Name[msg]; nested: Name2[msg2]; ...`, outermost first, and where the
// first begins. A single `Name[msg]` counts: that is how 2.x prints an
// exception without a cause. Names end in Exception or Error and start
// with a capital (simple class names).
func detailed(s string) ([]thrown, int) {
	// Real chains are a few deep; a bound keeps a hostile line linear.
	const maxParts = 16
	at := -1
	from := 0
	var parts []thrown
	for from < len(s) {
		i := indexWord(s[from:])
		if i < 0 {
			return nil, -1
		}
		w := from + i
		end := w
		for end < len(s) && isClassByte(s[end]) && s[end] != '.' {
			end++
		}
		from = end
		if end >= len(s) || s[end] != '[' || !(strings.HasSuffix(s[w:end], "Exception") || strings.HasSuffix(s[w:end], "Error")) {
			continue
		}
		start := w
		for start > 0 && isClassByte(s[start-1]) {
			start--
		}
		name := s[start:end]
		if simple := name[strings.LastIndexByte(name, '.')+1:]; simple == "" || simple[0] < 'A' || simple[0] > 'Z' {
			continue
		}
		at = start
		rest := s[end:]
		for {
			inner, r, ok := bracket(rest)
			if !ok {
				// A cut line: the rest is the message.
				parts = append(parts, thrown{class: name, msg: strings.TrimSuffix(strings.TrimPrefix(rest, "["), "]")})
				return parts, at
			}
			parts = append(parts, thrown{class: name, msg: inner})
			if len(parts) == maxParts {
				return parts, at
			}
			r = strings.TrimPrefix(r, ";")
			r = strings.TrimLeft(r, " ")
			next, ok := strings.CutPrefix(r, "nested: ")
			if !ok {
				return parts, at
			}
			j := 0
			for j < len(next) && isClassByte(next[j]) {
				j++
			}
			if j == 0 || j >= len(next) || next[j] != '[' {
				return parts, at
			}
			name, rest = next[:j], next[j:]
		}
	}
	return nil, -1
}

// frame reads an `at ...` stack line: the frame without `at ` and without
// the jar log4j appends (` ~[elasticsearch-7.8.0.jar:7.8.0]`), and the
// class it runs in.
func frame(t string) (text, class string) {
	text = strings.TrimSpace(strings.TrimPrefix(t, "at "))
	if i := strings.LastIndex(text, ") "); i > 0 && strings.HasSuffix(text, "]") {
		if rest := strings.TrimPrefix(text[i+2:], "~"); strings.HasPrefix(rest, "[") {
			text = text[:i+1]
		}
	}
	name, _, _ := strings.Cut(text, "(")
	if j := strings.LastIndexByte(name, '/'); j >= 0 {
		// A module, `java.base/` or `org.elasticsearch.server@8.17.2/`.
		name = name[j+1:]
	}
	if j := strings.LastIndexByte(name, '.'); j > 0 {
		class = name[:j]
	}
	return text, class
}

// seedFrame is the frame the randomized runner adds to carry the seed; it
// is no code's.
func seedFrame(text string) bool { return strings.HasPrefix(text, "__randomizedtesting.") }
