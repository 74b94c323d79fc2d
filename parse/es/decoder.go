package es

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"github.com/logsleuth/logsleuth/grammar/esval"
	"github.com/logsleuth/logsleuth/parse"
)

// System is the Elasticsearch / OpenSearch parser.
var System = parse.System{Name: "es", NewDecoder: NewDecoder, Knows: knows, Classify: classify}

// NewDecoder returns a decoder for one source.
func NewDecoder(source string, opts parse.Options) parse.Decoder {
	return &decoder{version: -1, ctx: Where{Shard: -1}, phrases: opts.AlarmPhrases}
}

// Limits on multi-line blocks, so a block that never ends cannot hold the
// run: a commit diagnostic is a handful of lines, a stack a few hundred.
const (
	maxCommitLines = 64
	maxCommitBytes = 64 << 10
	maxStackLines  = 2000
	// maxMessageLines bounds the lines an exception's message continues
	// on: beyond them, indented text is not the message.
	maxMessageLines = 64
)

type blockKind int

const (
	noBlock blockKind = iota
	nodesBlock
	routingBlock
	exceptionBlock
	commitsBlock
)

type decoder struct {
	block blockKind
	// version and section of the routing dump being read.
	version int64
	section string
	// index is the name and uuid of the `-- index [[name/uuid]]` header
	// the routing rows being read sit under.
	index, indexUUID string
	// threadNode is the node named by the thread of the exception being
	// read (`elasticsearch[node_t3][generic][T#3]`), inherited by its causes.
	threadNode string
	// ctx is the copy named by the WARN/ERROR line just before: log4j
	// prints an event's exception right under its message.
	ctx Where

	// lastTime is the time of the last log line read, claimed or not.
	// Dump rows and stack traces are the continuation of that line's
	// message, so they take its time: parse.Scan would otherwise give them
	// the time of the last event, which may be far older.
	lastTime time.Time
	hasTime  bool

	exc     *pendingException
	commits *pendingCommits
	// jul is a java.util.logging header whose level line comes next;
	// json a 7.x JSON record whose stack is on the lines that follow.
	jul  *julPending
	json *pendingJSON

	// indent is how far the line being read is indented after its
	// prefixes: it tells a suppressed exception's causes from the
	// exception's own.
	indent int
	// unprefixed is set when the line being read has no runner stream
	// prefix (`  1>`, `  2>`).
	unprefixed bool

	// times caches the minute of the last pattern-layout time.
	times timeCache
	slabs slabs
	// general turns the fast path off (tests compare the two paths).
	general bool

	// owned is set when the line last declined was a log4j pattern-layout
	// or JSON-layout record of ES (parse.Owner); phrases are the user's
	// alarm phrases, whose lines stay open to every system.
	owned   bool
	phrases []string
}

// Owned implements parse.Owner: a record in Elasticsearch's own layouts
// that the decoder declined (a GC, slow-log or cluster-service line) is
// no other system's, so Scan need not offer it to them.
func (d *decoder) Owned() bool { return d.owned }

// ownLine reports whether b, which the decoder declined, is a record in
// ES's own layouts: a pattern-layout line (`[yyyy-...][LEVEL]`, after any
// runner prefix) or a 7.x/8.x JSON record. A line holding a user's alarm
// phrase is left to the other systems, which may read it as their alarm.
func (d *decoder) ownLine(b []byte) bool { return ownsLayout(b) && !d.holdsPhrase(b) }

// ownsLayout is ownLine's test of b's layout: a pattern-layout or JSON
// record of Elasticsearch's, after its prefixes.
func ownsLayout(b []byte) bool {
	at, _ := prefixEnd(b)
	r := b[at:]
	return len(r) > 0 && (r[0] == '[' && patternStart(r) || r[0] == '{' && jsonLayout(r))
}

// holdsPhrase reports whether b holds one of the user's alarm phrases.
func (d *decoder) holdsPhrase(b []byte) bool {
	for _, p := range d.phrases {
		if bytes.Contains(b, []byte(p)) {
			return true
		}
	}
	return false
}

type pendingCommits struct {
	meta  parse.Meta
	where Where
	text  strings.Builder
	lines int
}

func (d *decoder) End(out *parse.Sink) {
	if p := d.json; p != nil {
		d.json = nil
		d.jsonRecord(p.meta, p.text.String(), p.stream, out)
	}
	d.jul = nil
	d.flush(out)
	if d.commits != nil {
		out.Diag(d.commits.meta.Pos, "peer recovery commits: block cut at end of input (no gcp[N])")
		d.commits = nil
	}
	d.block = noBlock
}

// maybeES is the byte test every line meets first: only lines that could
// be an ES log line, dump row, Java exception or java.util.logging record
// go further (and allocate).
func maybeES(b []byte) bool {
	at, _ := prefixEnd(b)
	b = b[at:]
	if len(b) == 0 {
		return false
	}
	switch b[0] {
	case '[', '{', '-':
		return true
	}
	return bytes.HasPrefix(b, []byte("nodes:")) || bytes.HasPrefix(b, []byte("routing_")) ||
		bytes.Contains(b, []byte("Error")) || bytes.Contains(b, []byte("Exception")) ||
		bytes.Contains(b, []byte("elasticsearch[")) || bytes.Contains(b, []byte("opensearch[")) ||
		isLevelFirst(b) || julLevelShape(b) || julHeaderShape(b)
}

// idle reports whether no block is open.
func (d *decoder) idle() bool {
	return d.commits == nil && d.exc == nil && d.jul == nil && d.json == nil
}

func (d *decoder) Line(l parse.Line, out *parse.Sink) bool {
	idle := d.idle()
	if l.Note>>nJSON&1 != 0 {
		// The note is of the record's quote (l.Made), not of the line.
		if idle && !d.general && l.Made != "" {
			if claimed, owned, done := d.madeJSON(l, out); done {
				d.owned = owned
				return claimed
			}
		}
		l.Note, l.Made = 0, ""
	}
	if idle && !d.general {
		if d.fastLine(l, out) {
			d.owned = false
			return true
		}
		if claimed, done := d.fastJSON(l, out); done {
			d.owned = !claimed && d.ownLine(l.Text)
			return claimed
		}
		if len(d.phrases) == 0 {
			if owned, ok := d.fastDecline(l.Text, l.Note); ok {
				d.owned = owned
				return false
			}
		}
	}
	claimed := d.line(l, idle, out)
	d.owned = !claimed && d.ownLine(l.Text)
	return claimed
}

// line reads l on the general path; idle is whether no block was open.
func (d *decoder) line(l parse.Line, idle bool, out *parse.Sink) bool {
	if idle && !maybeES(l.Text) {
		d.ctx = Where{Shard: -1}
		return false
	}
	// The line's text comes from the shared text blocks, as on the fast
	// path: a line read here and declined (a GC or slow-log record) costs
	// a copy, not an allocation.
	raw := d.slabs.text(l.Text)
	at, stream := prefixEnd(raw)
	s := raw[at:]
	d.indent = indentBefore(raw, at)
	d.unprefixed = stream == 0
	if s == "" {
		// A blank line inside a stack trace (corpus 04) does not end it.
		return false
	}
	meta := parse.Meta{Pos: l.Pos, Last: l.Pos.Line, Text: raw, Time: d.lastTime, Timed: d.hasTime}
	if d.json != nil {
		if d.jsonMore(meta, s, out) {
			return true
		}
	}
	return d.process(meta, s, stream, out)
}

// process reads a line, its prefixes gone, where a block may be open.
func (d *decoder) process(meta parse.Meta, s string, stream byte, out *parse.Sink) bool {
	if d.commits != nil {
		return d.commitLine(s, out)
	}
	if h := d.jul; h != nil {
		d.jul = nil
		if lvl, msg, ok := julLevel(s); ok {
			return d.julRecord(h, meta, lvl, msg, stream, out)
		}
	}
	if x := d.exc; x != nil {
		if x.stream != 0 && stream != 0 && stream != x.stream {
			// The runner's other stream, printed between the lines of
			// this block: read it on its own.
			d.exc = nil
			ok := d.read(meta, s, stream, out)
			d.flush(out)
			d.exc = x
			return ok
		}
		if d.continuation(s, meta) {
			return true
		}
		d.flush(out)
	}
	return d.read(meta, s, stream, out)
}

// read reads a line no open block takes.
func (d *decoder) read(meta parse.Meta, s string, stream byte, out *parse.Sink) bool {
	switch {
	case isPatternStart(s):
		d.block, d.threadNode, d.ctx = noBlock, "", Where{Shard: -1}
		d.index, d.indexUUID = "", ""
		times := &d.times
		if d.general {
			times = nil
		}
		env, ok, bad := parsePattern(s, times)
		if !ok {
			return false
		}
		d.lastTime, d.hasTime = env.time, env.timed
		d.context(env)
		if bad != "" {
			out.Diag(meta.Pos, "%s", bad)
			return true
		}
		return d.envelope(meta, env, stream, out)
	case strings.HasPrefix(s, `{"`):
		d.block, d.threadNode = noBlock, ""
		if jsonOpen(s) {
			d.json = &pendingJSON{meta: meta, stream: stream, lines: 1}
			d.json.text.WriteString(s)
			d.json.depth.feed(s)
			return true
		}
		return d.jsonRecord(meta, s, stream, out)
	case s[0] == '{':
		return d.nodeLine(meta, s, out)
	case strings.HasPrefix(s, "nodes:"):
		d.block = nodesBlock
		return true
	case strings.HasPrefix(s, "routing_table (version "):
		d.block, d.section = routingBlock, "routing_table"
		d.index, d.indexUUID = "", ""
		v := strings.TrimSuffix(strings.TrimPrefix(s, "routing_table (version "), "):")
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			out.Diag(meta.Pos, "routing table: version %q is not a number", v)
			n = -1
		}
		d.version = n
		return true
	case strings.HasPrefix(s, "routing_nodes:"):
		d.block, d.section = routingBlock, "routing_nodes"
		d.index, d.indexUUID = "", ""
		return true
	case strings.HasPrefix(s, "--------["):
		return d.routingLine(meta, s[len("--------"):], out)
	case strings.HasPrefix(s, "-- index ["):
		// `-- index [[name/uuid]]` (Index.toString in brackets).
		in, _, _ := bracket(strings.TrimPrefix(s, "-- index "))
		in, _, _ = bracket(in)
		d.index, d.indexUUID, _ = strings.Cut(in, "/")
		return d.block == routingBlock || d.block == noBlock
	case strings.HasPrefix(s, "----shard_id [") ||
		strings.HasPrefix(s, "-----node_id[") || s == "---- unassigned":
		return d.block == routingBlock || d.block == noBlock
	}
	if env, ok := levelFirst(s); ok {
		d.block, d.threadNode, d.ctx = noBlock, "", Where{Shard: -1}
		d.index, d.indexUUID = "", ""
		d.context(env)
		return d.envelope(meta, env, stream, out)
	}
	if t, src, ok := julHeader(s); ok {
		d.block, d.threadNode, d.ctx = noBlock, "", Where{Shard: -1}
		d.index, d.indexUUID = "", ""
		d.lastTime, d.hasTime = t, true
		meta.Time, meta.Timed = t, true
		d.jul = &julPending{meta: meta, source: src}
		return true
	}
	if lvl, msg, ok := julLevel(s); ok {
		if d.julRecord(nil, meta, lvl, msg, stream, out) {
			return true
		}
	}
	if th, ok := threadNode(s); ok && strings.Contains(s, "Uncaught exception in thread") {
		d.threadNode = th
		return true
	}
	if t, ok := exceptionLine(s); ok {
		if th, ok := threadNode(t.msg); ok {
			d.threadNode = th
		}
		w := d.ctx
		if d.threadNode != "" {
			w.Node = d.threadNode
		}
		if !w.HasShard() {
			if sw, ok := esToStringShard(strings.TrimPrefix(s, "Caused by: ")); ok {
				w.Index, w.Shard = sw.Index, sw.Shard
			}
		}
		t.line, t.text = meta.Pos.Line, meta.Text
		d.startException(meta, w, stream, t)
		return true
	}
	d.ctx = Where{Shard: -1}
	return false
}

// context keeps the copy a WARN or ERROR line names: log4j prints the
// event's exception on the lines right under its message.
func (d *decoder) context(env envelope) {
	if keepsContext(env.level) {
		d.ctx = env.where
	}
}

// keepsContext reports whether a record of level names the copy that an
// exception printed under it is of (context).
func keepsContext[T string | []byte](level T) bool {
	switch string(level) {
	case "WARN", "ERROR", "FATAL", "WARNING", "SEVERE":
		return true
	}
	return false
}

// envelope handles a log record whose layout was read.
func (d *decoder) envelope(meta parse.Meta, env envelope, stream byte, out *parse.Sink) bool {
	meta.Time, meta.Timed = env.time, env.timed
	msg, more := env.msg, []string(nil)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		// A JSON message holding a dump or a stack: its lines are read
		// as the lines under a pattern-layout message are.
		msg, more = strings.TrimSuffix(msg[:i], "\r"), strings.Split(msg[i+1:], "\n")
	}
	handled := d.message(meta, env, msg, stream, out)
	if !env.json {
		return handled
	}
	for _, l := range append(more, env.stack...) {
		d.embedded(meta, strings.TrimSuffix(l, "\r"), out)
		handled = true
	}
	// A JSON record ends with its line: nothing it began goes on.
	d.flush(out)
	return handled
}

// message reads a record's message: a known message, the start of a
// multi-line block, or an alarm.
func (d *decoder) message(meta parse.Meta, env envelope, msg string, stream byte, out *parse.Sink) bool {
	if strings.Contains(msg, "peer recovery existing commits[") && !strings.Contains(msg, "gcp[") {
		d.commits = &pendingCommits{meta: meta, where: env.where, lines: 1}
		d.commits.text.WriteString(msg)
		return true
	}
	if strings.HasPrefix(msg, "nodes:") {
		d.block = nodesBlock
		return true
	}
	ev, err := message(meta, env.where, env.recoverTo, msg, Thrown{})
	if err != "" {
		out.Diag(meta.Pos, "%s", string(err))
		return true
	}
	if ev != nil {
		out.Emit(ev)
		return true
	}
	w := env.where
	rest := shardPrefix(&w, msg)
	if r := raisedBy(rest, env.level); r != "" {
		d.startRaised(meta, w, stream, r, rest, env.logger)
		return true
	}
	if t, ok := inlineException(rest); ok {
		t.line, t.text = meta.Pos.Line, meta.Text
		d.startException(meta, w, stream, t)
		d.exc.logger, d.exc.inline = env.logger, true
		return true
	}
	return false
}

// inlineException finds an exception a log message prints in its text:
// `... failure [RecoveryFailedException[..]; nested: ...]` or
// `... closing connection java.io.IOException: Connection reset`.
func inlineException(msg string) (thrown, bool) {
	if parts, at := detailed(msg); len(parts) > 0 {
		return thrown{msg: msg[at:]}, true
	}
	if c, m, ok := findThrowable(msg); ok {
		return thrown{class: c, msg: m}, true
	}
	return thrown{}, false
}

// embedded reads a line of a JSON record's message or stack. It cites the
// record's line and quotes its own text.
func (d *decoder) embedded(meta parse.Meta, l string, out *parse.Sink) {
	at, _ := prefixEnd(l)
	s := l[at:]
	if s == "" {
		return
	}
	d.indent = indentBefore(l, at)
	meta.Text = l
	d.process(meta, s, 0, out)
}

// julPending is a java.util.logging header waiting for its level line.
type julPending struct {
	meta   parse.Meta
	source string
}

// julRecord reads a java.util.logging record's second line (`LEVEL:
// msg`); h is its header, nil when the excerpt lost it. A record with its
// header is claimed even when its message is not read.
func (d *decoder) julRecord(h *julPending, meta parse.Meta, level, msg string, stream byte, out *parse.Sink) bool {
	env := envelope{where: Where{Shard: -1}, msg: msg, level: julData().levels[level]}
	if h != nil {
		meta = h.meta
		env.time, env.timed, env.logger = h.meta.Time, true, h.source
	} else {
		env.time, env.timed = meta.Time, meta.Timed
	}
	if th, ok := threadNode(msg); ok && strings.Contains(msg, "ncaught exception in thread") {
		d.threadNode = th
		return true
	}
	d.context(env)
	return d.envelope(meta, env, stream, out) || h != nil
}

// pendingJSON is a 7.x JSON record whose exception ESJsonLayout printed on
// the lines after it (JsonThrowablePatternConverter: `"stacktrace": [`,
// then one array element a line).
type pendingJSON struct {
	meta   parse.Meta
	stream byte
	text   strings.Builder
	depth  jsonDepth
	lines  int
}

// jsonMore takes the next line of an open JSON record; false when the
// record ended unclosed and the line is not part of it.
func (d *decoder) jsonMore(meta parse.Meta, s string, out *parse.Sink) bool {
	p := d.json
	c := s[0]
	if p.lines >= maxStackLines || (c != '"' && c != ']' && c != '}' && c != ',') {
		d.json = nil
		d.jsonRecord(p.meta, p.text.String(), p.stream, out)
		return false
	}
	p.text.WriteByte('\n')
	p.text.WriteString(s)
	p.depth.feed("\n" + s)
	p.lines++
	p.meta.Last = meta.Pos.Line
	if !p.depth.open() {
		d.json = nil
		d.jsonRecord(p.meta, p.text.String(), p.stream, out)
	}
	return true
}

// jsonRecord reads a whole JSON record.
func (d *decoder) jsonRecord(meta parse.Meta, s string, stream byte, out *parse.Sink) bool {
	env, ok, bad := parseJSON(s)
	if !ok {
		return false
	}
	if env.timed {
		d.lastTime, d.hasTime = env.time, true
	}
	if env.quote != "" {
		meta.Text = env.quote
	}
	if bad != "" {
		out.Diag(meta.Pos, "%s", bad)
		return true
	}
	d.ctx = Where{Shard: -1}
	d.context(env)
	return d.envelope(meta, env, stream, out)
}

// jsonOpen reports whether s starts a JSON object it does not close.
func jsonOpen(s string) bool {
	var j jsonDepth
	j.feed(s)
	return j.open()
}

// jsonDepth follows a JSON text's nesting, a piece at a time.
type jsonDepth struct {
	depth      int
	inStr, esc bool
	started    bool
}

func (j *jsonDepth) feed(s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case j.esc:
			j.esc = false
		case j.inStr:
			switch c {
			case '\\':
				j.esc = true
			case '"':
				j.inStr = false
			}
		case c == '"':
			j.inStr = true
		case c == '{' || c == '[':
			j.depth++
			j.started = true
		case c == '}' || c == ']':
			j.depth--
		}
	}
}

func (j *jsonDepth) open() bool { return j.started && (j.depth > 0 || j.inStr) }

func (d *decoder) commitLine(s string, out *parse.Sink) bool {
	c := d.commits
	c.lines++
	c.text.WriteString(s)
	if c.lines > maxCommitLines || c.text.Len() > maxCommitBytes {
		out.Diag(c.meta.Pos, "peer recovery commits: no gcp[N] within %d lines", maxCommitLines)
		d.commits = nil
		return true
	}
	if !strings.Contains(s, "gcp[") {
		return true
	}
	d.commits = nil
	c.meta.Last = c.meta.Pos.Line + c.lines - 1
	ev, err := message(c.meta, c.where, "", c.text.String(), Thrown{})
	if err != "" {
		out.Diag(c.meta.Pos, "%s", string(err))
		return true
	}
	if ev != nil {
		out.Emit(ev)
	}
	return true
}

// startsRecord reports whether a line, its prefixes and indent gone,
// begins something of its own (a log record, an exception) rather than
// continuing a message.
func startsRecord(t string) bool {
	if isPatternStart(t) || strings.HasPrefix(t, "{\"") || isLevelFirst([]byte(t)) {
		return true
	}
	_, ok := exceptionLine(t)
	return ok
}

// startsWrappedRecord is startsRecord for a line that may be the rest of
// a wrapped one: a cut can fall just before a bracketed timestamp in the
// message, so a pattern line counts only with its level after the time.
func startsWrappedRecord(t string) bool {
	if isPatternStart(t) {
		_, rest, _ := strings.Cut(t, "]")
		rest = strings.TrimPrefix(rest, "[")
		for _, l := range []string{"TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"} {
			if strings.HasPrefix(rest, l) {
				return true
			}
		}
		return false
	}
	return startsRecord(t)
}

// indentBefore counts the spaces and tabs right before at.
func indentBefore(s string, at int) int {
	n := 0
	for i := at - 1; i >= 0 && (s[i] == ' ' || s[i] == '\t'); i-- {
		n++
	}
	return n
}

// continuation takes a line that belongs to the block being read: stack
// frames, `... N more`, `Caused by:` and its frames, hamcrest's
// Expected/but lines, and the exception under a log message that raised
// or printed it.
func (d *decoder) continuation(s string, meta parse.Meta) bool {
	x := d.exc
	t := strings.TrimLeft(strings.TrimPrefix(strings.TrimLeft(s, " \t"), ">"), " \t")
	switch {
	case strings.HasPrefix(t, "at "):
		x.msgOpen = false
		if !x.sealed {
			text, class := frame(t)
			if !seedFrame(text) {
				if x.top == "" {
					x.top = class
				}
				if len(x.frames) < parse.MaxAlarmFrames {
					x.frames = append(x.frames, text)
				}
			}
		}
	case strings.HasPrefix(t, "... "):
	case strings.HasPrefix(t, "Suppressed:"):
		x.sealed, x.suppressed = true, true
	case strings.HasPrefix(t, "Expected:"):
		x.expected = t
		x.addLine(t)
	case strings.HasPrefix(t, "but:"):
		x.got = t
		x.addLine(t)
	case strings.HasPrefix(t, "Caused by: "):
		if x.suppressed && d.indent > x.indent {
			// The cause of a suppressed exception, indented under it.
			break
		}
		x.suppressed = false
		th, ok := exceptionLine(t)
		if !ok {
			th = thrown{class: strings.TrimSpace(strings.TrimPrefix(t, "Caused by: "))}
		}
		th.line, th.text = meta.Pos.Line, meta.Text
		x.chain = append(x.chain, th)
		x.msgOpen = true
		// A wrapper with no frames of its own (the runner's
		// UncaughtExceptionError) takes its cause's.
		x.sealed = len(x.frames) > 0
	case x.raised != "" && len(x.chain) == 0, x.inline && x.lines == 1:
		// The exception log4j prints under the message that logged it.
		th, ok := exceptionLine(t)
		if !ok {
			return false
		}
		th.line, th.text = meta.Pos.Line, meta.Text
		if x.inline {
			x.chain, x.inline = []thrown{th}, false
		} else {
			x.chain = append(x.chain, th)
		}
		x.msgOpen = true
	case x.msgOpen && x.stream != 0 && d.unprefixed && x.msgLines < maxMessageLines && len(x.chain) > 0 && !startsWrappedRecord(t):
		// A message the runner printed on one prefixed line, wrapped by
		// the terminal it was copied from: the rest of the line comes
		// back with no prefix and goes on where the wrap cut it, with
		// the space the cut fell before, if any.
		x.joinWrapped(meta.Text)
		x.msgLines++
	case x.msgOpen && d.indent > x.indent && x.msgLines < maxMessageLines && len(x.chain) > 0 && !startsRecord(t):
		// A message of several lines (a YAML REST test's failure, a
		// pretty-printed check) goes on, indented, before the frames.
		x.addLine(t)
		x.msgLines++
	default:
		return false
	}
	x.lines++
	if x.lines > maxStackLines {
		return true
	}
	// A JSON record's embedded lines cite the record, which may span
	// several lines.
	x.meta.Last = max(x.meta.Last, meta.Last)
	return true
}

func (d *decoder) nodeLine(meta parse.Meta, s string, out *parse.Sink) bool {
	if !strings.Contains(s, "}{") {
		return false
	}
	n, err := esval.ParseNode(s)
	if err != nil {
		if d.block == nodesBlock {
			out.Diag(meta.Pos, "node row: %v", err)
			return true
		}
		return false
	}
	out.Emit(&NodeRow{Meta: meta, Node: n})
	return true
}

func (d *decoder) routingLine(meta parse.Meta, s string, out *parse.Sink) bool {
	r, err := esval.ParseRouting(strings.TrimRight(s, " "))
	if err != nil {
		out.Diag(meta.Pos, "%v", err)
		return true
	}
	ver, sec, uuid := d.version, d.section, ""
	if d.block != routingBlock {
		ver, sec = -1, ""
	}
	if d.index != "" && d.index == r.Index {
		uuid = d.indexUUID
	}
	out.Emit(&RoutingRow{Meta: meta, Routing: r, Version: ver, Section: sec, IndexUUID: uuid})
	return true
}

// threadNode finds `elasticsearch[node]` in a thread name.
func threadNode(s string) (string, bool) {
	i := strings.Index(s, "elasticsearch[")
	if i < 0 {
		i = strings.Index(s, "opensearch[")
		if i < 0 {
			return "", false
		}
		i += len("opensearch")
	} else {
		i += len("elasticsearch")
	}
	n, _, ok := nameBracket(s[i:])
	return n, ok && n != ""
}

// findThrowable finds `pkg.Class(Exception|Error)[: message]` in a line,
// after whatever prefix a runner put before it (`Caused by: `,
// `Throwable #1: `, a console time stamp).
func findThrowable(s string) (class, msg string, ok bool) {
	from := 0
	for from < len(s) {
		i := indexWord(s[from:])
		if i < 0 {
			return "", "", false
		}
		startWord := from + i
		end := startWord
		for end < len(s) && isClassByte(s[end]) && s[end] != '.' {
			end++
		}
		from = end
		if !strings.HasSuffix(s[startWord:end], "Error") && !strings.HasSuffix(s[startWord:end], "Exception") {
			continue
		}
		if end < len(s) && s[end] != ':' {
			continue
		}
		start := startWord
		for start > 0 && isClassByte(s[start-1]) {
			start--
		}
		c := s[start:end]
		if !strings.Contains(c, ".") || c[0] < 'a' || c[0] > 'z' {
			continue
		}
		m := ""
		if end < len(s) {
			m = strings.TrimSpace(s[end+1:])
		}
		return c, m, true
	}
	return "", "", false
}

// indexWord finds the earliest "Error" or "Exception" in s.
func indexWord(s string) int {
	i, j := strings.Index(s, "Error"), strings.Index(s, "Exception")
	switch {
	case i < 0:
		return j
	case j < 0:
		return i
	}
	return min(i, j)
}

func isClassByte(c byte) bool {
	return c == '.' || c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}
